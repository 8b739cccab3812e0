/**
 * `tollgate/compile`: what `tollgate compile` does, as functions. Each context of a CATALINA_BASE
 * (or of a tollgate.chain.json) becomes an ES module whose default export is a Connect-style
 * middleware running its chain on `tollgate/runtime`. The CLI's compile command is a thin shell over this.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { compileBase, type CompiledModule, type CompileResult as ModulesResult } from '../compile/index.js';
import type { TomcatTarget } from '../filters/index.js';
import { lintBase } from '../lint/engine.js';
import type { CatalinaBase, Diagnostic } from '../model/index.js';
import { loadBase, parseChainJson } from '../parser/index.js';
import { TollgateInputError } from './errors.js';

export { TollgateInputError };
export type { CompiledModule, TomcatTarget };
export type { CatalinaBase, Diagnostic };
export type { Plan, SkippedContext } from '../plan/index.js';

export interface CompileOptions {
  /** The Tomcat version the configuration runs on (default 10.1). */
  target?: TomcatTarget;
  /** Resolves a relative input path (default process.cwd()). */
  cwd?: string;
}

export interface CompileResult extends ModulesResult {
  /** What was compiled: its files (for code frames of the diagnostics) and hosts. */
  base: CatalinaBase;
  /**
   * Lint's errors for the base. They do not stop a module (whether a context gets one is what
   * Tomcat would start, see `skipped`); `tollgate compile --strict` writes nothing when there are any.
   */
  lintErrors: Diagnostic[];
}

/**
 * Reads a CATALINA_BASE directory or a tollgate.chain.json (`input` relative to `cwd`, default
 * process.cwd()); throws TollgateInputError when it is neither.
 */
export function loadCompileInput(input: string, cwd = process.cwd()): CatalinaBase {
  const path = resolve(cwd, input);
  if (!existsSync(path)) throw new TollgateInputError(`${input}: no such file or directory`);
  const base = statSync(path).isFile()
    ? parseChainJson(readFileSync(path, 'utf8'), path).base
    : loadBase({ base: path });
  const unreadable = base.diagnostics.find((d) => d.ruleId === 'base-unreadable');
  if (unreadable) throw new TollgateInputError(unreadable.message);
  return base;
}

/**
 * One module per context Tomcat starts. A context Tomcat refuses (or Node cannot run) gets no
 * module: it is in `skipped`, with why and where. Same input, same bytes.
 */
export function compile(input: string | CatalinaBase, options: CompileOptions = {}): CompileResult {
  const base = typeof input === 'string' ? loadCompileInput(input, options.cwd) : input;
  const target = options.target ?? '10.1';
  const lintErrors = lintBase(base, { target }).diagnostics.filter((d) => d.severity === 'error');
  return { ...compileBase(base, { target }), base, lintErrors };
}

/** Writes each module and its declarations (`<host>/<context>.mjs` and `.d.mts`) under `outDir`; returns the .mjs paths. */
export function writeModules(modules: readonly CompiledModule[], outDir: string): string[] {
  return modules.map((m) => {
    const file = join(resolve(outDir), m.fileName);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, m.code);
    writeFileSync(file.replace(/\.mjs$/, '.d.mts'), m.dts);
    return file;
  });
}
