import type { CatalinaBase } from '../model/index.js';
import { loadLintInput, TollgateInputError } from '../api/lint.js';
import { UsageError } from './command.js';

/** Loads a base, webapp or file given on the command line; a path that is not one is the user's mistake (exit 2). */
export function readInput(path: string, home?: string, opts: { followSymlinks?: boolean } = {}): CatalinaBase {
  try {
    return loadLintInput(path, home, opts);
  } catch (e) {
    if (e instanceof TollgateInputError) throw new UsageError(e.message);
    throw e;
  }
}
