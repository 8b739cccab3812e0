import { SaxesParser, type SaxesTagNS } from 'saxes';
import type { Diagnostic, Located, SourceFile, Span } from '../model/index.js';
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

/** Errors from a malformed file are capped: the first one is what a person needs. */
const MAX_ERRORS = 5;

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

class TreeParser extends SaxesParser<{ xmlns: true; position: true }> {
  constructor() {
    super({ xmlns: true, position: true });
    const h = this as unknown as Handlers;
    h.doctypeHandler = undefined;
    h.commentHandler = undefined;
    h.openTagStartHandler = undefined;
    h.openTagHandler = undefined;
    h.closeTagHandler = undefined;
    h.textHandler = undefined;
    h.cdataHandler = undefined;
    h.errorHandler = undefined;
  }
}

const ATTR_RE = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/gy;

/**
 * Parses XML text into a tree whose every element, attribute and text carries
 * its span. Never throws: malformed input yields diagnostics and the part of
 * the tree read so far. No entity declared in a DOCTYPE is ever expanded and
 * no external resource is read.
 */
export function parseXmlTree(source: SourceFile): { doc: XmlDocument; diagnostics: Diagnostic[] } {
  const text = source.text;
  const file = source.path;
  const lines = new LineIndex(file, text);
  const diagnostics: Diagnostic[] = [];
  const comments: Located<string>[] = [];
  let doctype: Located<string> | null = null;
  let root: XmlElement | null = null;
  const extraRoots: XmlElement[] = [];
  const stack: XmlElement[] = [];
  let tagStart = 0;
  let errors = 0;
  let stopped = false;

  if (text.trim() === '') {
    diagnostics.push({
      ruleId: 'xml-malformed',
      severity: 'error',
      message: 'The file is empty: an XML document needs a root element.',
      span: lines.span(0, 0),
    });
    return { doc: { root, extraRoots, doctype, comments, lines }, diagnostics };
  }

  const parser = new TreeParser();
  const h = parser as unknown as Handlers;

  // Handlers are assigned in TreeParser's constructor slots: adding them later with on()
  // pushes saxes' parser object into dictionary mode, which made parsing five times slower.
  h.doctypeHandler = (dt: string) => {
    const end = parser.position;
    const start = text.lastIndexOf('<!DOCTYPE', end);
    doctype = { value: dt, span: lines.span(start < 0 ? 0 : start, end) };
    checkDoctype(dt, doctype.span, lines, diagnostics);
  };
  h.commentHandler = (body: string) => {
    const start = text.lastIndexOf('<!--', parser.position);
    const close = text.indexOf('-->', start + 4);
    const end = close < 0 ? parser.position : close + 3;
    comments.push({ value: body, span: lines.span(start, end) });
  };
  h.openTagStartHandler = () => {
    tagStart = text.lastIndexOf('<', parser.position - 1);
  };
  h.openTagHandler = (tag: SaxesTagNS) => {
    const openEnd = parser.position;
    const attributes = readAttributes(text, tagStart + 1 + tag.name.length, openEnd, tag.attributes as Record<string, { local: string; value: string }>, lines);
    const el: XmlElement = {
      name: tag.local ?? tag.name,
      qname: tag.name,
      namespace: tag.uri ?? '',
      attributes,
      children: [],
      text: '',
      span: lines.span(tagStart, tagStart),
      contentStart: openEnd,
      contentEnd: openEnd,
    };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else if (!root) root = el;
    else extraRoots.push(el);
    stack.push(el);
  };
  h.closeTagHandler = (tag: SaxesTagNS) => {
    const el = stack.pop();
    if (!el) return;
    const end = parser.position;
    if (tag.isSelfClosing) {
      el.contentStart = el.contentEnd = end;
    } else {
      const closeStart = text.lastIndexOf('</', end - 1);
      el.contentEnd = closeStart < el.contentStart ? el.contentStart : closeStart;
    }
    el.span = lines.span(el.span.offset, end);
  };
  h.textHandler = (t: string) => {
    const el = stack[stack.length - 1];
    if (el) el.text += t;
  };
  h.cdataHandler = h.textHandler;
  h.errorHandler = (err: Error) => {
    if (stopped) return;
    errors++;
    const at = Math.min(parser.position, text.length);
    const message = err.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '').replace(/\.+$/, '');
    const undefinedEntity = /undefined entity/.test(message);
    if (/malformed comment/.test(message)) {
      diagnostics.push({
        ruleId: 'xml-malformed',
        severity: 'error',
        message: 'Malformed XML: a comment may not contain "--" (Tomcat\'s parser rejects the whole file). In a tollgate suppression, write the reason after "::".',
        span: lines.span(Math.max(0, at - 1), at),
      });
      if (errors >= MAX_ERRORS) stopped = true;
      return;
    }
    diagnostics.push({
      ruleId: undefinedEntity ? 'xml-entity-expansion' : 'xml-malformed',
      severity: 'error',
      message: undefinedEntity
        ? 'Entity reference to an entity this file does not define: tollgate (like a hardened parser) expands no entity declared in a DOCTYPE.'
        : `Malformed XML: ${message}.`,
      span: lines.span(Math.max(0, at - 1), at),
    });
    if (errors >= MAX_ERRORS) stopped = true;
  };

  try {
    // Feeding in one piece keeps positions absolute; stop early once errors are capped.
    parser.write(text);
    if (!stopped) parser.close();
  } catch (err) {
    // saxes throws only when writing after a fatal state; the diagnostic is already recorded.
    if (diagnostics.length === 0) {
      diagnostics.push({
        ruleId: 'xml-malformed',
        severity: 'error',
        message: `Malformed XML: ${(err as Error).message}.`,
        span: lines.span(0, 0),
      });
    }
  }
  if (!root && !diagnostics.some((d) => d.severity === 'error')) {
    diagnostics.push({
      ruleId: 'xml-malformed',
      severity: 'error',
      message: 'The file has no root element.',
      span: lines.span(0, 0),
    });
  }
  return { doc: { root, extraRoots, doctype, comments, lines }, diagnostics };
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

function checkDoctype(dt: string, span: Span, lines: LineIndex, diagnostics: Diagnostic[]): void {
  const subset = dt.indexOf('[');
  if (subset < 0) return;
  const internal = dt.slice(subset);
  if (/<!ENTITY\s+%?\s*[^\s>]+\s+(SYSTEM|PUBLIC)\b/.test(internal)) {
    diagnostics.push({
      ruleId: 'xml-external-entity',
      severity: 'error',
      message: 'The DOCTYPE declares an external entity. tollgate never reads it (nor does a hardened Tomcat), and no deployment descriptor needs one: remove it.',
      span,
    });
  } else if (/<!ENTITY/.test(internal)) {
    diagnostics.push({
      ruleId: 'xml-entity-expansion',
      severity: 'error',
      message: 'The DOCTYPE declares entities; tollgate does not expand them (this bounds "billion laughs" style expansion). Write the values out instead.',
      span: lines.span(span.offset, span.endOffset),
    });
  }
}

/** The trimmed text of an element, located at the trimmed characters of its content. */
export function elementText(el: XmlElement, lines: LineIndex, raw: string): Located<string> {
  let s = el.contentStart;
  let e = el.contentEnd;
  while (s < e && isSpace(raw.charCodeAt(s))) s++;
  while (e > s && isSpace(raw.charCodeAt(e - 1))) e--;
  return { value: el.text.trim(), span: lines.span(s, e) };
}
