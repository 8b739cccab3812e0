import { SaxesParser, type SaxesTagPlain } from 'saxes';
import type { Diagnostic, Located, SourceFile, Span } from '../model/index.js';
import { parseSimpleTree } from './fast-xml.js';
import { LineIndex } from './lines.js';
import { attributeErrors, Namespaces } from './namespaces.js';
import { deepNesting, STOP_DEPTH, TreeBuilder, type RawAttribute, type XmlDocument, type XmlElement } from './tree.js';

export type { XmlAttribute, XmlDocument, XmlElement } from './tree.js';

/**
 * Java's parser, and so Tomcat, stops at the first fatal error of a file: so does this one, and the
 * error is reported once (issue 17: one "<!--" inside a tag gave five findings, one per character).
 */
const MAX_ERRORS = 1;

/** Java's limit on entity expansions in one document (jdk.xml.entityExpansionLimit). */
const EXPANSION_LIMIT = 64000;
/** The JDK's jdk.xml.totalEntitySizeLimit: characters all entity expansions of one document may produce. */
const TOTAL_SIZE_LIMIT = 50_000_000;

/**
 * One saxes read of a document: the tree it builds (through the TreeBuilder the fast scanner
 * feeds too), the namespaces in scope and the entity accounting. saxes runs without its own
 * namespace processing, whose prefix lookup walks every open tag (quadratic in depth): namespaces.ts
 * does it with the same results and messages. Only saxes' public API is used: its handlers (on),
 * fail(), position, xmlDecl and the ENTITIES table. Seven handlers, no more: see declare().
 */
class SaxesRead {
  readonly diagnostics: Diagnostic[] = [];
  doctype: Located<string> | null = null;
  readonly tree: TreeBuilder;
  readonly ns = new Namespaces();
  readonly parser = new SaxesParser({ xmlns: false, position: true });
  errors = 0;
  stopped = false;
  /** Set while this reader reports a namespace message through saxes' fail() (saxes' own duplicate check is replaced). */
  emulating = false;
  /**
   * The attributes of the start tag being read, as written (duplicates included): the first
   * attributeCount entries (the array is reused without shrinking; V8 drops the storage of an
   * array whose length is set to 0, and it was regrown for every element).
   */
  readonly attributeNames: string[] = [];
  attributeCount = 0;
  /** A declared entity Java's parser refuses to expand, and the DOCTYPE's span: reported after parsing unless a reference was. */
  bomb: { name: string; span: Span } | null = null;
  /** Whether the document references an external entity (which Tomcat refuses to read). */
  externalReferenced = false;
  /** The declared entities, measured (evaluateEntities). */
  entities: EntityTable | null = null;
  expansions = 0;
  /** Characters all expansions produced so far (the JDK's totalEntitySizeLimit counts the same). */
  expandedChars = 0;

  constructor(
    readonly text: string,
    readonly lines: LineIndex,
  ) {
    this.tree = new TreeBuilder(text, lines);
    // Module-level handlers, registered in one order: saxes then sees one object shape and one
    // callee per event, which keeps V8's optimised code stable (per-parse closures made it swing
    // between fast and twice as slow from one run to the next).
    const p = this.parser;
    p.on('doctype', onDoctype);
    p.on('comment', onComment);
    p.on('opentag', onOpenTag);
    p.on('closetag', onCloseTag);
    p.on('text', onText);
    p.on('cdata', onText);
    p.on('error', onError);
  }

  report(d: Diagnostic): void {
    if (this.stopped) return;
    this.diagnostics.push(d);
    if (++this.errors >= MAX_ERRORS) this.stopped = true;
  }

  /** A namespace message, through saxes so that it is located and counted as saxes' own would be. */
  fail(message: string): void {
    this.emulating = true;
    try {
      this.parser.fail(message);
    } finally {
      this.emulating = false;
    }
  }
}

/** What saxes reads as a line end in a DOCTYPE (CR, and in XML 1.1 NEL and LS) and writes as LF. */
const LINE_ENDS = /[\r\x85\u2028]/;

/** The read being fed: saxes calls some handlers without `this`, and parsing never nests. */
let active: SaxesRead | null = null;

