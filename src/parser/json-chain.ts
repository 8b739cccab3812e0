import { dirname } from 'node:path';
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type {
  CatalinaBase,
  Diagnostic,
  FilterDef,
  FilterMapping,
  Located,
  LoadedContext,
  Param,
  SourceFile,
  WebXml,
} from '../model/index.js';
import { LineIndex } from './lines.js';

function emptyWebXml(file: string, lines: LineIndex, node: Node): WebXml {
  return {
    file,
    root: 'web-app',
    generation: 'unknown',
    namespace: null,
    version: null,
    metadataComplete: null,
    span: lines.span(node.offset, node.offset + node.length),
    filters: [],
    filterMappings: [],
    servlets: [],
    servletMappings: [],
    mimeMappings: [],
    welcomeFiles: [],
    sessionTimeout: null,
    contextParams: [],
    realmName: null,
    requestCharacterEncoding: null,
    doctype: null,
  };
}

/** A JSON value as the string Tomcat would have read from web.xml: lists joined with commas. */
function asParamText(node: Node): string | null {
  switch (node.type) {
    case 'string':
      return node.value as string;
    case 'number':
    case 'boolean':
      return String(node.value);
    case 'array':
      return (node.children ?? [])
        .map((c) => (c.type === 'string' || c.type === 'number' ? String(c.value) : ''))
        .join(',');
    default:
      return null;
  }
}

class Reader {
  constructor(
    readonly lines: LineIndex,
    readonly file: string,
    readonly diagnostics: Diagnostic[],
  ) {}

  prop(node: Node | undefined, key: string): Node | undefined {
    if (node?.type !== 'object') return undefined;
    for (const p of node.children ?? []) if (p.children?.[0]?.value === key) return p.children[1];
    return undefined;
  }

  located(node: Node): Located<string> {
    // The span of a string covers its characters, without the quotes.
    const inner = node.type === 'string' ? 1 : 0;
    return { value: String(node.value), span: this.lines.span(node.offset + inner, node.offset + node.length - inner) };
  }

  string(node: Node | undefined, what: string, parent: Node): Located<string> | null {
    if (node?.type === 'string') return this.located(node);
    this.diagnostics.push({
      ruleId: 'json-chain-invalid',
      severity: 'error',
      message: `${what} must be a string.`,
      span: node
        ? this.lines.span(node.offset, node.offset + node.length)
        : this.lines.span(parent.offset, parent.offset + 1),
    });
    return null;
  }

  strings(node: Node | undefined): Located<string>[] {
    if (node?.type !== 'array') return [];
    return (node.children ?? []).filter((c) => c.type === 'string').map((c) => this.located(c));
  }
}

function readLayer(r: Reader, node: Node, webXml: WebXml): void {
  for (const f of r.prop(node, 'filters')?.children ?? []) {
    const name = r.string(r.prop(f, 'name'), 'A filter\'s "name"', f);
    const className = r.string(r.prop(f, 'class'), 'A filter\'s "class"', f);
    if (!name) continue;
    const initParams: Param[] = [];
    for (const p of r.prop(f, 'params')?.children ?? []) {
      const [k, v] = p.children ?? [];
      if (!k || !v) continue;
      const text = asParamText(v);
      if (text === null) {
        r.diagnostics.push({
          ruleId: 'json-chain-invalid',
          severity: 'error',
          message: `Parameter "${String(k.value)}" must be a string, number, boolean or list of strings.`,
          span: r.lines.span(v.offset, v.offset + v.length),
        });
        continue;
      }
      const inner = v.type === 'string' ? 1 : 0;
      initParams.push({
        name: r.located(k),
        value: { value: text, span: r.lines.span(v.offset + inner, v.offset + v.length - inner) },
        span: r.lines.span(p.offset, p.offset + p.length),
      });
    }
    const async = r.prop(f, 'asyncSupported');
    webXml.filters.push({
      name,
      className,
      initParams,
      span: r.lines.span(f.offset, f.offset + f.length),
      asyncSupported: async
        ? { value: String(async.value), span: r.lines.span(async.offset, async.offset + async.length) }
        : null,
    } satisfies FilterDef);
  }
  for (const m of r.prop(node, 'mappings')?.children ?? []) {
    const filterName = r.string(r.prop(m, 'filter'), 'A mapping\'s "filter"', m);
    if (!filterName) continue;
    webXml.filterMappings.push({
      filterName,
      urlPatterns: r.strings(r.prop(m, 'urlPatterns')),
      servletNames: r.strings(r.prop(m, 'servletNames')),
      dispatchers: r.strings(r.prop(m, 'dispatchers')),
      span: r.lines.span(m.offset, m.offset + m.length),
    } satisfies FilterMapping);
  }
  for (const p of r.prop(node, 'servletMappings')?.children ?? []) {
    const [k, v] = p.children ?? [];
    if (k?.type === 'string' && v?.type === 'string')
      webXml.servletMappings.push({
        servletName: r.located(v),
        urlPatterns: [r.located(k)],
        span: r.lines.span(p.offset, p.offset + p.length),
      });
  }
  webXml.welcomeFiles.push(...r.strings(r.prop(node, 'welcomeFiles')));
  const timeout = r.prop(node, 'sessionTimeoutMinutes');
  if (timeout)
    webXml.sessionTimeout = {
      value: String(timeout.value),
      span: r.lines.span(timeout.offset, timeout.offset + timeout.length),
    };
}

