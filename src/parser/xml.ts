import { SaxesParser, type SaxesTagNS } from 'saxes';
import type { Diagnostic, Located, SourceFile, Span } from '../model/index.js';
import { MAX_DEPTH, parseSimpleTree } from './fast-xml.js';

/** Where reading stops altogether: past MAX_DEPTH elements are dropped, past this saxes' own stack of open tags is the cost. */
const STOP_DEPTH = 10_000;
import { LineIndex } from './lines.js';

export interface XmlAttribute {
  /** Local name (prefix removed). */
  name: string;
  qname: string;
  value: string;
  nameSpan: Span;
  valueSpan: Span;
}

export interface XmlElement {
  /** Local name (prefix removed). */
  name: string;
  qname: string;
  namespace: string;
  attributes: XmlAttribute[];
  children: XmlElement[];
  /** Character data directly inside the element (text and CDATA), entities resolved. */
  text: string;
  /** From `<` of the start tag to after `>` of the end tag. */
  span: Span;
  /** Offsets of the content between the tags (equal for an empty element). */
  contentStart: number;
  contentEnd: number;
}

export interface XmlDocument {
  root: XmlElement | null;
  /** Top-level elements after the first (a malformed file with several roots). */
  extraRoots: XmlElement[];
  doctype: Located<string> | null;
  comments: Located<string>[];
  lines: LineIndex;
}

/**
 * Java's parser, and so Tomcat, stops at the first fatal error of a file: so does this one, and the
 * error is reported once (issue 17: one "<!--" inside a tag gave five findings, one per character).
 */
const MAX_ERRORS = 1;


type Handler = ((...args: never[]) => void) | undefined;

/** The handler slots saxes reads; filled in the constructor so every parser has one stable shape. */
interface Handlers {
  doctypeHandler: Handler;
  commentHandler: Handler;
  openTagStartHandler: Handler;
  openTagHandler: Handler;
  closeTagHandler: Handler;
  textHandler: Handler;
  cdataHandler: Handler;
  errorHandler: Handler;
}

/** Java's limit on entity expansions in one document (jdk.xml.entityExpansionLimit). */
const EXPANSION_LIMIT = 64000;
/** The JDK's jdk.xml.totalEntitySizeLimit: characters all entity expansions of one document may produce. */
const TOTAL_SIZE_LIMIT = 50_000_000;

/** Stands in for an element's span until its end tag is read. */
const PENDING: Span = { file: '', line: 0, column: 0, endLine: 0, endColumn: 0, offset: 0, endOffset: 0 };

/**
 * A saxes parser that builds the positioned tree. Every field is set in the
 * constructor and the handlers are module-level functions shared by all
 * instances: saxes then sees one object shape and one callee per event, which
 * keeps V8's optimised code stable (per-parse closures or on() made it swing
 * between fast and twice as slow from one run to the next).
 */
/** What the handlers build; kept apart from the parser so no name can clash with saxes' own fields. */
class TreeState {
  readonly diagnostics: Diagnostic[] = [];
  readonly comments: Located<string>[] = [];
  doctype: Located<string> | null = null;
  root: XmlElement | null = null;
  readonly extraRoots: XmlElement[] = [];
  readonly stack: XmlElement[] = [];
  /** Start offsets of the open elements, parallel to `stack`: spans are built once, at the close. */
  readonly starts: number[] = [];
  errors = 0;
  stopped = false;
  /** Open elements below MAX_DEPTH, not kept in the tree; where the first began. */
  skipped = 0;
  tooDeepAt = -1;
  /** A declared entity Java's parser refuses to expand, and the DOCTYPE's span: reported after parsing unless a reference was. */
  bomb: { name: string; span: Span } | null = null;
  /** Whether the document references an external entity (which Tomcat refuses to read). */
  externalReferenced = false;

  constructor(
    readonly text: string,
    readonly lines: LineIndex,
  ) {}

  report(d: Diagnostic): void {
    if (this.stopped) return;
    this.diagnostics.push(d);
    if (++this.errors >= MAX_ERRORS) this.stopped = true;
  }
}

