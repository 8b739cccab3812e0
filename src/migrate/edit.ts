/**
 * Byte-minimal edits of XML text, located by the parser's exact spans: an attribute removed takes the
 * whitespace before it (or, first on a line that goes on, the whitespace after it), a value replaced
 * keeps its quotes, an element inserted takes the indentation and line ending the file already uses.
 * Everything else (comments, layout, other attributes) stays byte for byte.
 */
import type { XmlAttribute, XmlElement } from '../parser/index.js';

/** A replacement of [offset, endOffset) of the decoded text. */
export interface Edit {
  offset: number;
  endOffset: number;
  text: string;
}

/** Applies non-overlapping edits; an insertion at the start of a replaced range goes before it. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.offset - b.offset || a.endOffset - a.offset - (b.endOffset - b.offset));
  let out = '';
  let cursor = 0;
  for (const e of sorted) {
    if (e.offset < cursor) throw new Error(`overlapping edits at offset ${e.offset}`);
    out += text.slice(cursor, e.offset) + e.text;
    cursor = e.endOffset;
  }
  return out + text.slice(cursor);
}

/** What one start tag becomes. Values are written as they go between double quotes (already escaped). */
export interface TagChange {
  remove?: ReadonlySet<string>;
  /** New values of attributes kept, by name. */
  set?: ReadonlyMap<string, string>;
  /** Attributes added after the last one kept, each as its whole `name="value"` text. */
  add?: readonly string[];
}

/** Escapes a value for a double-quoted attribute. */
export function quoteValue(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

/** An attribute as written in the source, `name="value"` with its own quotes and references. */
export function attributeSource(text: string, a: XmlAttribute): string {
  return text.slice(a.nameSpan.offset, valueEnd(a));
}

/** After the closing quote of an attribute's value (the parser's value span is what is between the quotes). */
const valueEnd = (a: XmlAttribute): number => a.valueSpan.endOffset + 1;

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** The edits that make an element's start tag what `change` says. */
export function tagEdits(el: XmlElement, text: string, change: TagChange): Edit[] {
  const edits: Edit[] = [];
  const attrs = el.attributes;
  const removed = (a: XmlAttribute): boolean => change.remove?.has(a.qname) === true;
  const nameEnd = el.span.offset + 1 + el.qname.length;
  const tokenEnd = (i: number): number => (i < 0 ? nameEnd : valueEnd(attrs[i]!));
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i]!;
    if (removed(a)) {
      let j = i;
      while (j + 1 < attrs.length && removed(attrs[j + 1]!)) j++;
      let from = tokenEnd(i - 1);
      let to = valueEnd(attrs[j]!);
      const next = attrs[j + 1];
      // First on its line and followed on that line by a kept attribute: that one moves up to its place.
      if (
        text.slice(from, a.nameSpan.offset).includes('\n') &&
        next &&
        !text.slice(to, next.nameSpan.offset).includes('\n')
      ) {
        from = a.nameSpan.offset;
        to = next.nameSpan.offset;
      }
      edits.push({ offset: from, endOffset: to, text: '' });
      i = j;
      continue;
    }
    const value = change.set?.get(a.qname);
    if (value !== undefined) {
      const quote = text[a.valueSpan.offset - 1];
      const written = quote === "'" ? value.replace(/'/g, '&apos;') : value;
      edits.push({ offset: a.valueSpan.offset, endOffset: a.valueSpan.endOffset, text: written });
    }
  }
  if (change.add?.length) {
    let last = -1;
    for (let i = 0; i < attrs.length; i++) if (!removed(attrs[i]!)) last = i;
    const at = tokenEnd(last);
    edits.push({ offset: at, endOffset: at, text: change.add.map((s) => ' ' + s).join('') });
  }
  return edits;
}

/** Whether the element is written `<x ... />`. */
export function isSelfClosing(el: XmlElement): boolean {
  return el.contentStart === el.span.endOffset;
}

