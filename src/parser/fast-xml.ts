/**
 * A fast path for the documents nearly every descriptor is: elements,
 * attributes, plain text and comments, no DOCTYPE, entity, CDATA, processing
 * instruction or CR. It builds exactly the tree the saxes path builds (the
 * parser tests compare both on every fixture and on generated documents) at a
 * fraction of the cost, and gives up (returns null) at the first thing outside
 * that subset or anything saxes would report, so saxes then reads the file and
 * reports what is wrong. A well-formed document in the subset has no
 * diagnostics, so none are produced here.
 */
import type { Located, Span } from '../model/index.js';
import type { LineIndex } from './lines.js';
import type { XmlAttribute, XmlElement } from './xml.js';

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

/** Stands in for an element's span until its end tag is read. */
const PENDING: Span = { file: '', line: 0, column: 0, endLine: 0, endColumn: 0, offset: 0, endOffset: 0 };

/** Characters XML 1.0 forbids anywhere, and CR (saxes normalises line ends). */
const OUTSIDE_SUBSET = /[\x00-\x08\x0B\x0C\x0E-\x1F\r\uD800-\uDFFF\uFFFE\uFFFF]/;

/** The XML declaration forms saxes accepts as they are (version 1.0 only: 1.1 reads line ends differently). */
const XML_DECL = /<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*(["'])1\.0\1(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*(["'])(?:yes|no)\3)?[ \t\n]*\?>/y;

/** 1: may start an ASCII name, 2: may continue one (":" is handled as part of qualified names). */
const NAME = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_]/.test(ch)) NAME[c] = 3;
  else if (/[0-9.\-:]/.test(ch)) NAME[c] = 2;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10;
}

/** Where nameEnd saw the first ":" of the name it read, or -1 (a module field rather than a result object). */
let nameColon = -1;

/** The end of the ASCII name starting at `i`, or -1 when none starts there (a non-ASCII name goes to saxes); nameColon says where its first ":" is. */
function nameEnd(text: string, i: number): number {
  nameColon = -1;
  const first = text.charCodeAt(i);
  if (!(first < 128 && (NAME[first]! & 1) !== 0)) return -1;
  let j = i + 1;
  for (;;) {
    const c = text.charCodeAt(j);
    if (c < 128 && NAME[c] !== 0) {
      if (c === 58 && nameColon < 0) nameColon = j;
      j++;
    } else return c >= 128 ? -1 : j;
  }
}