/**
 * A saxes parser that builds the positioned tree. Every field is set in the
 * constructor and the handlers are module-level functions shared by all
 * instances: saxes then sees one object shape and one callee per event, which
 * keeps V8's optimised code stable (per-parse closures or on() made it swing
 * between fast and twice as slow from one run to the next).
 */
class TreeParser extends SaxesParser<{ xmlns: true; position: true }> {
  readonly tree: TreeState;
  /** Expansions each declared entity costs (itself and every entity inside it); null without declarations. */
  entityCosts: Map<string, number> | null = null;
  /** Declared entities Java's parser refuses to expand, with the reason. */
  refusedEntities: Map<string, string> | null = null;
  expansions = 0;
  /** Characters all expansions produced so far (the JDK's totalEntitySizeLimit counts the same). */
  expandedChars = 0;

  constructor(tree: TreeState) {
    super({ xmlns: true, position: true });
    this.tree = tree;
    const h = this as unknown as Handlers;
    h.doctypeHandler = onDoctype;
    h.commentHandler = onComment;
    h.openTagStartHandler = undefined;
    h.openTagHandler = onOpenTag;
    h.closeTagHandler = onCloseTag;
    h.textHandler = onText;
    h.cdataHandler = onText;
    h.errorHandler = onError;
  }
}

/** The parser being fed: saxes calls some handlers without `this`, and parsing never nests. */
let active: TreeParser | null = null;

function onDoctype(dt: string): void {
  const p = active!;
  const t = p.tree;
  const end = p.position;
  const start = t.text.lastIndexOf('<!DOCTYPE', end);
  const doctype = { value: dt, span: t.lines.span(start < 0 ? 0 : start, end) };
  t.doctype = doctype;
  const declared = declaredEntities(dt);
  const table = declared.size > 0 ? evaluateEntities(declared) : null;
  const bomb = table ? [...table.refused].find(([, reason]) => reason === 'limit' || reason === 'size' || reason === 'recursive')?.[0] : undefined;
  if (bomb !== undefined) t.bomb = { name: bomb, span: doctype.span };
  checkDoctype(dt, doctype.span, t.lines, t.diagnostics, bomb);
  if (table) {
    for (const [name, value] of table.values) p.ENTITIES[name] = value;
    p.entityCosts = table.costs;
    p.refusedEntities = table.refused;
  }
}

function onComment(body: string): void {
  const p = active!;
  const t = p.tree;
  const start = t.text.lastIndexOf('<!--', p.position);
  const close = t.text.indexOf('-->', start + 4);
  const end = close < 0 ? p.position : close + 3;
  t.comments.push({ value: body, span: t.lines.span(start, end) });
}

function onOpenTag(tag: SaxesTagNS): void {
  const p = active!;
  const t = p.tree;
  const text = t.text;
  const openEnd = p.position;
  if (t.skipped > 0 || t.stack.length >= MAX_DEPTH) {
    // Self-closing tags get a close event too, so every skipped open is matched.
    if (t.tooDeepAt < 0) t.tooDeepAt = text.lastIndexOf('<', openEnd - 1);
    if (++t.skipped + MAX_DEPTH > STOP_DEPTH) {
      // saxes keeps every open tag (about 1 KB each): stop before that grows without bound.
      const at = text.lastIndexOf('<', openEnd - 1);
      t.diagnostics.push({
        ruleId: 'xml-deep-nesting',
        severity: 'error',
        message: `Elements nest more than ${STOP_DEPTH} levels deep here: tollgate stopped reading the file at this point to keep memory bounded, so nothing after it is checked, and serve/compile leave what depends on it unstarted. Tomcat reads on (a 100,000-level web.xml started on Tomcat 10.1.60); no descriptor schema nests more than eight levels.`,
        span: t.lines.span(at, at + 1),
      });
      t.stopped = true;
      throw new Error('nesting too deep');
    }
    return;
  }
  // No "<" can occur inside a start tag (attribute values may not hold one), so the last one is ours.
  const tagStart = text.lastIndexOf('<', openEnd - 1);
  const afterName = tagStart + 1 + tag.name.length;
  const c = text.charCodeAt(afterName);
  const attributes = c === 62 /* > */ || c === 47 /* / */ ? [] : readAttributes(text, afterName, openEnd, tag.attributes as Record<string, { local: string; value: string }>, t.lines);
  const el: XmlElement = {
    name: tag.local || tag.name,
    qname: tag.name,
    namespace: tag.uri ?? '',
    attributes,
    children: [],
    text: '',
    span: PENDING,
    contentStart: openEnd,
    contentEnd: openEnd,
  };
  const stack = t.stack;
  const depth = stack.length;
  if (depth > 0) stack[depth - 1]!.children.push(el);
  else if (!t.root) t.root = el;
  else t.extraRoots.push(el);
  stack.push(el);
  t.starts.push(tagStart);
}

