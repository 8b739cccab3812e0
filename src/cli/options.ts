/**
 * Option shapes the commands share, each validated by yargs while it parses: a value that fails here
 * stops the command before it reads or writes anything (the `fail` handler of ./index.ts throws).
 */
import type { Options } from 'yargs';
import { TOMCAT_TARGETS } from '../filters/index.js';

/** The one value of an option; given twice (`--out a --out b`) it is refused rather than joined or guessed. */
export function single(name: string, value: unknown): string {
  if (Array.isArray(value)) throw new Error(`--${name} is given ${value.length} times: give it once`);
  return String(value);
}

/** A string argument (a path, a name): `--out` with nothing after it is a mistake, not "". */
export function stringOption(name: string, describe: string, extra: Options = {}): Options {
  return { type: 'string', requiresArg: true, describe, coerce: (v: unknown) => single(name, v), ...extra };
}

/** One of a fixed set of words. `type: 'string'` keeps `10.1` a string (yargs would read it as a number and `11.0` as 11). */
export function choiceOption(name: string, choices: readonly string[], describe: string, extra: Options = {}): Options {
  return {
    type: 'string',
    choices: [...choices],
    requiresArg: true,
    describe,
    coerce: (v: unknown) => single(name, v),
    ...extra,
  };
}

/** `--target`: the Tomcat version the configuration runs on. */
export function targetOption(withDefault: boolean): Options {
  return choiceOption(
    'target',
    TOMCAT_TARGETS,
    'Tomcat version the configuration runs on' + (withDefault ? '' : ' (default: tollgate.config.json, else 10.1)'),
    withDefault ? { default: '10.1' } : {},
  );
}

/** A whole number in [min, max], in decimal digits only (`1e3`, `0x10`, `3.0`, `-1` and `abc` are refused). */
export function integerOption(name: string, min: number, max: number, describe: string): Options {
  return {
    type: 'string',
    requiresArg: true,
    describe,
    coerce: (value: unknown): number => {
      const text = single(name, value);
      const n = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
      if (!(n >= min && n <= max)) throw new Error(`--${name} "${text}": write a whole number from ${min} to ${max}`);
      return n;
    },
  };
}

/** `--follow-symlinks`: read what links and configuration values name outside the base (unsafe on untrusted input). */
export const followSymlinksOption = {
  type: 'boolean' as const,
  default: false,
  describe:
    'Follow symbolic links (and paths in the configuration) that lead outside the base and --home. Unsafe on untrusted input: a committed link to a secret is read and may be printed',
};