function onDoctype(saxesValue: string): void {
  const r = active!;
  const end = r.parser.position;
  const start = r.text.lastIndexOf('<!DOCTYPE', end);
  // saxes builds the value by concatenation, several pieces per declaration of the internal
  // subset: reading that (millions of pieces for 300,000 declarations) first flattens it. Where
  // saxes copied the text as written (no line end it normalises) the same characters are a slice
  // of the source. Equal lengths prove it is the same stretch: a wrong start could only be a
  // later "<!DOCTYPE" (shorter), and anything saxes added or normalised changes the length.
  const written = start < 0 ? '' : r.text.slice(start + 9, end - 1);
  const dt = written.length === saxesValue.length && !LINE_ENDS.test(written) ? written : saxesValue;
  const doctype = { value: dt, span: r.lines.span(start < 0 ? 0 : start, end) };
  r.doctype = doctype;
  const declared = declaredEntities(dt);
  const table = declared.size > 0 ? evaluateEntities(declared) : null;
  let bomb: string | undefined;
  if (table) {
    // The first refused while measuring, else the first measured past the limits (in the order Java's parser meets them).
    for (const [name, reason] of table.refused) {
      if (reason === 'limit' || reason === 'size' || reason === 'recursive') {
        bomb = name;
        break;
      }
    }
    bomb ??= table.firstOverLimit;
  }
  if (bomb !== undefined) r.bomb = { name: bomb, span: doctype.span };
  checkDoctype(dt, doctype.span, r.lines, r.diagnostics, bomb);
  if (table) {
    const entities = r.parser.ENTITIES;
    r.entities = table;
    // saxes looks every reference up in its public ENTITIES table: counting the lookups bounds
    // declared entities the way the JDK does (a refused one is left as written, and reported).
    r.parser.ENTITIES = new Proxy(entities, {
      get: (target, name) => (typeof name === 'string' ? entityValue(r, target, name) : undefined),
    });
  }
}

function entityValue(r: SaxesRead, entities: Record<string, string>, entity: string): string | undefined {
  const table = r.entities!;
  const reason = table.refused.get(entity) ?? (overLimit(table, entity) ? 'limit' : undefined);
  if (reason !== undefined) {
    onEntityProblem(r, entity, reason);
    return `&${entity};`;
  }
  const cost = costOf(table, entity);
  if (cost !== undefined) {
    const before = r.expansions;
    r.expansions += cost;
    if (r.expansions > EXPANSION_LIMIT) {
      if (before <= EXPANSION_LIMIT) onEntityProblem(r, entity, 'limit');
      return `&${entity};`;
    }
    // Quadratic blowup: few expansions of one large entity. Building it would outgrow V8's longest string.
    const value = entityText(table, entity);
    const beforeChars = r.expandedChars;
    r.expandedChars += value.length;
    if (r.expandedChars > TOTAL_SIZE_LIMIT) {
      if (beforeChars <= TOTAL_SIZE_LIMIT) onEntityProblem(r, entity, 'size');
      return `&${entity};`;
    }
    return value;
  }
  return entities[entity];
}

function onComment(body: string): void {
  const r = active!;
  const position = r.parser.position;
  const start = r.text.lastIndexOf('<!--', position);
  const close = r.text.indexOf('-->', start + 4);
  r.tree.comment(start, close < 0 ? position : close + 3, body);
}

function onOpenTag(tag: SaxesTagPlain): void {
  const r = active!;
  const tree = r.tree;
  const text = r.text;
  const openEnd = r.parser.position;
  const depth = tree.openDepth;
  // No "<" can occur inside a start tag (attribute values may not hold one), so the last one is ours.
  const tagStart = lastLess(text, openEnd - 1);
  const afterName = tagStart + 1 + tag.name.length;
  const c = text.charCodeAt(afterName);
  const attributes =
    c === 62 /* > */ || c === 47 /* / */ ? NO_ATTRIBUTES : readAttributes(text, afterName, openEnd, tag.attributes);
  r.attributeCount = 0;
  if (attributes.length > 0) declare(r, depth, attributes);
  // saxes' processAttribsNS, at the end of the start tag as in saxes.
  const namespace = r.ns.element(tag.name, r.attributeNames, MESSAGES, r.attributeCount);
  if (MESSAGES.length > 0) for (const m of MESSAGES.splice(0)) r.fail(m);
  if (depth + 1 > STOP_DEPTH) {
    // saxes keeps every open tag (about 1 KB each): stop before that grows without bound.
    r.diagnostics.push({
      ruleId: 'xml-deep-nesting',
      severity: 'error',
      message: `Elements nest more than ${STOP_DEPTH} levels deep here: tollgate stopped reading the file at this point to keep memory bounded, so nothing after it is checked, and serve/compile leave what depends on it unstarted. Tomcat reads on (a 100,000-level web.xml started on Tomcat 10.1.60); no descriptor schema nests more than eight levels.`,
      span: r.lines.span(tagStart, tagStart + 1),
    });
    r.stopped = true;
    throw new Error('nesting too deep');
  }
  const colon = tag.name.indexOf(':');
  // saxes' local name, or the qualified name where it has none ("a:").
  const local = colon < 0 ? tag.name : tag.name.slice(colon + 1) || tag.name;
  tree.open(depth, tagStart, openEnd, tag.name, local, namespace, attributes, tag.isSelfClosing);
}

/**
 * The attributes' names (for processAttribsNS) and declarations of a start tag, and what saxes'
 * namespace mode reports of each as it reads it (pushAttribNS), located where saxes locates it:
 * the attribute's closing quote. Done here rather than in an attribute handler: an eighth handler
 * set through saxes' on() turns the parser into a dictionary-mode object in V8, and every saxes
 * step twice as slow. (A tag that also has a syntax error after such an attribute reports that
 * one first; both make Tomcat refuse the file.)
 */