function onCloseTag(tag: SaxesTagNS): void {
  const p = active!;
  const t = p.tree;
  if (t.skipped > 0) {
    t.skipped--;
    return;
  }
  const el = t.stack.pop();
  const start = t.starts.pop();
  if (!el || start === undefined) return;
  const end = p.position;
  if (tag.isSelfClosing) {
    el.contentStart = el.contentEnd = end;
  } else {
    const closeStart = t.text.lastIndexOf('</', end - 1);
    el.contentEnd = closeStart < el.contentStart ? el.contentStart : closeStart;
  }
  el.span = t.lines.span(start, end);
}

function onText(t: string): void {
  if (active!.tree.skipped > 0) return;
  const stack = active!.tree.stack;
  const el = stack[stack.length - 1];
  if (el) el.text += t;
}

function onError(err: Error): void {
  const p = active!;
  const t = p.tree;
  // Past the cap nothing more is reported: stop reading. Garbage after it made saxes build an
  // Error (with its stack) per character, over a second for 190 KB (found by test/fuzz).
  if (t.stopped) throw err;
  const text = t.text;
  const at = Math.min(p.position, text.length);
  const message = err.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '').replace(/\.+$/, '');
  if (/malformed comment/.test(message)) {
    t.report({
      ruleId: 'xml-malformed',
      severity: 'error',
      message: 'Malformed XML: a comment may not contain "--" (Tomcat\'s parser rejects the whole file). In a tollgate suppression, write the reason after "::".',
      span: t.lines.span(Math.max(0, at - 1), at),
    });
    return;
  }
  // "<filter <!-- x -->>": saxes sees attribute names made of "<!--"; Java says the element needs attributes, ">" or "/>".
  const tagStart = text.lastIndexOf('<', at - 1);
  if (/attribute name/.test(message) && tagStart > 0 && text.startsWith('<!--', tagStart)) {
    const open = text.lastIndexOf('<', tagStart - 1);
    const name = /^<([^\s/>]+)/.exec(text.slice(open))?.[1] ?? 'element';
    t.report({
      ruleId: 'xml-malformed',
      severity: 'error',
      message: `Malformed XML: a comment cannot stand inside the tag <${name} ...>: Tomcat's parser stops here ("Element type must be followed by either attribute specifications, '>' or '/>'") and refuses the file. Move the comment after the ">".`,
      span: t.lines.span(tagStart, Math.min(text.length, tagStart + 4)),
    });
    return;
  }
  if (message === 'unexpected close tag') {
    const close = /^<\/[^>\s]*/.exec(text.slice(text.lastIndexOf('</', at - 1)))?.[0];
    if (close) {
      t.report({ ruleId: 'xml-malformed', severity: 'error', message: `Malformed XML: ${close}> closes no open element (Tomcat's parser stops here and refuses the file).`, span: t.lines.span(Math.max(0, at - 1), at) });
      return;
    }
  }
  const undefinedEntity = /undefined entity/.test(message);
  const entityStart = undefinedEntity ? text.lastIndexOf('&', at - 1) : -1;
  t.report({
    ruleId: undefinedEntity ? 'xml-entity-expansion' : 'xml-malformed',
    severity: 'error',
    message: undefinedEntity
      ? `Malformed XML: ${text.slice(entityStart, at)} refers to an entity no declaration defines; Tomcat refuses the descriptor and the application fails to start (observed on Tomcat 10.1.60). Write the character itself, or &amp; for "&".`
      : `Malformed XML: ${message}.`,
    span: entityStart >= 0 ? t.lines.span(entityStart, at) : t.lines.span(Math.max(0, at - 1), at),
  });
}

