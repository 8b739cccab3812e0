/**
 * A range of source text. Lines and columns are 1-based; columns count UTF-16
 * code units (what editors, ESLint and SARIF use). The end is exclusive: for a
 * one-character token at column 5, `endColumn` is 6. `offset`/`endOffset` index
 * the decoded text of the file (see `SourceFile.text`), so fixes can rewrite
 * exactly the characters a span covers.
 */
export interface Span {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  offset: number;
  endOffset: number;
}

/** A value read from a file together with where it was read. */
export interface Located<T> {
  value: T;
  span: Span;
}

/** A file tollgate has read, kept so diagnostics can show a code frame and fixes can rewrite it. */
export interface SourceFile {
  /** Absolute path. */
  path: string;
  /** The decoded text (BOM removed). */
  text: string;
  /** The encoding the bytes were decoded with, as a WHATWG label ("utf-8", "windows-1252", ...). */
  encoding: string;
  /** Whether the file started with a byte order mark. */
  bom: boolean;
  /** XML comments with their spans (suppression comments live there). */
  comments?: Located<string>[];
}

/** A span that covers the start of a file, for problems that have no better place. */
export function fileStartSpan(file: string): Span {
  return { file, line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, endOffset: 0 };
}