/** The file's line ending. */
export function lineEnding(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** The whitespace before the element on its line, or null when something else comes first on that line. */
export function indentOf(text: string, offset: number): string | null {
  let i = offset;
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  if (i > 0 && text[i - 1] !== '\n') return null;
  return text.slice(i, offset);
}

/** The indentation of an element's children: its first child's, else one step more than its own. */
export function childIndent(text: string, el: XmlElement, parent: XmlElement | null): string {
  for (const c of el.children) {
    const ind = indentOf(text, c.span.offset);
    if (ind !== null) return ind;
  }
  const own = indentOf(text, el.span.offset) ?? '';
  const parentIndent = parent ? (indentOf(text, parent.span.offset) ?? '') : '';
  const step = own.startsWith(parentIndent) && own.length > parentIndent.length ? own.slice(parentIndent.length) : '  ';
  return own + step;
}

/** A new element to write: its name, its attributes as `name="value"` texts, its children. */
export interface NewElement {
  name: string;
  attributes: string[];
  children: NewElement[];
}

/**
 * The text of a new element at `indent`, each line ended by `eol`. A start tag longer than a
 * hundred columns puts each further attribute on its own line under the first, as Tomcat's own
 * server.xml does.
 */
export function renderElement(el: NewElement, indent: string, step: string, eol: string): string {
  const head = `${indent}<${el.name}`;
  const oneLine = [head, ...el.attributes].join(' ');
  const close = el.children.length ? '>' : ' />';
  let start: string;
  if (oneLine.length + close.length <= 100 || el.attributes.length < 2) start = oneLine + close;
  else {
    const pad = ' '.repeat(head.length + 1);
    start =
      `${head} ${el.attributes[0]!}` +
      el.attributes
        .slice(1)
        .map((a) => `${eol}${pad}${a}`)
        .join('') +
      close;
  }
  if (!el.children.length) return start + eol;
  return (
    start +
    eol +
    el.children.map((c) => renderElement(c, indent + step, step, eol)).join('') +
    `${indent}</${el.name}>${eol}`
  );
}

/**
 * Edits that insert `children` (already rendered, each line ended) as the last children of `el`:
 * before its end tag, or, for `<x ... />`, by opening it and closing it after them.
 */
export function appendChildrenEdits(text: string, el: XmlElement, rendered: string, ownIndent: string): Edit[] {
  const eol = lineEnding(text);
  if (isSelfClosing(el)) {
    // From after the last non-space before "/>" to the end of the tag.
    let from = el.span.endOffset - 2;
    while (isSpace(text[from - 1])) from--;
    return [{ offset: from, endOffset: el.span.endOffset, text: `>${eol}${rendered}${ownIndent}</${el.qname}>` }];
  }
  const endTag = el.contentEnd;
  const lineStart = text.lastIndexOf('\n', endTag - 1) + 1;
  if (/^[ \t]*$/.test(text.slice(lineStart, endTag)) && lineStart > el.contentStart) {
    return [{ offset: lineStart, endOffset: lineStart, text: rendered }];
  }
  return [{ offset: endTag, endOffset: endTag, text: eol + rendered + ownIndent }];
}

/** The edit that removes an element whole, with its line when it stands alone on it. */
export function removeElementEdit(text: string, el: XmlElement): Edit {
  let from = el.span.offset;
  let to = el.span.endOffset;
  const lineStart = text.lastIndexOf('\n', from - 1) + 1;
  let lineEnd = text.indexOf('\n', to);
  if (lineEnd < 0) lineEnd = text.length;
  if (/^[ \t]*$/.test(text.slice(lineStart, from)) && /^[ \t\r]*$/.test(text.slice(to, lineEnd))) {
    from = lineStart;
    to = Math.min(lineEnd + 1, text.length);
  }
  return { offset: from, endOffset: to, text: '' };
}