function onEntityProblem(p: TreeParser, name: string, reason: string): void {
  const t = p.tree;
  if (reason === 'external') t.externalReferenced = true;
  const at = Math.min(p.position, t.text.length);
  const start = Math.max(0, t.text.lastIndexOf('&', at - 1));
  t.report({
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
    span: t.lines.span(start, at),
  });
}

type ParseEntity = (this: TreeParser, entity: string) => string;
const baseParseEntity = (SaxesParser.prototype as unknown as { parseEntity: ParseEntity }).parseEntity;

// saxes resolves every reference through parseEntity (private in its typings): counting
// expansions there bounds declared entities the way the JDK does.
Object.defineProperty(TreeParser.prototype, 'parseEntity', {
  value: function parseEntity(this: TreeParser, entity: string): string {
    if (this.entityCosts === null || entity.charCodeAt(0) === 35 /* # */) return baseParseEntity.call(this, entity);
    const reason = this.refusedEntities!.get(entity);
    if (reason !== undefined) {
      onEntityProblem(this, entity, reason);
      return `&${entity};`;
    }
    const cost = this.entityCosts.get(entity);
    if (cost !== undefined) {
      const before = this.expansions;
      this.expansions += cost;
      if (this.expansions > EXPANSION_LIMIT) {
        if (before <= EXPANSION_LIMIT) onEntityProblem(this, entity, 'limit');
        return `&${entity};`;
      }
      // Quadratic blowup: few expansions of one large entity. Building it would outgrow V8's longest string.
      const beforeChars = this.expandedChars;
      this.expandedChars += (this.ENTITIES[entity] ?? '').length;
      if (this.expandedChars > TOTAL_SIZE_LIMIT) {
        if (beforeChars <= TOTAL_SIZE_LIMIT) onEntityProblem(this, entity, 'size');
        return `&${entity};`;
      }
    }
    return baseParseEntity.call(this, entity);
  } satisfies ParseEntity,
});

interface NsTag {
  ns: Record<string, string>;
  /** Set once resolve has seen this tag open on the stack (and bound its declarations, if any). */
  nsSeen?: true;
}

/** A tag whose declarations are bound, and the prefixes it bound (to unbind when it closes). */
interface Bound {
  tag: NsTag;
  depth: number;
  prefixes: string[];
}

/** In-scope namespace bindings: one stack of URIs per prefix, so a lookup is one Map read. */
interface NsScopes {
  byPrefix: Map<string, string[]>;
  bound: Bound[];
}

const nsScopes = new WeakMap<object, NsScopes>();