function declare(r: SaxesRead, depth: number, attributes: readonly RawAttribute[]): void {
  const xml10 = r.parser.xmlDecl.version !== '1.1';
  const names = r.attributeNames;
  let n = 0;
  for (let i = 0; i < attributes.length; i++) {
    const a = attributes[i]!;
    names[r.attributeCount++] = a.qname;
    if (!a.qname.startsWith('xmlns') && !a.qname.includes(':')) continue;
    // This occurrence's own value (a.value is the last of duplicates, as saxes keeps it), where it reads as written.
    const written = r.text.slice(a.valueStart, a.valueEnd);
    const bound = attributeErrors(a.qname, NOT_AS_WRITTEN.test(written) ? a.value : written, xml10, MESSAGES);
    if (bound) {
      DECL_PREFIXES[n] = bound.prefix;
      DECL_URIS[n++] = bound.uri;
    }
    if (MESSAGES.length > 0) for (const m of MESSAGES.splice(0)) reportAt(r, m, a.valueEnd + 1);
  }
  // The prefixes are kept while the element is open: an exact copy, not the scratch array.
  if (n > 0) r.ns.bind(depth, DECL_PREFIXES.slice(0, n), DECL_URIS);
}

/** A message saxes would have given with its position at `at`, reported as onError reports it. */
function reportAt(r: SaxesRead, message: string, at: number): void {
  // Past the cap reading stops, as at any further saxes error.
  if (r.stopped) throw new Error(message);
  r.report({
    ruleId: 'xml-malformed',
    severity: 'error',
    message: `Malformed XML: ${message.replace(/\.+$/, '')}.`,
    span: r.lines.span(at - 1, at),
  });
}

/**
 * text.lastIndexOf('<', from), as a loop: lastIndexOf is a call into V8's runtime, a tenth of
 * the handlers' time for 1,000,000 siblings, where the "<" is a few characters back.
 */
function lastLess(text: string, from: number): number {
  let i = from;
  while (i >= 0 && text.charCodeAt(i) !== 60) i--;
  return i;
}

/** text.lastIndexOf('</', from), as a loop (see lastLess). */
function lastEndTag(text: string, from: number): number {
  let i = from;
  while (i >= 0 && (text.charCodeAt(i) !== 60 || text.charCodeAt(i + 1) !== 47)) i--;
  return i;
}

function onCloseTag(tag: SaxesTagPlain): void {
  const r = active!;
  const tree = r.tree;
  const end = r.parser.position;
  // saxes is done with the tag's attributes once this returns (and, for a self-closing tag, with
  // its name). Let go of them: after deep nesting V8 pretenures saxes' tag objects, and a dead tag
  // in old space would keep both alive through every scavenge until the next full collection.
  tag.attributes = NO_VALUES;
  if (tag.isSelfClosing) {
    tag.name = '';
    // Completed at its start tag: only its declarations go out of scope.
    r.ns.unbind(tree.openDepth);
    return;
  }
  r.ns.unbind(tree.openDepth - 1);
  tree.close(0, 0, lastEndTag(r.text, end - 1), end);
}

function onText(t: string): void {
  active!.tree.appendText(t);
}

function onError(err: Error): void {
  const r = active!;
  const message = err.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '').replace(/\.+$/, '');
  // Without its namespace processing saxes compares attributes by qualified name; with it, by
  // expanded name, which SaxesRead checks (and reports) when the start tag is complete.
  if (!r.emulating && message.startsWith('duplicate attribute: ')) return;
  // Past the cap nothing more is reported: stop reading. Garbage after it made saxes build an
  // Error (with its stack) per character, over a second for 190 KB (found by test/fuzz).
  if (r.stopped) throw err;
  const text = r.text;
  const at = Math.min(r.parser.position, text.length);
  if (/malformed comment/.test(message)) {
    r.report({
      ruleId: 'xml-malformed',
      severity: 'error',
      message:
        'Malformed XML: a comment may not contain "--" (Tomcat\'s parser rejects the whole file). In a tollgate suppression, write the reason after "::".',
      span: r.lines.span(Math.max(0, at - 1), at),
    });
    return;
  }
  // "<filter <!-- x -->>": saxes sees attribute names made of "<!--"; Java says the element needs attributes, ">" or "/>".
  const tagStart = text.lastIndexOf('<', at - 1);
  if (/attribute name/.test(message) && tagStart > 0 && text.startsWith('<!--', tagStart)) {
    const open = text.lastIndexOf('<', tagStart - 1);
    const name = /^<([^\s/>]+)/.exec(text.slice(open))?.[1] ?? 'element';
    r.report({
      ruleId: 'xml-malformed',
      severity: 'error',
      message: `Malformed XML: a comment cannot stand inside the tag <${name} ...>: Tomcat's parser stops here ("Element type must be followed by either attribute specifications, '>' or '/>'") and refuses the file. Move the comment after the ">".`,
      span: r.lines.span(tagStart, Math.min(text.length, tagStart + 4)),
    });
    return;
  }
  if (message === 'unexpected close tag') {
    const close = /^<\/[^>\s]*/.exec(text.slice(text.lastIndexOf('</', at - 1)))?.[0];
    if (close) {
      r.report({
        ruleId: 'xml-malformed',
        severity: 'error',
        message: `Malformed XML: ${close}> closes no open element (Tomcat's parser stops here and refuses the file).`,
        span: r.lines.span(Math.max(0, at - 1), at),
      });
      return;
    }
  }
  const undefinedEntity = /undefined entity/.test(message);
  const entityStart = undefinedEntity ? text.lastIndexOf('&', at - 1) : -1;
  r.report({
    ruleId: undefinedEntity ? 'xml-entity-expansion' : 'xml-malformed',
    severity: 'error',
    message: undefinedEntity
      ? `Malformed XML: ${text.slice(entityStart, at)} refers to an entity no declaration defines; Tomcat refuses the descriptor and the application fails to start (observed on Tomcat 10.1.60). Write the character itself, or &amp; for "&".`
      : `Malformed XML: ${message}.`,
    span: entityStart >= 0 ? r.lines.span(entityStart, at) : r.lines.span(Math.max(0, at - 1), at),
  });
}

