/**
 * An editor buffer that takes a keystroke in time independent of the buffer's size. The library's
 * TextDocument rebuilds its string on every incremental change (substring + concatenation, then a
 * character read that makes V8 flatten it): on a 7 MB file that is a 7 MB copy per keystroke, and 100
 * keystrokes were 13 s of the server's event loop under load (bench/security.ts, profiled). Here the
 * text is kept as a list of pieces (slices of the last whole text and the typed strings, which V8
 * slices without copying) and joined once, when something reads the whole text. Lines are tracked per
 * change as the library does, so positions convert without the text.
 *
 * It also keeps the edits since each version (bounded), so that a parse of an older version can answer
 * for an offset of the current one (hover and completion on a large buffer while it is being typed in).
 */
import type { Position, Range, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';

/** One change: `removed` characters at `offset` replaced by `inserted` characters (offsets before it). */
interface Edit {
  offset: number;
  removed: number;
  inserted: number;
  /** The version the change produced. */
  version: number;
}

/** Past this many pieces the text is joined (one copy), so a character read stays cheap. */
const MAX_PIECES = 512;
/** Edits kept for mapping offsets back to an older version; older versions can no longer be mapped. */
const MAX_HISTORY = 10_000;

const CR = 13;
const LF = 10;

/** Offsets where a line starts in `text` (after \n, \r or \r\n), shifted by `shift`; the first line's 0 when `withFirst`. */
function lineStarts(text: string, withFirst: boolean, shift = 0): number[] {
  const out = withFirst ? [shift] : [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === CR || c === LF) {
      if (c === CR && i + 1 < text.length && text.charCodeAt(i + 1) === LF) i++;
      out.push(shift + i + 1);
    }
  }
  return out;
}

export class EditorDocument {
  private pieces: string[];
  private size: number;
  private lines: number[] | undefined;
  private history: Edit[] = [];
  /** Versions before this one cannot be mapped to the current text (history cut or text replaced). */
  private mappableFrom: number;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    private _version: number,
    text: string,
  ) {
    this.pieces = [text];
    this.size = text.length;
    this.mappableFrom = _version;
  }

  get version(): number {
    return this._version;
  }

  get lineCount(): number {
    return this.lineOffsets().length;
  }

  /** The whole text (pieces joined once, then kept). */
  getText(range?: Range): string {
    if (this.pieces.length !== 1) this.pieces = [this.pieces.join('')];
    const text = this.pieces[0]!;
    return range ? text.slice(this.offsetAt(range.start), this.offsetAt(range.end)) : text;
  }

  /** The text's length in UTF-16 units, without joining it. */
  get length(): number {
    return this.size;
  }

  private lineOffsets(): number[] {
    return (this.lines ??= lineStarts(this.getText(), true));
  }

  offsetAt(position: Position): number {
    const lines = this.lineOffsets();
    if (position.line >= lines.length) return this.size;
    if (position.line < 0) return 0;
    const start = lines[position.line]!;
    if (position.character <= 0) return start;
    const next = position.line + 1 < lines.length ? lines[position.line + 1]! : this.size;
    return this.beforeEol(Math.min(start + position.character, next), start);
  }

  /** A position never points between a line's end-of-line characters or past them. */
  private beforeEol(offset: number, lineStart: number): number {
    let at = offset;
    while (at > lineStart && (this.charCodeAt(at - 1) === CR || this.charCodeAt(at - 1) === LF)) at--;
    return at;
  }

  positionAt(offset: number): Position {
    const at = Math.max(Math.min(offset, this.size), 0);
    const lines = this.lineOffsets();
    let low = 0;
    let high = lines.length;
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      if (lines[mid]! > at) high = mid;
      else low = mid + 1;
    }
    const line = low - 1;
    return { line, character: this.beforeEol(at, lines[line]!) - lines[line]! };
  }

  /** The character code at `offset` of the current text, read through the pieces. */
  private charCodeAt(offset: number): number {
    if (offset < 0 || offset >= this.size) return NaN;
    let at = offset;
    for (const p of this.pieces) {
      if (at < p.length) return p.charCodeAt(at);
      at -= p.length;
    }
    return NaN;
  }

  /** Replaces [start, end) of the pieces by `text`. */
  private splice(start: number, end: number, text: string): void {
    const out: string[] = [];
    let pos = 0;
    let placed = false;
    for (const p of this.pieces) {
      const from = pos;
      const to = pos + p.length;
      pos = to;
      if (to <= start || from >= end) {
        if (from >= end && !placed) {
          if (text) out.push(text);
          placed = true;
        }
        if (p.length) out.push(p);
        continue;
      }
      if (from < start) out.push(p.slice(0, start - from));
      if (!placed) {
        if (text) out.push(text);
        placed = true;
      }
      if (to > end) out.push(p.slice(end - from));
    }
    if (!placed && text) out.push(text);
    this.pieces = out.length ? out : [''];
    this.size += text.length - (end - start);
    if (this.pieces.length > MAX_PIECES) this.pieces = [this.pieces.join('')];
  }

  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      if (!('range' in change) || change.range === undefined) {
        this.pieces = [change.text];
        this.size = change.text.length;
        this.lines = undefined;
        this.history = [];
        this.mappableFrom = version;
        continue;
      }
      let { start, end } = change.range;
      if (start.line > end.line || (start.line === end.line && start.character > end.character))
        [start, end] = [end, start];
      const startOffset = this.offsetAt(start);
      const endOffset = this.offsetAt(end);
      // Positions are resolved before the text changes (they refer to the text before the change).
      const startLine = Math.max(Math.min(start.line, this.lineOffsets().length - 1), 0);
      const endLine = Math.max(Math.min(end.line, this.lineOffsets().length - 1), 0);
      this.splice(startOffset, endOffset, change.text);
      this.history.push({
        offset: startOffset,
        removed: endOffset - startOffset,
        inserted: change.text.length,
        version,
      });
      if (this.history.length > MAX_HISTORY) {
        const dropped = this.history.splice(0, this.history.length - MAX_HISTORY);
        this.mappableFrom = dropped[dropped.length - 1]!.version;
      }
      const insertedEnd = startOffset + change.text.length;
      // A \r\n pair split or joined at either edge of the change: the line starts are counted again when next needed.
      if (
        (this.charCodeAt(startOffset - 1) === CR && this.charCodeAt(startOffset) === LF) ||
        (this.charCodeAt(insertedEnd - 1) === CR && this.charCodeAt(insertedEnd) === LF)
      ) {
        this.lines = undefined;
        continue;
      }
      const lines = this.lines;
      if (!lines) continue;
      const added = lineStarts(change.text, false, startOffset);
      const after = lines.slice(endLine + 1);
      const diff = change.text.length - (endOffset - startOffset);
      lines.length = startLine + 1;
      for (const a of added) lines.push(a);
      for (const a of after) lines.push(a + diff);
    }
    this._version = version;
  }

  /**
   * The offset in the text of `version` that `offset` of the current text came from, or null when it
   * lies in text typed since (or that version is too old to map).
   */
  offsetIn(version: number, offset: number): number | null {
    if (version === this._version) return offset;
    if (version < this.mappableFrom) return null;
    let at = offset;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const e = this.history[i]!;
      if (e.version <= version) break;
      if (at < e.offset) continue;
      if (at < e.offset + e.inserted) return null;
      at = at - e.inserted + e.removed;
    }
    return at;
  }
}
