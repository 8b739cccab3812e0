/**
 * The project's shared folder (spec, design notes, the real-world corpus): beside the repository as
 * ../shared, or wherever TOLLGATE_SHARED points. Tests that read the corpus need it and say so plainly.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SHARED_DIR = resolve(process.env.TOLLGATE_SHARED ?? join(import.meta.dirname, '..', '..', 'shared'));

/** The suites that read the shared folder; vitest.config.ts leaves them out, with one line, when it is missing. */
export const NEEDS_SHARED = ['test/parser/corpus.test.ts', 'test/lint/corpus.test.ts', 'test/filters/corpus.test.ts'];

/** A path inside the shared folder; throws a message saying where it was looked for when the folder is missing. */
export function sharedPath(...parts: string[]): string {
  if (!existsSync(SHARED_DIR)) {
    throw new Error(
      `The shared folder (../shared: spec and real-world corpus) is not at ${SHARED_DIR}: clone the repository beside it, or set TOLLGATE_SHARED to its path.`,
    );
  }
  return join(SHARED_DIR, ...parts);
}