function onEntityProblem(r: SaxesRead, name: string, reason: string): void {
  if (reason === 'external') r.externalReferenced = true;
  const at = Math.min(r.parser.position, r.text.length);
  const start = Math.max(0, r.text.lastIndexOf('&', at - 1));
  r.report({
    ruleId: 'xml-entity-expansion',
    severity: 'error',
    message:
      reason === 'size'
        ? `Expanding &${name}; takes the entities of this file past ${TOTAL_SIZE_LIMIT.toLocaleString('en-US')} characters, the JDK's totalEntitySizeLimit: Tomcat refuses the descriptor ("JAXP00010004") and the application fails to start (observed on Tomcat 10.1.60); tollgate does not build the expansion. One large entity referenced many times (a quadratic blowup) is an attack, not configuration: write the value out once.`
        : reason === 'limit'
          ? `Expanding &${name}; takes this file past ${EXPANSION_LIMIT} entity expansions, the JDK's limit: Tomcat refuses the descriptor ("JAXP00010001") and the application fails to start (observed on Tomcat 10.1.60). Write the values out instead of nesting entities.`
          : reason === 'recursive'
            ? `&${name}; refers to itself through other entities ("Recursive entity reference"): Tomcat refuses the descriptor and the application fails to start (observed on Tomcat 10.1.60).`
            : reason === 'external'
              ? `&${name}; is an external entity: Tomcat (xmlBlockExternal, on by default) refuses to read it, so the descriptor is refused and the application fails to start (observed on Tomcat 10.1.60).`
              : `&${name}; uses &${reason}; which no declaration defines: Java's parser refuses the descriptor, so the application fails to start.`,
    span: r.lines.span(start, at),
  });
}

const NO_ATTRIBUTES: RawAttribute[] = [];
/** What a closed saxes tag's attributes become (see onCloseTag). */
const NO_VALUES: Record<string, string> = Object.freeze(Object.create(null) as Record<string, string>);
/** The messages of one start tag (reused: reading never nests, and they are taken out before reporting). */
const MESSAGES: string[] = [];
/** One start tag's declarations (reused, as MESSAGES). */
const DECL_PREFIXES: string[] = [];
const DECL_URIS: string[] = [];
/** Characters saxes reads differently from how they are written in an attribute value (a literal here would be a new RegExp per attribute). */
const NOT_AS_WRITTEN = /[&\t\n\r]/;
const ATTR_RE = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/gy;

/**
 * Parses XML text into a tree whose every element, attribute and text carries
 * its span. Never throws: malformed input yields diagnostics and the part of
 * the tree read so far. Entities declared in the DOCTYPE are expanded within
 * the JDK's limits; no external resource is ever read.
 */
