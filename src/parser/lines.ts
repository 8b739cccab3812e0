import type { Span } from '../model/index.js';

/** Offsets where each line of `text` starts; a line ends at LF, CR LF or a lone CR, as XML counts them. */
export function lineStarts(text: string): number[] {
  // Gathered in a reused array and copied out at their exact number: a new array grown by push
  // was reallocated four times for a 90-line descriptor (2 KB of garbage per file).
  const starts = SCRATCH.slice(0, fillLineStarts(text, SCRATCH));
  // After a file of very many lines, let its table go rather than keep it for the life of the process.
  if (SCRATCH.length > KEPT_TABLE) SCRATCH.length = 1;
  return starts;
}

/** Writes the line starts of `text` into `starts` (from index 1; [0] is always 0) and returns how many there are. */
function fillLineStarts(text: string, starts: number[]): number {
  let n = 1;
  if (text.includes('\r')) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts[n++] = i + 1;
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts[n++] = i + 1;
      }
    }
  } else {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts[n++] = i + 1;
  }
  return n;
}

/** lineStarts' work array, never shrunk (V8 drops an array's storage when its length is set to 0); [0] is always 0. */
const SCRATCH: number[] = [0];

/** The table of LineIndex.transient: one at a time, reused. */
const TRANSIENT: number[] = [0];

/** The most entries a reused table keeps between files (512 KB). */
const KEPT_TABLE = 65_536;

/**
 * Maps offsets of a decoded text to 1-based line/column (UTF-16 units).
 * Built once per file; lookups are a binary search, so spans cost O(log lines).
 */
export class LineIndex {
  private readonly starts: number[];
  /** How many entries of `starts` are lines (the transient table is longer). */
  private readonly count: number;
  /** The line of the last lookup: parsers ask in increasing order, so the answer is usually here or next. */
  private hint = 0;

  constructor(
    readonly file: string,
    text: string,
    table?: number[],
  ) {
    if (table) {
      this.starts = table;
      this.count = fillLineStarts(text, table);
    } else {
      this.starts = lineStarts(text);
      this.count = this.starts.length;
    }
  }

  /**
   * An index over a table shared by every transient index, valid until the next one is made: for
   * a parse that works out every span it keeps before it returns (the direct web.xml path), so a
   * file's table is not copied out only to be dropped.
   */
  static transient(file: string, text: string): LineIndex {
    // No more lines than characters: the shared table stays within KEPT_TABLE + 1 entries.
    return text.length <= KEPT_TABLE ? new LineIndex(file, text, TRANSIENT) : new LineIndex(file, text);
  }

  /** 1-based line of an offset. */
  lineOf(offset: number): number {
    const s = this.starts;
    const n = this.count;
    const h = this.hint;
    if (s[h]! <= offset) {
      if (h + 1 >= n || offset < s[h + 1]!) return h + 1;
      if (h + 2 >= n || offset < s[h + 2]!) return (this.hint = h + 1) + 1;
    }
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    this.hint = lo;
    return lo + 1;
  }

  /** The span of [offset, endOffset) in this file. */
  span(offset: number, endOffset: number): Span {
    const line = this.lineOf(offset);
    const endLine = endOffset === offset ? line : this.lineOf(endOffset);
    return {
      file: this.file,
      line,
      column: offset - this.starts[line - 1]! + 1,
      endLine,
      endColumn: endOffset - this.starts[endLine - 1]! + 1,
      offset,
      endOffset,
    };
  }
}