// saxes resolves every prefix by walking the whole stack of open tags: quadratic in depth (216 s
// for 100,000 nested elements; 18.6 s for 4,000 nested elements that each declare a prefix, with
// 40,000 prefixed elements inside). Here the bindings of open tags are kept as a stack per
// prefix, synchronised with saxes' stack of open tags at each call: between two calls tags only
// close, and at most the last element opened is new, so each tag is bound and unbound once.
// Same answers: the innermost open tag that binds the prefix wins, as in saxes' walk.
Object.defineProperty(TreeParser.prototype, 'resolve', {
  value: function resolve(this: TreeParser, prefix: string): string | undefined {
    const self = this as unknown as { topNS: Record<string, string>; tags: NsTag[]; ns: Record<string, string> };
    const own = self.topNS[prefix];
    if (own !== undefined) return own;
    let scopes = nsScopes.get(this);
    if (scopes === undefined) nsScopes.set(this, (scopes = { byPrefix: new Map(), bound: [] }));
    const { tags } = self;
    const { bound, byPrefix } = scopes;
    // Unbind the tags that closed since the last call.
    while (bound.length > 0) {
      const last = bound[bound.length - 1]!;
      if (last.depth < tags.length && tags[last.depth] === last.tag) break;
      for (const p of last.prefixes) byPrefix.get(p)!.pop();
      bound.pop();
    }
    // Bind the tags opened since, innermost last (usually none or one: the new top).
    let first = tags.length;
    while (first > 0 && tags[first - 1]!.nsSeen !== true) first--;
    for (let depth = first; depth < tags.length; depth++) {
      const tag = tags[depth]!;
      tag.nsSeen = true;
      const prefixes: string[] = [];
      for (const p in tag.ns) {
        let stack = byPrefix.get(p);
        if (stack === undefined) byPrefix.set(p, (stack = []));
        stack.push(tag.ns[p]!);
        prefixes.push(p);
      }
      if (prefixes.length > 0) bound.push({ tag, depth, prefixes });
    }
    const stack = byPrefix.get(prefix);
    if (stack !== undefined && stack.length > 0) return stack[stack.length - 1];
    // Past the open tags: the document's own bindings (xml, xmlns); TreeParser sets no resolvePrefix.
    return self.ns[prefix];
  } satisfies (this: TreeParser, prefix: string) => string | undefined,
});

const ATTR_RE = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/gy;

/**
 * Parses XML text into a tree whose every element, attribute and text carries
 * its span. Never throws: malformed input yields diagnostics and the part of
 * the tree read so far. Entities declared in the DOCTYPE are expanded within
 * the JDK's limits; no external resource is ever read.
 */
export function parseXmlTree(source: SourceFile, opts: { fastPath?: boolean } = {}): { doc: XmlDocument; diagnostics: Diagnostic[] } {
  const text = source.text;
  const lines = new LineIndex(source.path, text);
  // Not text.trim(): that copies every file to answer a yes/no question.
  if (!/\S/.test(text)) {
    const diagnostics: Diagnostic[] = [{
      ruleId: 'xml-malformed',
      severity: 'error',
      message: 'The file is empty: an XML document needs a root element.',
      span: lines.span(0, 0),
    }];
    return { doc: { root: null, extraRoots: [], doctype: null, comments: [], lines }, diagnostics };
  }

  // Most descriptors are plain elements and comments: read those without saxes (fast-xml.ts says exactly which).
  const simple = opts.fastPath === false ? null : parseSimpleTree(text, lines);
  if (simple) return { doc: { root: simple.root, extraRoots: [], doctype: null, comments: simple.comments, lines }, diagnostics: [] };

  const t = new TreeState(text, lines);
  const p = new TreeParser(t);
  const outer = active;
  active = p;
  try {
    // Feeding in one piece keeps positions absolute; stop early once errors are capped.
    p.write(text);
    if (!t.stopped) {
      // close() is write(null), a branch the optimised write() has not seen (a deoptimisation
      // per file); ending directly avoids it, unless write() held back a final CR or high
      // surrogate that only close() processes.
      const last = text.charCodeAt(text.length - 1);
      if (last === 13 || (last >= 0xd800 && last <= 0xdbff)) p.close();
      else (p as unknown as { end(): void }).end();
    }
  } catch (err) {
    // saxes throws when writing after a fatal state (the diagnostic is already recorded, t.stopped); anything else,
    // such as a string past V8's length limit, must still say that reading stopped there.
    if (!t.stopped || !t.diagnostics.some((d) => d.severity === 'error')) {
      t.diagnostics.push({
        ruleId: 'xml-malformed',
        severity: 'error',
        message: `tollgate stopped reading the file here (${(err as Error).message}): nothing after this point is checked.`,
        span: lines.span(Math.min(Math.max(p.position, 0), text.length), Math.min(Math.max(p.position, 0), text.length)),
      });
    }
  } finally {
    active = outer;
  }
  // Elements never closed (a truncated or malformed file) run to the end of what was read.
  const readTo = Math.min(Math.max(p.position, 0), text.length);
  while (t.stack.length > 0) {
    const el = t.stack.pop()!;
    const start = t.starts.pop()!;
    el.contentEnd = Math.max(el.contentStart, readTo);
    el.span = lines.span(start, Math.max(start, readTo));
  }
  const diagnostics = t.diagnostics;
  if (t.bomb && !diagnostics.some((d) => d.ruleId === 'xml-entity-expansion')) {
    diagnostics.push({
      ruleId: 'xml-entity-expansion',
      severity: 'warning',
      message: `The DOCTYPE declares an entity expansion bomb: &${t.bomb.name}; expands past the JDK's limits (${EXPANSION_LIMIT} expansions, ${TOTAL_SIZE_LIMIT.toLocaleString('en-US')} characters) or refers to itself. Nothing references it, so Tomcat starts; the first reference makes it refuse the descriptor. Remove it.`,
      span: t.bomb.span,
    });
  }
  // Declared but never referenced, an external entity is never read: Tomcat starts (observed on Tomcat 10.1.60).
  const external = t.externalReferenced ? undefined : diagnostics.find((d) => d.ruleId === 'xml-external-entity');
  if (external) {
    external.severity = 'warning';
    external.effect = 'ignores';
    external.message = 'The DOCTYPE declares an external entity that nothing references: Tomcat never reads it and starts (observed on Tomcat 10.1.60), but the first reference makes it refuse the descriptor (xmlBlockExternal), and tollgate never reads it either. No deployment descriptor needs one: remove it.';
  }
  if (t.tooDeepAt >= 0 && !diagnostics.some((d) => d.ruleId === 'xml-deep-nesting')) {
    diagnostics.push({
      ruleId: 'xml-deep-nesting',
      severity: 'warning',
      message: `Elements nest more than ${MAX_DEPTH} levels deep here; no descriptor schema nests more than eight. tollgate keeps nothing below level ${MAX_DEPTH} (so memory stays bounded); Tomcat reads and ignores such unknown elements (a 100,000-level web.xml started on Tomcat 10.1.60). Remove them.`,
      span: lines.span(t.tooDeepAt, t.tooDeepAt + 1),
    });
  }
  if (!t.root && !diagnostics.some((d) => d.severity === 'error')) {
    diagnostics.push({
      ruleId: 'xml-malformed',
      severity: 'error',
      message: 'The file has no root element.',
      span: lines.span(0, 0),
    });
  }
  return { doc: { root: t.root, extraRoots: t.extraRoots, doctype: t.doctype, comments: t.comments, lines }, diagnostics };
}