export function parseXmlTree(
  source: SourceFile,
  opts: { fastPath?: boolean } = {},
): { doc: XmlDocument; diagnostics: Diagnostic[] } {
  const text = source.text;
  const lines = new LineIndex(source.path, text);
  // Not text.trim(): that copies every file to answer a yes/no question.
  if (!/\S/.test(text)) {
    const diagnostics: Diagnostic[] = [
      {
        ruleId: 'xml-malformed',
        severity: 'error',
        message: 'The file is empty: an XML document needs a root element.',
        span: lines.span(0, 0),
      },
    ];
    return { doc: { root: null, extraRoots: [], doctype: null, comments: [], lines }, diagnostics };
  }

  // Most descriptors are plain elements and comments: read those without saxes (fast-xml.ts says exactly which).
  const simple = opts.fastPath === false ? null : parseSimpleTree(text, lines);
  if (simple)
    return {
      doc: { root: simple.root, extraRoots: [], doctype: null, comments: simple.comments, lines },
      diagnostics: simple.tooDeepAt < 0 ? [] : [deepNesting(lines, simple.tooDeepAt)],
    };

  const r = new SaxesRead(text, lines);
  const p = r.parser;
  const outer = active;
  active = r;
  try {
    // Feeding in one piece keeps positions absolute; stop early once errors are capped.
    p.write(text);
    if (!r.stopped) p.close();
  } catch (err) {
    // saxes throws when writing after a fatal state (the diagnostic is already recorded, r.stopped); anything else,
    // such as a string past V8's length limit, must still say that reading stopped there.
    if (!r.stopped || !r.diagnostics.some((d) => d.severity === 'error')) {
      r.diagnostics.push({
        ruleId: 'xml-malformed',
        severity: 'error',
        message: `tollgate stopped reading the file here (${(err as Error).message}): nothing after this point is checked.`,
        span: lines.span(
          Math.min(Math.max(p.position, 0), text.length),
          Math.min(Math.max(p.position, 0), text.length),
        ),
      });
    }
  } finally {
    active = outer;
  }
  const tree = r.tree;
  tree.finish(Math.min(Math.max(p.position, 0), text.length));
  const diagnostics = r.diagnostics;
  if (r.bomb && !diagnostics.some((d) => d.ruleId === 'xml-entity-expansion')) {
    diagnostics.push({
      ruleId: 'xml-entity-expansion',
      severity: 'warning',
      message: `The DOCTYPE declares an entity expansion bomb: &${r.bomb.name}; expands past the JDK's limits (${EXPANSION_LIMIT} expansions, ${TOTAL_SIZE_LIMIT.toLocaleString('en-US')} characters) or refers to itself. Nothing references it, so Tomcat starts; the first reference makes it refuse the descriptor. Remove it.`,
      span: r.bomb.span,
    });
  }
  // Declared but never referenced, an external entity is never read: Tomcat starts (observed on Tomcat 10.1.60).
  const external = r.externalReferenced ? undefined : diagnostics.find((d) => d.ruleId === 'xml-external-entity');
  if (external) {
    external.severity = 'warning';
    external.effect = 'ignores';
    external.message =
      'The DOCTYPE declares an external entity that nothing references: Tomcat never reads it and starts (observed on Tomcat 10.1.60), but the first reference makes it refuse the descriptor (xmlBlockExternal), and tollgate never reads it either. No deployment descriptor needs one: remove it.';
  }
  if (tree.tooDeepAt >= 0 && !diagnostics.some((d) => d.ruleId === 'xml-deep-nesting'))
    diagnostics.push(deepNesting(lines, tree.tooDeepAt));
  if (!tree.root && !diagnostics.some((d) => d.severity === 'error')) {
    diagnostics.push({
      ruleId: 'xml-malformed',
      severity: 'error',
      message: 'The file has no root element.',
      span: lines.span(0, 0),
    });
  }
  return {
    doc: { root: tree.root, extraRoots: tree.extraRoots, doctype: r.doctype, comments: tree.comments, lines },
    diagnostics,
  };
}

