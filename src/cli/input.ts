import type { CatalinaBase } from '../model/index.js';
import { InputError, loadInput } from '../lint/inputs.js';
import { UsageError } from './command.js';

/** Loads a base, webapp or file given on the command line; a path that is not one is the user's mistake (exit 2). */
export function readInput(path: string): CatalinaBase {
  let base: CatalinaBase;
  try {
    base = loadInput(path);
  } catch (e) {
    if (e instanceof InputError) throw new UsageError(e.message);
    throw e;
  }
  const unreadable = base.diagnostics.find((d) => d.ruleId === 'base-unreadable');
  if (unreadable) throw new UsageError(unreadable.message);
  return base;
}