/** What a stock Tomcat conf/web.xml contributes when a document has no "global" part. */
function stockDefaults(webXml: WebXml, span: WebXml['span']): void {
  const at = <T>(value: T) => ({ value, span });
  for (const [pattern, servlet] of [
    ['/', 'default'],
    ['*.jsp', 'jsp'],
    ['*.jspx', 'jsp'],
  ] as const) {
    webXml.servletMappings.push({ servletName: at(servlet), urlPatterns: [at(pattern)], span });
  }
  webXml.welcomeFiles.push(at('index.html'), at('index.htm'), at('index.jsp'));
}

const MAX_DEPTH = 256;

/** The offset of the first [ or { (outside strings) more than `max` levels deep, or -1. */
function nestingBeyond(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip the string, escapes included.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 || c === 123) {
      if (++depth > max) return i;
    } else if (c === 93 || c === 125) {
      depth--;
    }
  }
  return -1;
}

/**
 * Reads a tollgate.chain.json document into the same model a CATALINA_BASE
 * gives (a global descriptor and one descriptor per context), with spans at
 * the JSON's line and column, so lint, chain and compile treat both alike.
 * Typed values become the text Tomcat would read (true, 600, "a,b").
 */
export function parseChainJson(
  text: string,
  file: string,
): { base: CatalinaBase; source: SourceFile; diagnostics: Diagnostic[] } {
  const source: SourceFile = { path: file, text, encoding: 'utf-8', bom: false, comments: [] };
  const lines = new LineIndex(file, text);
  const diagnostics: Diagnostic[] = [];
  const dir = dirname(file);
  const base: CatalinaBase = {
    base: dir,
    home: dir,
    serverXml: null,
    globalWebXml: null,
    users: null,
    engineName: 'Catalina',
    defaultHost: 'localhost',
    hosts: [],
    properties: {},
    files: new Map([[file, source]]),
    diagnostics,
  };
  // jsonc-parser recurses per level and overflows the stack a few thousand levels down (found by test/fuzz).
  const deep = nestingBeyond(text, MAX_DEPTH);
  if (deep >= 0) {
    diagnostics.push({
      ruleId: 'json-malformed',
      severity: 'error',
      message: `Malformed JSON: nested deeper than ${MAX_DEPTH} levels (a chain document needs six).`,
      span: lines.span(deep, deep + 1),
    });
    base.hosts.push({
      engineName: 'Catalina',
      name: 'localhost',
      aliases: [],
      appBase: dir,
      def: null,
      webXmlDefault: null,
      contexts: [],
    });
    return { base, source, diagnostics };
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  for (const e of errors.slice(0, 5)) {
    diagnostics.push({
      ruleId: 'json-malformed',
      severity: 'error',
      message: `Malformed JSON: ${printParseErrorCode(e.error)}.`,
      span: lines.span(e.offset, e.offset + Math.max(1, e.length)),
    });
  }
  if (!root || root.type !== 'object') {
    if (errors.length === 0)
      diagnostics.push({
        ruleId: 'json-malformed',
        severity: 'error',
        message: 'A chain document is a JSON object with "version" and "contexts".',
        span: lines.span(0, 0),
      });
    base.hosts.push({
      engineName: 'Catalina',
      name: 'localhost',
      aliases: [],
      appBase: dir,
      def: null,
      webXmlDefault: null,
      contexts: [],
    });
    return { base, source, diagnostics };
  }
  const r = new Reader(lines, file, diagnostics);
  const global = r.prop(root, 'global');
  base.globalWebXml = emptyWebXml(file, lines, global ?? root);
  if (global) readLayer(r, global, base.globalWebXml);
  else stockDefaults(base.globalWebXml, lines.span(root.offset, root.offset + 1));
  const hosts = new Map<string, LoadedContext[]>([['localhost', []]]);
  for (const c of r.prop(root, 'contexts')?.children ?? []) {
    const pathNode = r.prop(c, 'path');
    const rawPath = pathNode?.type === 'string' ? String(pathNode.value) : '';
    const path = rawPath === '/' ? '' : rawPath.replace(/\/+$/, '');
    // A "host" that is not a string (a number, an object) is reported, and the context stays on localhost.
    const hostNode = r.prop(c, 'host');
    const host = (hostNode ? r.string(hostNode, 'A context\'s "host"', c)?.value : undefined) ?? 'localhost';
    const webXml = emptyWebXml(file, lines, c);
    readLayer(r, c, webXml);
    const name = path === '' ? 'ROOT' : path.slice(1).replace(/\//g, '#');
    const list = hosts.get(host) ?? [];
    list.push({ path, version: '', name, docBase: dir, source: 'server-xml', contextDef: null, webXml });
    hosts.set(host, list);
  }
  for (const [name, contexts] of hosts)
    base.hosts.push({
      engineName: 'Catalina',
      name,
      aliases: [],
      appBase: dir,
      def: null,
      webXmlDefault: null,
      contexts,
    });
  return { base, source, diagnostics };
}
