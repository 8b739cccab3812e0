/**
 * Hover, completion, go-to-definition and code actions for the XML files tollgate reads: answers from
 * the filters' schemas (src/filters), the merged chains (src/chain) and the last lint of the input.
 */
import { effectiveChain, type ResolvedContext } from '../chain/index.js';
import { FILTER_SPECS, findFilterSpec, type FilterSpec, type ParamDoc } from '../filters/index.js';
import { docsUrl } from '../lint/docs.js';
import type { Diagnostic, Span } from '../model/index.js';
import { decodeXml, parseXmlTree, type XmlDocument, type XmlElement } from '../parser/index.js';

/** A parsed editor buffer: its tree, even when half typed (elements left open run to the end). */
export interface ParsedDocument {
  path: string;
  text: string;
  doc: XmlDocument;
}

export function parseDocument(path: string, text: string): ParsedDocument {
  const { source } = decodeXml(Buffer.from(text, 'utf8'), path);
  return { path, text: source.text, doc: parseXmlTree(source).doc };
}

/** The elements that contain `offset`, outermost first. */
export function elementsAt(doc: XmlDocument, offset: number): XmlElement[] {
  const path: XmlElement[] = [];
  let level: XmlElement[] = doc.root ? [doc.root] : [];
  for (;;) {
    const hit = level.find((el) => el.span.offset <= offset && offset <= el.span.endOffset);
    if (!hit) return path;
    path.push(hit);
    level = hit.children;
  }
}

const childText = (el: XmlElement | undefined, name: string): string | null =>
  el?.children.find((c) => c.name === name)?.text.trim() ?? null;

/** Whether `offset` is in the element's content (between its tags), where a value is typed. */
function inContent(el: XmlElement, offset: number): boolean {
  return el.contentStart <= offset && offset <= el.contentEnd && el.contentEnd >= el.contentStart;
}

function paramDoc(spec: FilterSpec, name: string): ParamDoc | undefined {
  const resolved = spec.resolveParam(name) ?? name;
  if (spec.params[resolved]) return spec.params[resolved];
  for (const [prefix, doc] of Object.entries(spec.dynamicParams ?? {})) if (name.startsWith(prefix)) return doc;
  return undefined;
}

function describeParam(name: string, doc: ParamDoc): string {
  const lines = [`**${name}**`, '', doc.description];
  if (doc.default !== undefined) lines.push('', `Default: \`${doc.default === '' ? '(empty)' : doc.default}\``);
  if (doc.examples?.length) lines.push('', `Examples: ${doc.examples.map((e) => `\`${e}\``).join(', ')}`);
  if (doc.ignoredByTomcat) lines.push('', `Tomcat never reads it: ${doc.ignoredByTomcat}`);
  if (doc.removedIn) lines.push('', `Gone in Tomcat ${doc.removedIn}.`);
  return lines.join('\n');
}

function describeFilter(spec: FilterSpec): string {
  const lines = [
    `**${spec.simpleName}** (\`${spec.classNames[0]}\`)`,
    '',
    spec.description,
    '',
    '| init-param | default |',
    '|---|---|',
  ];
  for (const [name, doc] of Object.entries(spec.params))
    lines.push(`| \`${name}\` | ${doc.default === undefined ? '' : `\`${doc.default || '(empty)'}\``} |`);
  return lines.join('\n');
}

/** The `<filter>` a filter-name refers to, in this document. */
function filterDefinition(doc: XmlDocument, name: string): XmlElement | undefined {
  return doc.root?.children.find((c) => c.name === 'filter' && childText(c, 'filter-name') === name);
}

/** A request path a url-pattern matches, to ask the chain for. */
function samplePath(pattern: string): string {
  if (pattern.startsWith('*.')) return `/x${pattern.slice(1)}`;
  if (pattern.endsWith('/*')) return `${pattern.slice(0, -1)}x`;
  if (pattern === '' || pattern === '/') return '/';
  return pattern;
}

const where = (span: Span, root: string): string =>
  `${span.file.startsWith(root) ? span.file.slice(root.length + 1) : span.file}:${span.line}:${span.column}`;

/**
 * Hover text (Markdown) at `offset`, or null. `contexts` gives the merged contexts the document takes
 * part in (asked only for a mapping's url-pattern: loading them costs a load of the input).
 */
export function hover(
  p: ParsedDocument,
  offset: number,
  contexts: () => readonly ResolvedContext[],
  root: string,
): string | null {
  const path = elementsAt(p.doc, offset);
  const el = path[path.length - 1];
  const parent = path[path.length - 2];
  if (!el) return null;
  if (el.name === 'filter-class') {
    const spec = findFilterSpec(el.text);
    return spec ? describeFilter(spec) : `\`${el.text.trim()}\` is not one of Tomcat's filters tollgate knows.`;
  }
  if ((el.name === 'param-name' || el.name === 'param-value') && parent?.name === 'init-param') {
    const filter = path[path.length - 3];
    const spec = filter?.name === 'filter' ? findFilterSpec(childText(filter, 'filter-class') ?? '') : undefined;
    const name = childText(parent, 'param-name') ?? '';
    const doc = spec ? paramDoc(spec, name) : undefined;
    return spec && doc ? describeParam(name, doc) : null;
  }
  if (el.name === 'url-pattern' && parent?.name === 'filter-mapping') {
    const all = contexts();
    const own = all.filter(
      (c) =>
        c.context.webXml?.file === p.path || (c.context.docBase !== '' && p.path.startsWith(c.context.docBase + '/')),
    );
    const c = own[0] ?? all[0];
    if (!c) return null;
    const pattern = el.text.trim();
    const chain = effectiveChain(c.merged, samplePath(pattern), 'REQUEST');
    const head = `**Chain for \`${samplePath(pattern)}\`** in ${c.host.name}${c.context.path || '/'} (REQUEST)`;
    if (!chain.servlet) return `${head}\n\nNo servlet is mapped to this path: Tomcat answers 404 and runs no filter.`;
    const rows = chain.entries.map(
      (e, i) =>
        `${i + 1}. \`${e.filter.name}\` ${e.filter.className?.value ?? ''}, matched by ${e.matchedBy.kind} \`${e.matchedBy.value}\` at ${where(e.matchedBy.span, root)}`,
    );
    return [
      head,
      '',
      ...(rows.length ? rows : ['(no filter)']),
      '',
      `Then the servlet \`${chain.servlet.servletName}\`.`,
    ].join('\n');
  }
  return null;
}