function allSpace(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** An attribute as written: its qualified name, normalised value and offsets. */
export interface RawAttribute {
  qname: string;
  value: string;
  nameStart: number;
  valueStart: number;
  valueEnd: number;
}

/** Namespace bindings of one open element, chained to its parent's. */
export interface Scope {
  parent: Scope | null;
  bindings: Map<string, string> | null;
  /** resolve(this, ''), computed once: the namespace of every unprefixed element in this scope. */
  defaultNamespace: string | undefined;
}

function resolve(scope: Scope, prefix: string): string | undefined {
  for (let s: Scope | null = scope; s; s = s.parent) {
    const uri = s.bindings?.get(prefix);
    if (uri !== undefined) return uri;
  }
  return prefix === 'xml' ? XML_NAMESPACE : prefix === 'xmlns' ? XMLNS_NAMESPACE : undefined;
}

/** The scope of elements outside any declaration. */
const NO_BINDINGS: Scope = { parent: null, bindings: null, defaultNamespace: undefined };

/** The scope an element opens (its parent's when it declares nothing), or null where saxes would report a declaration. */
function openScope(parent: Scope, attrs: RawAttribute[]): Scope | null {
  let bindings: Map<string, string> | null = null;
  for (const a of attrs) {
    let prefix: string;
    if (a.qname === 'xmlns') prefix = '';
    else if (a.qname.startsWith('xmlns:')) prefix = a.qname.slice(6);
    else continue;
    const uri = a.value.trim();
    // Rebinding xml or xmlns, binding their namespaces, or undeclaring a prefix: saxes reports each.
    if (prefix === 'xml' || prefix === 'xmlns' || prefix.includes(':') || uri === XML_NAMESPACE || uri === XMLNS_NAMESPACE) return null;
    if (prefix !== '' && uri === '') return null;
    (bindings ??= new Map()).set(prefix, uri);
  }
  return bindings ? { parent, bindings, defaultNamespace: bindings.has('') ? bindings.get('') : parent.defaultNamespace } : parent;
}

/** The expanded names (namespace, local name) of the attributes being checked (reused: a check never nests). */
const URIS: string[] = [];
const LOCALS: string[] = [];

/** Whether saxes reads these attributes without a finding: every prefix bound, no two with the same expanded name. */
function attributesValid(scope: Scope, attrs: readonly RawAttribute[]): boolean {
  const n = attrs.length;
  const seen = n > 16 ? new Set<string>() : null;
  for (let i = 0; i < n; i++) {
    const qname = attrs[i]!.qname;
    const colon = qname.indexOf(':');
    // An unprefixed attribute is in no namespace: its expanded name is its name ("" never resolves to a bound namespace).
    let uri = '';
    let local = qname;
    if (colon >= 0) {
      // Malformed as saxes reads it: an empty prefix or local name, or a second colon.
      if (colon === 0 || colon === qname.length - 1 || qname.indexOf(':', colon + 1) >= 0) return false;
      const found = resolve(scope, qname.slice(0, colon));
      if (found === undefined || found === '') return false;
      uri = found;
      local = qname.slice(colon + 1);
    }
    if (seen) {
      const key = colon < 0 ? qname : `{${uri}}${local}`;
      if (seen.has(key)) return false;
      seen.add(key);
    } else {
      // Few attributes: compared pairwise rather than through a Set (or a key string) per element.
      for (let j = 0; j < i; j++) if (LOCALS[j] === local && URIS[j] === uri) return false;
      URIS[i] = uri;
      LOCALS[i] = local;
    }
  }
  return true;
}

/**
 * The attributes of an element with their names resolved and located, as the
 * saxes path gives them (for attributes attributesValid accepted).
 */
export function xmlAttributes(attrs: readonly RawAttribute[], lines: LineIndex): XmlAttribute[] {
  const out: XmlAttribute[] = [];
  for (const a of attrs) {
    const colon = a.qname.indexOf(':');
    out.push({
      name: colon < 0 ? a.qname : a.qname.slice(colon + 1),
      qname: a.qname,
      value: a.value,
      nameSpan: lines.span(a.nameStart, a.nameStart + a.qname.length),
      valueSpan: lines.span(a.valueStart, a.valueEnd),
    });
  }
  return out;
}

/** What readStartTag read, in module fields rather than a new object per element (parsing never nests). */
let tagEnd = 0;
let tagSelfClosing = false;
const NO_ATTRIBUTES: RawAttribute[] = [];

/**
 * Reads a start tag from `<` at `lt`: its raw attributes (NO_ATTRIBUTES when
 * none), and in tagEnd the offset after its `>`; null for anything saxes
 * would read differently.
 */
function readStartTag(text: string, lt: number, nEnd: number): RawAttribute[] | null {
  let attrs = NO_ATTRIBUTES;
  let j = nEnd;
  for (;;) {
    const before = j;
    while (isSpace(text.charCodeAt(j))) j++;
    const c = text.charCodeAt(j);
    if (c === 62 /* > */) {
      tagEnd = j + 1;
      tagSelfClosing = false;
      return attrs;
    }
    if (c === 47 /* / */) {
      if (text.charCodeAt(j + 1) !== 62) return null;
      tagEnd = j + 2;
      tagSelfClosing = true;
      return attrs;
    }
    if (j === before) return null; // attributes must be separated by white space
    const aEnd = nameEnd(text, j);
    if (aEnd < 0) return null;
    const nameStart = j;
    j = aEnd;
    while (isSpace(text.charCodeAt(j))) j++;
    if (text.charCodeAt(j) !== 61 /* = */) return null;
    j++;
    while (isSpace(text.charCodeAt(j))) j++;
    const q = text.charCodeAt(j);
    if (q !== 34 && q !== 39) return null;
    const close = text.indexOf(q === 34 ? '"' : "'", j + 1);
    if (close < 0) return null;
    let value = text.slice(j + 1, close);
    if (value.includes('<') || value.includes('&')) return null;
    // Attribute-value normalisation: each tab and line end becomes a space (CR never gets here).
    if (value.includes('\n') || value.includes('\t')) value = value.replace(/[\t\n]/g, ' ');
    if (attrs === NO_ATTRIBUTES) attrs = [];
    attrs.push({ qname: text.slice(nameStart, aEnd), value, nameStart, valueStart: j + 1, valueEnd: close });
    j = close + 1;
  }
}

/**
 * How deep elements nest before the tree stops keeping them. No descriptor
 * schema nests more than eight levels; without a bound, 100,000 nested
 * elements (700 KB) took 185 MB, and an 8 MiB file of them would take gigabytes.
 */
export const MAX_DEPTH = 256;


/**
 * What scanSimple reports, in document order. `depth` is 0 for the root.
 * When the scan gives up (returns null), what the sink built so far is to be dropped.
 */
export interface SimpleSink {
  /**
   * A start tag (`end` is after its `>`), with its attributes as written (checked: xmlAttributes
   * resolves and locates them for a sink that keeps them); false to give up on the document.
   */
  open(depth: number, lt: number, end: number, qname: string, name: string, namespace: string, attributes: readonly RawAttribute[], selfClosing: boolean): boolean;
  /** The end tag `</...>` from `lt` to `end` of the element opened at `start`. */
  close(depth: number, start: number, lt: number, end: number): void;
  /** Character data [from, to) directly inside the open element at `depth` (no entity: the scan gives up on "&"). */
  text(depth: number, from: number, to: number): void;
}

/** scanSimple's stacks, never shrunk (V8 drops an array's storage when its length is set to 0). */
const OPEN_NAMES: string[] = [];
const OPEN_STARTS: number[] = [];
const OPEN_SCOPES: Scope[] = [];

/**
 * Reads a document in the simple subset and reports its elements and text to
 * `sink`; returns its comments, or null to leave the document to saxes (then
 * whatever the sink built is to be dropped). `text` is the decoded text (no BOM).
 */
export function scanSimple(text: string, lines: LineIndex, sink: SimpleSink): Located<string>[] | null {
  // "]]>" may not appear in char data; searched apart, as one pattern with both is slower.
  if (OUTSIDE_SUBSET.test(text) || text.includes(']]>')) return null;
  let i = 0;
  if (text.startsWith('<?')) {
    XML_DECL.lastIndex = 0;
    if (!XML_DECL.test(text)) return null;
    i = XML_DECL.lastIndex;
  }
  const comments: Located<string>[] = [];
  // The open elements' names, start offsets and parents' scopes, in reused arrays (a scan never nests): the first `depth` entries.
  const qnames = OPEN_NAMES;
  const starts = OPEN_STARTS;
  const scopes = OPEN_SCOPES;
  let depth = 0;
  let scope: Scope = NO_BINDINGS;
  let sawRoot = false;
  // The next "&" at or after i (-1: none left): found once rather than per text segment.
  let amp = text.indexOf('&');
  for (;;) {
    const lt = text.indexOf('<', i);
    const segEnd = lt < 0 ? text.length : lt;
    if (segEnd > i) {
      if (depth > 0) {
        if (amp >= 0 && amp < i) amp = text.indexOf('&', i);
        if (amp >= 0 && amp < segEnd) return null;
        sink.text(depth - 1, i, segEnd);
      } else if (!allSpace(text, i, segEnd)) {
        return null; // text outside the root element
      }
    }
    if (lt < 0) break;
    const c = text.charCodeAt(lt + 1);
    if (c === 33 /* ! */) {
      if (!text.startsWith('--', lt + 2)) return null; // DOCTYPE, CDATA
      const close = text.indexOf('-->', lt + 4);
      if (close < 0) return null;
      const body = text.slice(lt + 4, close);
      if (body.includes('--') || body.endsWith('-')) return null;
      // saxes' path locates a comment by the last "<!--" before its closing dashes: one inside it would move the span.
      if (text.lastIndexOf('<!--', close + 2) !== lt) return null;
      comments.push({ value: body, span: lines.span(lt, close + 3) });
      i = close + 3;
      continue;
    }
    if (c === 47 /* / */) {
      if (depth === 0) return null;
      const qname = qnames[--depth]!;
      // The open element's name, not followed by another name character (what nameEnd would read on).
      if (!text.startsWith(qname, lt + 2)) return null;
      let j = lt + 2 + qname.length;
      const after = text.charCodeAt(j);
      if (after >= 128 || NAME[after] !== 0) return null; // NaN (end of text) too: no ">" follows
      while (isSpace(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) !== 62) return null;
      scope = scopes[depth]!;
      sink.close(depth, starts[depth]!, lt, j + 1);
      i = j + 1;
      continue;
    }
    // A second root element is an error saxes reports.
    if (sawRoot && depth === 0) return null;
    // Past MAX_DEPTH the saxes path drops elements and reports it.
    if (depth >= MAX_DEPTH) return null;
    const nEnd = nameEnd(text, lt + 1);
    if (nEnd < 0) return null;
    // Read before readStartTag, whose attribute names move it.
    const colon = nameColon < 0 ? -1 : nameColon - (lt + 1);
    const attrs = readStartTag(text, lt, nEnd);
    if (!attrs) return null;
    const end = tagEnd;
    const selfClosing = tagSelfClosing;
    const own = attrs.length === 0 ? scope : openScope(scope, attrs);
    if (!own) return null;
    const qname = text.slice(lt + 1, nEnd);
    // Saxes' qualified-name rules without a {prefix, local} object per element (colon: from nameEnd).
    let name = qname;
    let uri: string | undefined;
    if (colon < 0) {
      uri = own.defaultNamespace ?? '';
    } else {
      const prefix = qname.slice(0, colon);
      name = qname.slice(colon + 1);
      if (colon === 0 || name === '' || name.includes(':') || prefix === 'xmlns') return null;
      uri = resolve(own, prefix);
      if (uri === undefined || uri === '') return null;
    }
    if (attrs.length > 0 && !attributesValid(own, attrs)) return null;
    sawRoot = true;
    if (!sink.open(depth, lt, end, qname, name, uri, attrs, selfClosing)) return null;
    if (!selfClosing) {
      qnames[depth] = qname;
      starts[depth] = lt;
      scopes[depth++] = scope;
      scope = own;
    }
    i = end;
  }
  if (!sawRoot || depth > 0) return null;
  // Kept as long as the source: no spare room (a pushed array has room for 17).
  return comments.length === 0 ? comments : comments.slice();
}

/** Builds the XmlElement tree, exactly as the saxes path does. */
class TreeSink implements SimpleSink {
  root: XmlElement | null = null;
  private readonly stack: XmlElement[] = [];

  constructor(private readonly source: string, private readonly lines: LineIndex) {}

  open(_depth: number, lt: number, end: number, qname: string, name: string, namespace: string, attributes: readonly RawAttribute[], selfClosing: boolean): boolean {
    const el: XmlElement = {
      name,
      qname,
      namespace,
      attributes: attributes.length === 0 ? [] : xmlAttributes(attributes, this.lines),
      children: [],
      text: '',
      span: PENDING,
      contentStart: end,
      contentEnd: end,
    };
    const parent = this.stack[this.stack.length - 1];
    if (parent) parent.children.push(el);
    else this.root = el;
    if (selfClosing) el.span = this.lines.span(lt, end);
    else this.stack.push(el);
    return true;
  }

  close(_depth: number, start: number, lt: number, end: number): void {
    const el = this.stack.pop()!;
    el.contentEnd = lt;
    el.span = this.lines.span(start, end);
  }

  text(_depth: number, from: number, to: number): void {
    this.stack[this.stack.length - 1]!.text += this.source.slice(from, to);
  }
}

/**
 * The positioned tree of a document in the simple subset, or null to leave
 * the document to saxes. `text` is the decoded text (no BOM).
 */
export function parseSimpleTree(text: string, lines: LineIndex): { root: XmlElement; comments: Located<string>[] } | null {
  const sink = new TreeSink(text, lines);
  const comments = scanSimple(text, lines, sink);
  return comments && sink.root ? { root: sink.root, comments } : null;
}