/** The attributes of a start tag located in the text [from, to), with the values saxes read (entities expanded). */
function readAttributes(text: string, from: number, to: number, values: Record<string, string>): RawAttribute[] {
  const out: RawAttribute[] = [];
  ATTR_RE.lastIndex = from;
  for (;;) {
    while (ATTR_RE.lastIndex < to && isSpace(text.charCodeAt(ATTR_RE.lastIndex))) ATTR_RE.lastIndex++;
    const m = ATTR_RE.exec(text);
    if (!m || m.index >= to) break;
    const qname = m[1]!;
    const value = values[qname];
    if (value === undefined) continue;
    const nameStart = m.index;
    out.push({
      qname,
      value,
      nameStart,
      valueStart: nameStart + m[0].length - m[2]!.length + 1,
      valueEnd: nameStart + m[0].length - 1,
    });
  }
  return out;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * The DTDs Tomcat's LocalResolver (org.apache.tomcat.util.descriptor.LocalResolver) reads from its own
 * jars, by public and by system id: the descriptors that predate XML Schema. Any other external DTD of a
 * web-app, web-fragment or taglib document is refused (the Context's xmlBlockExternal, true by default):
 * observed on Tomcat 10.1, `<!DOCTYPE web-app SYSTEM "file:///...">` fails the application with
 * "Could not resolve XML resource ... to a known, local entity", while the 2.3 DTD by public id starts.
 */
const LOCAL_DTD_PUBLIC_IDS = new Set([
  '-//Sun Microsystems, Inc.//DTD Web Application 2.2//EN',
  '-//Sun Microsystems, Inc.//DTD Web Application 2.3//EN',
  '-//Sun Microsystems, Inc.//DTD JSP Tag Library 1.1//EN',
  '-//Sun Microsystems, Inc.//DTD JSP Tag Library 1.2//EN',
]);
const LOCAL_DTD_SYSTEM_IDS = new Set([
  'http://java.sun.com/j2ee/dtds/web-app_2_2.dtd',
  'http://java.sun.com/dtd/web-app_2_3.dtd',
  'http://java.sun.com/j2ee/dtds/web-jsptaglibrary_1_1.dtd',
  'http://java.sun.com/dtd/web-jsptaglibrary_1_2.dtd',
]);
const BLOCKING_ROOTS = new Set(['web-app', 'web-fragment', 'taglib']);

/** The external DTD a DOCTYPE names that Tomcat would refuse to read, or null. */
function blockedExternalDtd(dt: string): string | null {
  const m =
    /^\s*(?:<!DOCTYPE\s+)?([^\s[>]+)\s+(?:SYSTEM\s+("[^"]*"|'[^']*')|PUBLIC\s+("[^"]*"|'[^']*')(?:\s+("[^"]*"|'[^']*'))?)/.exec(
      dt,
    );
  if (m === null || !BLOCKING_ROOTS.has(m[1]!)) return null;
  const unquote = (s: string | undefined): string | null => (s === undefined ? null : s.slice(1, -1));
  const publicId = unquote(m[3]);
  const systemId = unquote(m[2] ?? m[4]);
  if (publicId !== null && LOCAL_DTD_PUBLIC_IDS.has(publicId.trim())) return null;
  if (systemId === null || LOCAL_DTD_SYSTEM_IDS.has(systemId)) return null;
  return systemId;
}

/** `bomb`: a declared entity whose expansion Java's parser refuses (past its limits, or recursive). */
function checkDoctype(
  dt: string,
  span: Span,
  lines: LineIndex,
  diagnostics: Diagnostic[],
  bomb: string | undefined,
): void {
  const blocked = blockedExternalDtd(dt);
  if (blocked !== null) {
    diagnostics.push({
      ruleId: 'xml-external-dtd',
      severity: 'error',
      message: `The DOCTYPE names the external DTD "${blocked}", which is not one of the DTDs Tomcat keeps locally. Tomcat refuses to read it (xmlBlockExternal) and the application does not start; tollgate never opens it either. Remove the DOCTYPE (a Servlet 2.4+ descriptor needs none) or use the DTD's public id.`,
      span,
    });
  }
  const subset = dt.indexOf('[');
  if (subset < 0) return;
  const internal = dt.slice(subset);
  if (/<!ENTITY\s+%?\s*[^\s>]+\s+(SYSTEM|PUBLIC)\b/.test(internal)) {
    diagnostics.push({
      ruleId: 'xml-external-entity',
      severity: 'error',
      message:
        'The DOCTYPE declares an external entity. tollgate never reads it, and Tomcat refuses to (xmlBlockExternal): a reference to it makes the application fail to start. No deployment descriptor needs one: remove it.',
      span,
    });
  } else if (bomb === undefined && /<!ENTITY/.test(internal)) {
    // A declared bomb is reported once, after parsing: where it is referenced (an error), else here.
    diagnostics.push({
      ruleId: 'xml-entity-expansion',
      severity: 'info',
      message: `The DOCTYPE declares entities. Tomcat expands them (up to the JDK's ${EXPANSION_LIMIT} expansions per file, past which it refuses the file), and so does tollgate; writing the values out keeps the descriptor readable by every tool.`,
      span: lines.span(span.offset, span.endOffset),
    });
  }
}

/** JavaScript's \s (the white space of the declaration pattern this scanner replaced), by code unit. */
function isJsSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** What readEntityDeclaration read, in module fields rather than an object per declaration. */
let declName = '';
let declValue: string | null = null;
let declParameter = false;

/**
 * One `<!ENTITY ...>` at `at`, exactly as the pattern
 * `<!ENTITY\s+(%\s+)?([^\s%"'>]+)\s+(?:"([^"]*)"|'([^']*)'|(?:SYSTEM|PUBLIC)\b[^>]*)\s*>` reads it
 * (which this replaced: its match arrays were most of the garbage of 300,000 declarations): the
 * offset after its ">", or -1 where the pattern does not match here.
 */
function readEntityDeclaration(s: string, at: number): number {
  const n = s.length;
  let i = at + 8;
  let j = i;
  while (j < n && isJsSpace(s.charCodeAt(j))) j++;
  if (j === i) return -1;
  i = j;
  declParameter = false;
  if (s.charCodeAt(i) === 37 /* % */) {
    j = i + 1;
    while (j < n && isJsSpace(s.charCodeAt(j))) j++;
    if (j === i + 1) return -1;
    declParameter = true;
    i = j;
  }
  j = i;
  for (; j < n; j++) {
    const c = s.charCodeAt(j);
    if (isJsSpace(c) || c === 37 || c === 34 || c === 39 || c === 62) break;
  }
  if (j === i) return -1;
  const nameEnd = j;
  while (j < n && isJsSpace(s.charCodeAt(j))) j++;
  if (j === nameEnd) return -1;
  const q = s.charCodeAt(j);
  if (q === 34 || q === 39) {
    const close = s.indexOf(q === 34 ? '"' : "'", j + 1);
    if (close < 0) return -1;
    let k = close + 1;
    while (k < n && isJsSpace(s.charCodeAt(k))) k++;
    if (s.charCodeAt(k) !== 62) return -1;
    declName = s.slice(i, nameEnd);
    declValue = s.slice(j + 1, close);
    return k + 1;
  }
  if ((s.startsWith('SYSTEM', j) || s.startsWith('PUBLIC', j)) && !isWordChar(s.charCodeAt(j + 6))) {
    const gt = s.indexOf('>', j + 6);
    if (gt < 0) return -1;
    declName = s.slice(i, nameEnd);
    declValue = null;
    return gt + 1;
  }
  return -1;
}

const COMMENTS = /<!--[\s\S]*?-->/g;

/** General entities declared in a DOCTYPE's internal subset: name to literal value, or null for an external one. */
function declaredEntities(dt: string): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const subset = dt.indexOf('[');
  if (subset < 0) return out;
  let internal = dt.slice(subset);
  if (internal.includes('<!--')) internal = internal.replace(COMMENTS, '');
  for (let at = internal.indexOf('<!ENTITY'); at >= 0;) {
    const end = readEntityDeclaration(internal, at);
    if (end < 0) {
      at = internal.indexOf('<!ENTITY', at + 1);
      continue;
    }
    // Parameter entities only shape the DTD; the first declaration of a name is binding.
    if (!declParameter && !out.has(declName)) out.set(declName, declValue);
    at = internal.indexOf('<!ENTITY', end);
  }
  return out;
}

const PREDEFINED = new Set(['lt', 'gt', 'amp', 'apos', 'quot']);
/** Beyond this many characters an expansion is not built: the JDK's size limits refuse such files too. */
const MAX_EXPANDED = 1 << 22;
/** The cost of an entity while it is being measured (it is on the stack: a reference to it is recursive). */
const VISITING = -1;
/** The cost of an entity with references that was refused while measuring (see `refused`). */
const REFUSED = -2;

/** An entity whose value holds no reference: one expansion of its own length, kept in no table. */
function isSimple(raw: string | null | undefined): raw is string {
  return raw !== null && raw !== undefined && raw.indexOf('&') < 0;
}

/**
 * Measures declared entities as Java's parser would count them, without building any value:
 * each entity's cost (expansions, itself and every entity inside it) and expanded length, or why
 * the JDK refuses it. Iterative (a chain of 300,000 entities each naming the previous one would
 * overflow the stack through recursion), and each entity is measured once. Only entities with
 * references get a slot (one without costs 1 and is as long as its value), and those past the
 * limits are told by their numbers, not listed: 300,000 declarations filled four 300,000-entry
 * maps, whose growth was most of the garbage collection of such a file.
 */
function evaluateEntities(declared: Map<string, string | null>): EntityTable {
  const slots = new Map<string, number>();
  const costs: number[] = [];
  const lengths: number[] = [];
  const refused = new Map<string, string>();
  let firstOverLimit: string | undefined;
  interface Frame {
    name: string;
    slot: number;
    raw: string;
    /** Where the search for the next reference starts. */
    pos: number;
    /** The entity with references being measured (the frame was left to measure it), or ''. */
    pending: string;
    cost: number;
    length: number;
  }
  const stack: Frame[] = [];
  const push = (name: string, raw: string): void => {
    const slot = costs.length;
    slots.set(name, slot);
    costs.push(VISITING);
    lengths.push(0);
    stack.push({ name, slot, raw, pos: 0, pending: '', cost: 1, length: raw.length });
  };
  const measure = (raw: string | null, root: string): void => {
    if (raw === null) {
      if (!refused.has(root)) refused.set(root, 'external');
      return;
    }
    if (raw.indexOf('&') < 0) {
      if (firstOverLimit === undefined && raw.length > MAX_EXPANDED) firstOverLimit = root;
      return;
    }
    if (slots.has(root)) return;
    push(root, raw);
    while (stack.length > 0) {
      const f = stack[stack.length - 1]!;
      let descended = false;
      for (;;) {
        let ref = f.pending;
        if (ref === '') {
          if (!nextReference(f.raw, f.pos)) break;
          ref = refName;
          f.pos = refEnd;
          f.length -= refEnd - refStart;
          if (ref.charCodeAt(0) === 35 /* # */ || PREDEFINED.has(ref)) {
            f.length += 2;
            continue;
          }
        }
        f.pending = '';
        // The same outcomes, in the same order, as measuring each reference through a frame of its own (see below).
        const refSlot = slots.get(ref);
        if (refSlot !== undefined) {
          const cost = costs[refSlot]!;
          if (cost === VISITING) {
            refused.set(f.name, 'recursive');
            break;
          }
          if (cost === REFUSED) {
            refused.set(f.name, refused.get(ref)!);
            break;
          }
          f.cost += cost;
          f.length += lengths[refSlot]!;
          continue;
        }
        const reason = refused.get(ref);
        if (reason !== undefined) {
          refused.set(f.name, reason);
          break;
        }
        const value = declared.get(ref);
        if (value === undefined) {
          refused.set(f.name, ref);
          break;
        }
        if (value === null) {
          refused.set(ref, 'external');
          refused.set(f.name, 'external');
          break;
        }
        if (value.indexOf('&') < 0) {
          if (firstOverLimit === undefined && value.length > MAX_EXPANDED) firstOverLimit = ref;
          f.cost += 1;
          f.length += value.length;
          continue;
        }
        f.pending = ref;
        push(ref, value);
        descended = true;
        break;
      }
      if (descended) continue;
      stack.pop();
      if (refused.has(f.name)) {
        costs[f.slot] = REFUSED;
      } else {
        costs[f.slot] = f.cost;
        lengths[f.slot] = f.length;
        if (firstOverLimit === undefined && (f.cost > EXPANSION_LIMIT || f.length > MAX_EXPANDED))
          firstOverLimit = f.name;
      }
    }
  };
  // forEach rather than for-of: no iterator result per declaration.
  declared.forEach(measure);
  return { declared, slots, costs, lengths, refused, firstOverLimit, values: new Map() };
}

/** What nextReference found: the name of `&name;` and where it starts and ends. */
let refName = '';
let refStart = 0;
let refEnd = 0;

/**
 * The next `&name;` in `raw` from `from`, as /&([^\s&;]+);/g finds it (which this replaced: a
 * match array per reference was most of what measuring a 200,000-entity chain allocated).
 */
function nextReference(raw: string, from: number): boolean {
  const n = raw.length;
  for (let amp = raw.indexOf('&', from); amp >= 0; amp = raw.indexOf('&', amp + 1)) {
    let j = amp + 1;
    for (; j < n; j++) {
      const c = raw.charCodeAt(j);
      if (c === 59 /* ; */ || c === 38 /* & */ || isJsSpace(c)) break;
    }
    if (j > amp + 1 && raw.charCodeAt(j) === 59) {
      refName = raw.slice(amp + 1, j);
      refStart = amp;
      refEnd = j + 1;
      return true;
    }
  }
  return false;
}

/** Declared entities measured by evaluateEntities; values are built when first referenced. */
interface EntityTable {
  declared: Map<string, string | null>;
  /** Entities with references: where their cost and expanded length are in `costs` and `lengths`. */
  slots: Map<string, number>;
  costs: number[];
  lengths: number[];
  /** Entities refused while measuring (external, recursive, or naming an undeclared entity), in that order. */
  refused: Map<string, string>;
  /** The first entity measured past the JDK's limits (expansions, or a value past MAX_EXPANDED). */
  firstOverLimit: string | undefined;
  values: Map<string, string>;
}

/** Whether an entity not refused while measuring is past the limits (Java refuses its expansion). */
function overLimit(table: EntityTable, name: string): boolean {
  const slot = table.slots.get(name);
  if (slot !== undefined) return table.costs[slot]! > EXPANSION_LIMIT || table.lengths[slot]! > MAX_EXPANDED;
  const raw = table.declared.get(name);
  return isSimple(raw) && raw.length > MAX_EXPANDED;
}

/** The expansions one reference to a declared internal entity costs; undefined for any other name. */
function costOf(table: EntityTable, name: string): number | undefined {
  const slot = table.slots.get(name);
  if (slot !== undefined) return table.costs[slot];
  return isSimple(table.declared.get(name)) ? 1 : undefined;
}

const ENTITY_AT = /&([^\s&;]+);/y;
const PREDEFINED_VALUES: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

/**
 * The replacement text of an entity evaluateEntities accepted (so every entity inside it is
 * declared, internal and not recursive), built once and kept: iteratively, in one pass over
 * what it produces, and only for entities a document references (building every declared one
 * made a chain of nested entities quadratic in memory).
 */
function entityText(table: EntityTable, name: string): string {
  const known = table.values.get(name);
  if (known !== undefined) return known;
  const parts: string[] = [];
  const raws: string[] = [table.declared.get(name)!];
  const positions: number[] = [0];
  while (raws.length > 0) {
    const top = raws.length - 1;
    const raw = raws[top]!;
    const pos = positions[top]!;
    const amp = raw.indexOf('&', pos);
    if (amp < 0) {
      parts.push(raw.slice(pos));
      raws.pop();
      positions.pop();
      continue;
    }
    parts.push(raw.slice(pos, amp));
    ENTITY_AT.lastIndex = amp;
    const m = ENTITY_AT.exec(raw);
    if (!m) {
      parts.push('&');
      positions[top] = amp + 1;
      continue;
    }
    positions[top] = amp + m[0].length;
    const inner = m[1]!;
    if (inner.startsWith('#')) parts.push(charRef(inner) ?? m[0]);
    else if (PREDEFINED.has(inner)) parts.push(PREDEFINED_VALUES[inner]!);
    else {
      raws.push(table.declared.get(inner)!);
      positions.push(0);
    }
  }
  const value = parts.join('');
  table.values.set(name, value);
  return value;
}

function charRef(ref: string): string | null {
  const n = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
  return Number.isInteger(n) && n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : null;
}

/** The trimmed text of an element, located at the trimmed characters of its content. */
export function elementText(el: XmlElement, lines: LineIndex, raw: string): Located<string> {
  let s = el.contentStart;
  let e = el.contentEnd;
  while (s < e && isSpace(raw.charCodeAt(s))) s++;
  while (e > s && isSpace(raw.charCodeAt(e - 1))) e--;
  return { value: el.text.trim(), span: lines.span(s, e) };
}
