/**
 * Where tollgate may read a user's files, and how much (the file-access layer, src/parser/files.ts,
 * is the one place that opens them). Plain data so a loaded base carries it to every reader.
 */
export interface FileScope {
  /** The real paths of the folders the user named (the base, --home): only files whose real path lies inside one are read. */
  roots: readonly string[];
  /** `--follow-symlinks`: read any path a link or a configuration value names (never /proc, /sys, /dev). Unsafe on untrusted input. */
  followSymlinks: boolean;
  /** The largest file read at all. */
  maxFileBytes: number;
  /** The largest archive (jar, war) whose central directory is read. */
  maxArchiveBytes: number;
  /** The most bytes one run reads and inflates in total. */
  maxTotalBytes: number;
  /** How long one file's read may take before it is abandoned (a stalled filesystem), in milliseconds. */
  deadlineMs: number;
  /** Bytes read and inflated so far in this run (counts against maxTotalBytes). */
  used: { bytes: number };
}