export interface Completion {
  label: string;
  detail?: string;
  documentation?: string;
}

const DISPATCHERS = ['REQUEST', 'FORWARD', 'INCLUDE', 'ERROR', 'ASYNC'];

/** Completions for the element content at `offset`. */
export function complete(p: ParsedDocument, offset: number, globalFilterNames: readonly string[] = []): Completion[] {
  const path = elementsAt(p.doc, offset);
  const el = path[path.length - 1];
  const parent = path[path.length - 2];
  if (!el || !inContent(el, offset)) return [];
  if (el.name === 'filter-class') {
    return FILTER_SPECS.map((s) => ({ label: s.classNames[0]!, detail: s.simpleName, documentation: s.description }));
  }
  if (el.name === 'dispatcher') return DISPATCHERS.map((d) => ({ label: d }));
  if (el.name === 'filter-name' && parent?.name === 'filter-mapping') {
    const own = (p.doc.root?.children ?? [])
      .filter((c) => c.name === 'filter')
      .map((c) => childText(c, 'filter-name'))
      .filter((n): n is string => !!n);
    return [...new Set([...own, ...globalFilterNames])].map((n) => ({
      label: n,
      detail: own.includes(n) ? 'filter of this file' : 'filter of conf/web.xml',
    }));
  }
  if ((el.name === 'param-name' || el.name === 'param-value') && parent?.name === 'init-param') {
    const filter = path[path.length - 3];
    const spec = filter?.name === 'filter' ? findFilterSpec(childText(filter, 'filter-class') ?? '') : undefined;
    if (!spec) return [];
    if (el.name === 'param-name') {
      const given = new Set(
        filter!.children.filter((c) => c.name === 'init-param').map((c) => childText(c, 'param-name')),
      );
      return Object.entries(spec.params)
        .filter(([n, d]) => !given.has(n) && d.removedIn === undefined)
        .map(([n, d]) => ({
          label: n,
          detail: d.default === undefined ? spec.simpleName : `default ${d.default || '(empty)'}`,
          documentation: d.description,
        }));
    }
    const name = childText(parent, 'param-name') ?? '';
    const doc = paramDoc(spec, name);
    const resolved = spec.resolveParam(name) ?? name;
    const kind = spec.paramKinds[resolved] ?? '';
    const values = new Set<string>();
    if (kind.includes('bool')) ['true', 'false'].forEach((v) => values.add(v));
    if (doc?.default) values.add(doc.default);
    for (const e of doc?.examples ?? []) values.add(e);
    if (resolved === 'cors.allowed.methods')
      ['GET', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH'].forEach((v) => values.add(v));
    if (name.startsWith('ExpiresBy') || name === 'ExpiresDefault') {
      for (const v of ['access plus 1 day', 'access plus 1 hour', 'access plus 1 month', 'modification plus 1 week'])
        values.add(v);
    }
    return [...values].map((v) => ({ label: v, ...(doc ? { documentation: doc.description } : {}) }));
  }
  return [];
}

/** Where the filter a filter-mapping's filter-name names is defined: in this document, else in `global`. */
export function definition(
  p: ParsedDocument,
  offset: number,
  global: ParsedDocument | null,
): { path: string; offset: number; endOffset: number } | null {
  const path = elementsAt(p.doc, offset);
  const el = path[path.length - 1];
  if (el?.name !== 'filter-name' || path[path.length - 2]?.name !== 'filter-mapping') return null;
  const name = el.text.trim();
  for (const doc of [p, global]) {
    const def = doc ? filterDefinition(doc.doc, name) : undefined;
    if (doc && def) return { path: doc.path, offset: def.span.offset, endOffset: def.span.endOffset };
  }
  return null;
}

/** The line of `offset`'s indentation, for a comment inserted above it. */
export function indentationAt(text: string, offset: number): { lineStart: number; indent: string } {
  let s = offset;
  while (s > 0 && text[s - 1] !== '\n') s--;
  let e = s;
  while (e < text.length && (text[e] === ' ' || text[e] === '\t')) e++;
  return { lineStart: s, indent: text.slice(s, e) };
}

/** The inline suppression tollgate honours, for the line a finding is on. */
export function suppressionComment(d: Diagnostic, indent: string, eol: string): string {
  return `${indent}<!-- tollgate-disable-next-line ${d.ruleId} :: reason -->${eol}`;
}

export { docsUrl };