function readAttributes(
  text: string,
  from: number,
  to: number,
  parsed: Record<string, { local: string; value: string }>,
  lines: LineIndex,
): XmlAttribute[] {
  const out: XmlAttribute[] = [];
  ATTR_RE.lastIndex = from;
  for (;;) {
    while (ATTR_RE.lastIndex < to && isSpace(text.charCodeAt(ATTR_RE.lastIndex))) ATTR_RE.lastIndex++;
    const m = ATTR_RE.exec(text);
    if (!m || m.index >= to) break;
    const qname = m[1]!;
    const info = parsed[qname];
    if (!info) continue;
    const nameStart = m.index;
    const valueStart = nameStart + m[0].length - m[2]!.length + 1;
    const valueEnd = nameStart + m[0].length - 1;
    out.push({
      name: info.local || qname,
      qname,
      value: info.value,
      nameSpan: lines.span(nameStart, nameStart + qname.length),
      valueSpan: lines.span(valueStart, valueEnd),
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
  const m = /^\s*(?:<!DOCTYPE\s+)?([^\s[>]+)\s+(?:SYSTEM\s+("[^"]*"|'[^']*')|PUBLIC\s+("[^"]*"|'[^']*')(?:\s+("[^"]*"|'[^']*'))?)/.exec(dt);
  if (m === null || !BLOCKING_ROOTS.has(m[1]!)) return null;
  const unquote = (s: string | undefined): string | null => (s === undefined ? null : s.slice(1, -1));
  const publicId = unquote(m[3]);
  const systemId = unquote(m[2] ?? m[4]);
  if (publicId !== null && LOCAL_DTD_PUBLIC_IDS.has(publicId.trim())) return null;
  if (systemId === null || LOCAL_DTD_SYSTEM_IDS.has(systemId)) return null;
  return systemId;
}

/** `bomb`: a declared entity whose expansion Java's parser refuses (past its limits, or recursive). */
function checkDoctype(dt: string, span: Span, lines: LineIndex, diagnostics: Diagnostic[], bomb: string | undefined): void {
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
      message: 'The DOCTYPE declares an external entity. tollgate never reads it, and Tomcat refuses to (xmlBlockExternal): a reference to it makes the application fail to start. No deployment descriptor needs one: remove it.',
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

/** General entities declared in a DOCTYPE's internal subset: name to literal value, or null for an external one. */
function declaredEntities(dt: string): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const subset = dt.indexOf('[');
  if (subset < 0) return out;
  const internal = dt.slice(subset).replace(/<!--[\s\S]*?-->/g, '');
  const re = /<!ENTITY\s+(%\s+)?([^\s%"'>]+)\s+(?:"([^"]*)"|'([^']*)'|(?:SYSTEM|PUBLIC)\b[^>]*)\s*>/g;
  for (let m = re.exec(internal); m; m = re.exec(internal)) {
    // Parameter entities only shape the DTD; the first declaration of a name is binding.
    if (m[1] || out.has(m[2]!)) continue;
    out.set(m[2]!, m[3] ?? m[4] ?? null);
  }
  return out;
}

const PREDEFINED = new Set(['lt', 'gt', 'amp', 'apos', 'quot']);
const ENTITY_REF = /&([^\s&;]+);/g;
/** Beyond this many characters an expansion is not built: the JDK's size limits refuse such files too. */
const MAX_EXPANDED = 1 << 22;

/**
 * Expands declared entities as Java's parser would, without ever building a
 * value past the JDK's limits: costs and lengths are computed first, and only
 * entities within them are materialised.
 */
function evaluateEntities(declared: Map<string, string | null>): { values: Map<string, string>; costs: Map<string, number>; refused: Map<string, string> } {
  const costs = new Map<string, number>();
  const lengths = new Map<string, number>();
  const refused = new Map<string, string>();
  const visiting = new Set<string>();
  const measure = (name: string): void => {
    if (costs.has(name) || refused.has(name)) return;
    const raw = declared.get(name);
    if (raw === null || raw === undefined) {
      refused.set(name, 'external');
      return;
    }
    visiting.add(name);
    let cost = 1;
    let length = raw.length;
    for (const m of raw.matchAll(ENTITY_REF)) {
      const ref = m[1]!;
      length -= m[0].length;
      if (ref.startsWith('#') || PREDEFINED.has(ref)) {
        length += 2;
        continue;
      }
      if (visiting.has(ref) || refused.get(ref) === 'recursive') {
        refused.set(name, 'recursive');
        break;
      }
      if (!declared.has(ref)) {
        refused.set(name, ref);
        break;
      }
      measure(ref);
      const inner = refused.get(ref);
      if (inner !== undefined) {
        refused.set(name, inner);
        break;
      }
      cost += costs.get(ref)!;
      length += lengths.get(ref)!;
    }
    visiting.delete(name);
    if (refused.has(name)) return;
    costs.set(name, cost);
    lengths.set(name, length);
  };
  for (const name of declared.keys()) measure(name);

  const values = new Map<string, string>();
  const expand = (name: string): string => {
    let v = values.get(name);
    if (v !== undefined) return v;
    v = declared.get(name)!.replace(ENTITY_REF, (ref: string, inner: string) => {
      if (inner.startsWith('#')) return charRef(inner) ?? ref;
      if (PREDEFINED.has(inner)) return { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' }[inner]!;
      return expand(inner);
    });
    values.set(name, v);
    return v;
  };
  for (const [name, cost] of costs) {
    if (cost > EXPANSION_LIMIT) refused.set(name, 'limit');
    else if (lengths.get(name)! > MAX_EXPANDED) refused.set(name, 'limit');
  }
  for (const name of costs.keys()) if (!refused.has(name)) expand(name);
  return { values, costs, refused };
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
