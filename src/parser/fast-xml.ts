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
import type { Located } from '../model/index.js';
import type { LineIndex } from './lines.js';
import { attributeErrors, Namespaces } from './namespaces.js';
import { MAX_DEPTH, STOP_DEPTH, TreeBuilder, type RawAttribute, type XmlElement, type XmlSink } from './tree.js';

/** Characters XML 1.0 forbids anywhere, and CR (saxes normalises line ends). */
const OUTSIDE_SUBSET = /[\x00-\x08\x0B\x0C\x0E-\x1F\r\uD800-\uDFFF\uFFFE\uFFFF]/;

/** The XML declaration forms saxes accepts as they are (version 1.0 only: 1.1 reads line ends differently). */
const XML_DECL =
  /<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*(["'])1\.0\1(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*(["'])(?:yes|no)\3)?[ \t\n]*\?>/y;

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

/** The bindings of the scan (reused: a scan never nests). */
const NS = new Namespaces();
/** Scratch for one element's declarations and the messages saxes would give (any message: leave the file to saxes). */
const DECL_PREFIXES: string[] = [];
const DECL_URIS: string[] = [];
const MESSAGES: string[] = [];
const ATTRIBUTE_NAMES: string[] = [];

/**
 * Binds an element's declarations at `depth`; false where saxes would report something
 * (rebinding xml or xmlns, undeclaring a prefix...): the scan then gives up.
 */
function declare(depth: number, attrs: readonly RawAttribute[]): boolean {
  let n = 0;
  for (const a of attrs) {
    const q = a.qname;
    if (q.charCodeAt(0) !== 120 /* x */ || !q.startsWith('xmlns') || (q.length > 5 && q.charCodeAt(5) !== 58)) continue;
    const bound = attributeErrors(q, a.value, true, MESSAGES);
    if (MESSAGES.length > 0) {
      MESSAGES.length = 0;
      return false;
    }
    if (bound) {
      DECL_PREFIXES[n] = bound.prefix;
      DECL_URIS[n++] = bound.uri;
    }
  }
  if (n > 0) NS.bind(depth, DECL_PREFIXES.slice(0, n), DECL_URIS.slice(0, n));
  return true;
}

/** Whether saxes reads these attributes without a finding: every prefix bound, no two with the same expanded name. */
function attributesValid(attrs: readonly RawAttribute[]): boolean {
  const n = attrs.length;
  for (let i = 0; i < n; i++) {
    const q = attrs[i]!.qname;
    const colon = q.indexOf(':');
    // Malformed as saxes reads it (an empty prefix or local name, or a second colon): saxes reports it.
    if (colon >= 0 && (colon === 0 || colon === q.length - 1 || q.indexOf(':', colon + 1) >= 0)) return false;
    ATTRIBUTE_NAMES[i] = q;
  }
  ATTRIBUTE_NAMES.length = n;
  NS.element('', ATTRIBUTE_NAMES, MESSAGES);
  if (MESSAGES.length === 0) return true;
  MESSAGES.length = 0;
  return false;
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

/** Where the last scan first opened an element below MAX_DEPTH (-1: none): its caller reports it (deepNesting). */
export let tooDeepAt = -1;

/** scanSimple's stacks, never shrunk (V8 drops an array's storage when its length is set to 0). */
const OPEN_NAMES: string[] = [];
const OPEN_STARTS: number[] = [];

/**
 * Reads a document in the simple subset and reports its elements and text to
 * `sink`; returns its comments, or null to leave the document to saxes (then
 * whatever the sink built is to be dropped). `text` is the decoded text (no BOM).
 */
export function scanSimple(text: string, lines: LineIndex, sink: XmlSink): Located<string>[] | null {
  // "]]>" may not appear in char data; searched apart, as one pattern with both is slower.
  if (OUTSIDE_SUBSET.test(text) || text.includes(']]>')) return null;
  let i = 0;
  if (text.startsWith('<?')) {
    XML_DECL.lastIndex = 0;
    if (!XML_DECL.test(text)) return null;
    i = XML_DECL.lastIndex;
  }
  const comments: Located<string>[] = [];
  // The open elements' names and start offsets, in reused arrays (a scan never nests): the first `depth` entries.
  const qnames = OPEN_NAMES;
  const starts = OPEN_STARTS;
  let depth = 0;
  NS.reset();
  tooDeepAt = -1;
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
      NS.unbind(depth);
      sink.close(depth, starts[depth]!, lt, j + 1);
      i = j + 1;
      continue;
    }
    // A second root element is an error saxes reports.
    if (sawRoot && depth === 0) return null;
    // Past MAX_DEPTH the sinks keep nothing (and the caller warns); past STOP_DEPTH saxes' path stops reading and says so.
    if (depth >= MAX_DEPTH) {
      if (depth >= STOP_DEPTH) return null;
      if (tooDeepAt < 0) tooDeepAt = lt;
    }
    const nEnd = nameEnd(text, lt + 1);
    if (nEnd < 0) return null;
    // Read before readStartTag, whose attribute names move it.
    const colon = nameColon < 0 ? -1 : nameColon - (lt + 1);
    const attrs = readStartTag(text, lt, nEnd);
    if (!attrs) return null;
    const end = tagEnd;
    const selfClosing = tagSelfClosing;
    if (attrs.length > 0 && !declare(depth, attrs)) return null;
    const qname = text.slice(lt + 1, nEnd);
    // Saxes' qualified-name rules without a {prefix, local} object per element (colon: from nameEnd).
    let name = qname;
    let uri: string | undefined;
    if (colon < 0) {
      uri = NS.defaultNamespace;
    } else {
      const prefix = qname.slice(0, colon);
      name = qname.slice(colon + 1);
      if (colon === 0 || name === '' || name.includes(':') || prefix === 'xmlns') return null;
      uri = NS.resolve(prefix);
      if (uri === undefined || uri === '') return null;
    }
    if (attrs.length > 0 && !attributesValid(attrs)) return null;
    sawRoot = true;
    if (!sink.open(depth, lt, end, qname, name, uri, attrs, selfClosing)) return null;
    if (selfClosing) {
      NS.unbind(depth);
    } else {
      qnames[depth] = qname;
      starts[depth++] = lt;
    }
    i = end;
  }
  if (!sawRoot || depth > 0) return null;
  // Kept as long as the source: no spare room (a pushed array has room for 17).
  return comments.length === 0 ? comments : comments.slice();
}

/**
 * The positioned tree of a document in the simple subset, or null to leave
 * the document to saxes. `text` is the decoded text (no BOM).
 */
export function parseSimpleTree(
  text: string,
  lines: LineIndex,
): { root: XmlElement; comments: Located<string>[]; tooDeepAt: number } | null {
  const sink = new TreeBuilder(text, lines);
  const comments = scanSimple(text, lines, sink);
  return comments && sink.root ? { root: sink.root, comments, tooDeepAt: sink.tooDeepAt } : null;
}
