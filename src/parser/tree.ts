/**
 * The positioned XML tree, and the one sink that builds it for both readers: the hand-written
 * scanner (fast-xml.ts) and the saxes fallback (xml.ts) report elements, text and end tags by
 * offset, and every span, content range and parent link is worked out here.
 */
import type { Diagnostic, Located, Span } from '../model/index.js';
import type { LineIndex } from './lines.js';

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

/** An attribute as written: its qualified name, normalised value and offsets. */
export interface RawAttribute {
  qname: string;
  value: string;
  nameStart: number;
  valueStart: number;
  valueEnd: number;
}

/** Stands in for a span until the end tag that completes it is read. */
export const PENDING: Span = { file: '', line: 0, column: 0, endLine: 0, endColumn: 0, offset: 0, endOffset: 0 };

/**
 * How deep elements nest before the tree stops keeping them. No descriptor
 * schema nests more than eight levels; without a bound, 100,000 nested
 * elements (700 KB) took 185 MB, and an 8 MiB file of them would take gigabytes.
 */
export const MAX_DEPTH = 256;

/** Where reading stops altogether: past MAX_DEPTH elements are dropped, past this saxes' own stack of open tags is the cost. */
export const STOP_DEPTH = 10_000;

/** The warning for elements dropped below MAX_DEPTH, at the first one (`at`: its "<"). */
export function deepNesting(lines: LineIndex, at: number): Diagnostic {
  return {
    ruleId: 'xml-deep-nesting',
    severity: 'warning',
    message: `Elements nest more than ${MAX_DEPTH} levels deep here; no descriptor schema nests more than eight. tollgate keeps nothing below level ${MAX_DEPTH} (so memory stays bounded); Tomcat reads and ignores such unknown elements (a 100,000-level web.xml started on Tomcat 10.1.60). Remove them.`,
    span: lines.span(at, at + 1),
  };
}

/**
 * What a reader reports, in document order. `depth` is 0 for the root. A reader that gives up
 * on a document tells its caller, which drops what the sink built.
 */
export interface XmlSink {
  /**
   * A start tag from `<` at `lt` to after its `>` at `end`, with its attributes as written (names
   * checked and resolved by the reader); false to give up on the document.
   */
  open(
    depth: number,
    lt: number,
    end: number,
    qname: string,
    name: string,
    namespace: string,
    attributes: readonly RawAttribute[],
    selfClosing: boolean,
  ): boolean;
  /** The end tag `</...>` from `lt` to `end` of the element opened at `start`. */
  close(depth: number, start: number, lt: number, end: number): void;
  /** Character data [from, to) of the source directly inside the open element at `depth`, as written. */
  text(depth: number, from: number, to: number): void;
}

/** The attributes of an element with their names split and located. */
export function xmlAttributes(attrs: readonly RawAttribute[], lines: LineIndex): XmlAttribute[] {
  const out: XmlAttribute[] = [];
  for (const a of attrs) {
    const colon = a.qname.indexOf(':');
    // "a:" has no local name: saxes keeps the qualified one.
    const local = colon < 0 ? a.qname : a.qname.slice(colon + 1);
    out.push({
      name: local || a.qname,
      qname: a.qname,
      value: a.value,
      nameSpan: lines.span(a.nameStart, a.nameStart + a.qname.length),
      valueSpan: lines.span(a.valueStart, a.valueEnd),
    });
  }
  return out;
}

/**
 * The attributes and children of an element without any, shared (frozen, so a change to one
 * would throw rather than reach every other): two empty arrays per element were a third of what
 * the tree of 1,000,000 siblings allocated.
 */
const NONE: never[] = Object.freeze([]) as unknown as never[];

/** Builds the XmlElement tree from either reader's events. */
export class TreeBuilder implements XmlSink {
  root: XmlElement | null = null;
  readonly extraRoots: XmlElement[] = [];
  readonly comments: Located<string>[] = [];
  private readonly stack: XmlElement[] = [];
  /** Start offsets of the open elements, parallel to `stack`: spans are built once, at the close. */
  private readonly starts: number[] = [];
  /** Open elements below MAX_DEPTH, not kept in the tree; where the first began. */
  skipped = 0;
  tooDeepAt = -1;

  constructor(
    private readonly source: string,
    private readonly lines: LineIndex,
  ) {}

  /** Elements open now, kept or not. */
  get openDepth(): number {
    return this.stack.length + this.skipped;
  }

  open(
    _depth: number,
    lt: number,
    end: number,
    qname: string,
    name: string,
    namespace: string,
    attributes: readonly RawAttribute[],
    selfClosing: boolean,
  ): boolean {
    const stack = this.stack;
    if (this.skipped > 0 || stack.length >= MAX_DEPTH) {
      if (this.tooDeepAt < 0) this.tooDeepAt = lt;
      if (!selfClosing) this.skipped++;
      return true;
    }
    const el: XmlElement = {
      name,
      qname,
      namespace,
      attributes: attributes.length === 0 ? NONE : xmlAttributes(attributes, this.lines),
      // Given its own array at its first child: most elements (every leaf) never have one.
      children: NONE,
      text: '',
      span: PENDING,
      contentStart: end,
      contentEnd: end,
    };
    const depth = stack.length;
    if (depth > 0) {
      const parent = stack[depth - 1]!;
      if (parent.children === NONE) parent.children = [el];
      else parent.children.push(el);
    } else if (!this.root) this.root = el;
    else this.extraRoots.push(el);
    if (selfClosing) {
      el.span = this.lines.span(lt, end);
    } else {
      stack.push(el);
      this.starts.push(lt);
    }
    return true;
  }

  /** `lt` may be before the content (a reader that cannot place the end tag): the content is then empty. */
  close(_depth: number, _start: number, lt: number, end: number): void {
    if (this.skipped > 0) {
      this.skipped--;
      return;
    }
    const el = this.stack.pop();
    const start = this.starts.pop();
    if (!el || start === undefined) return;
    el.contentEnd = lt < el.contentStart ? el.contentStart : lt;
    el.span = this.lines.span(start, end);
  }

  text(_depth: number, from: number, to: number): void {
    this.appendText(this.source.slice(from, to));
  }

  /** Character data as a reader gives it (entities expanded). */
  appendText(text: string): void {
    if (this.skipped > 0) return;
    const el = this.stack[this.stack.length - 1];
    if (el) el.text += text;
  }

  comment(start: number, end: number, body: string): void {
    this.comments.push({ value: body, span: this.lines.span(start, end) });
  }

  /** Elements never closed (a truncated or malformed file) run to `readTo`, the end of what was read. */
  finish(readTo: number): void {
    while (this.stack.length > 0) {
      const el = this.stack.pop()!;
      const start = this.starts.pop()!;
      el.contentEnd = Math.max(el.contentStart, readTo);
      el.span = this.lines.span(start, Math.max(start, readTo));
    }
  }
}
