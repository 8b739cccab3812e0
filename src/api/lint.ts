/**
 * `tollgate/lint`: what `tollgate lint` does, as functions. Lint bases, web applications or single
 * files, get the findings, format them as the CLI does. The CLI's lint command is a thin shell over this.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import picomatch from 'picomatch';
import type { TomcatTarget } from '../filters/index.js';
import { applyBaseline, BaselineError, writeBaseline as writeBaselineFile } from '../lint/baseline.js';
import { ConfigError, loadConfig, type Profile, type RuleLevel } from '../lint/config.js';
import { toolVersion } from '../lint/docs.js';
import { lintBase } from '../lint/engine.js';
import { applyFixes } from '../lint/fix.js';
import type { FormatInput } from '../lint/formatters/common.js';
import { formatGithub } from '../lint/formatters/github.js';
import { formatJson } from '../lint/formatters/json.js';
import { formatSarif } from '../lint/formatters/sarif.js';
import { formatStylish } from '../lint/formatters/stylish.js';
import { InputError, isBaseInput, loadInput } from '../lint/inputs.js';
import { autoThreads, lintBaseInParallel } from '../lint/parallel.js';
import { RULES, ruleById } from '../lint/rules/index.js';
import type { SuppressedDiagnostic } from '../lint/suppressions.js';
import type { RuleMeta } from '../lint/types.js';
import type { CatalinaBase, Diagnostic, SourceFile } from '../model/index.js';
import { TollgateInputError } from './errors.js';

export { TollgateInputError };
export type { CatalinaBase, Diagnostic, SourceFile, Span, Severity } from '../model/index.js';
export type { SuppressedDiagnostic, Profile, RuleLevel, RuleMeta, TomcatTarget };
export { PROFILES, RULE_LEVELS } from '../lint/config.js';

const FORMATTERS = { stylish: formatStylish, json: formatJson, sarif: formatSarif, github: formatGithub } as const;

/** The output formats: `stylish` (code frames), `json` (ESLint's), `sarif` (2.1.0), `github` (annotations). */
export type Format = keyof typeof FORMATTERS;
export const FORMATS = Object.keys(FORMATTERS) as readonly Format[];

export interface LintOptions {
  /** Resolves relative paths; tollgate.config.json is looked for upward from here. Default: process.cwd(). */
  cwd?: string;
  /** Read tollgate.config.json (its rules, ignore globs, target, profile). Default true. */
  config?: boolean;
  /** The Tomcat version (default: the config file's, else 10.1). */
  target?: TomcatTarget;
  /** The rule set (default: the config file's, else recommended). */
  profile?: Profile;
  /** Rule levels over the config file's, as `--rule id:level` gives them. */
  rules?: Record<string, RuleLevel>;
  /** Honour tollgate-disable comments (default true). */
  inlineConfig?: boolean;
  /** Apply the safe fixes to the files, then lint again (as `--fix`). */
  fix?: boolean;
  /** Drop the findings recorded in this baseline file (as `--baseline`). */
  baseline?: string;
  /** Worker threads for a large CATALINA_BASE: 'auto' (default), or a count (1 = none). The findings are the same. */
  workers?: number | 'auto';
  /**
   * Follow symbolic links and read configuration values that lead outside the base (as `--follow-symlinks`).
   * Unsafe on untrusted input: a committed link to a secret would be read and printed. Default false.
   */
  followSymlinks?: boolean;
}

export interface LintReport {
  /** Every finding, sorted by file and position; a finding two inputs share is listed once. */
  diagnostics: Diagnostic[];
  /** Findings silenced by suppression comments, with their reasons. */
  suppressed: SuppressedDiagnostic[];
  /** The text of every file read, by absolute path (for code frames and fixes). */
  files: Map<string, SourceFile>;
  /** The files linted, clean ones included (ignore globs applied). */
  lintedFiles: string[];
  errorCount: number;
  warningCount: number;
  infoCount: number;
  /** Files `fix` did not rewrite because their encoding cannot be rewritten safely. */
  notFixed: string[];
  /** The directory paths were resolved against. */
  cwd: string;
}

/** Every rule's metadata (id, description, default severity, category, profiles), in registry order. */
export function rules(): RuleMeta[] {
  return RULES.map((r) => r.meta);
}

/**
 * Reads what `tollgate lint PATH` reads: a CATALINA_BASE (it has conf/ or webapps/), a web
 * application (it has WEB-INF/web.xml), a single configuration file or a tollgate.chain.json.
 */
export function loadLintInput(path: string, home?: string, opts: { followSymlinks?: boolean } = {}): CatalinaBase {
  let base: CatalinaBase;
  try {
    base = loadInput(path, { ...(home ? { home } : {}), ...(opts.followSymlinks ? { followSymlinks: true } : {}) });
  } catch (e) {
    if (e instanceof InputError) throw new TollgateInputError(e.message);
    throw e;
  }
  const unreadable = base.diagnostics.find((d) => d.ruleId === 'base-unreadable');
  if (unreadable) throw new TollgateInputError(unreadable.message);
  return base;
}

interface Collected {
  diagnostics: Diagnostic[];
  suppressed: SuppressedDiagnostic[];
  files: Map<string, SourceFile>;
  lintedFiles: string[];
}

/** Lints `paths` (default: the current directory). Throws TollgateInputError for a path or file it cannot use. */
export async function lint(paths: string | readonly string[] = [], options: LintOptions = {}): Promise<LintReport> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const inputs = typeof paths === 'string' ? [paths] : paths.length ? paths : ['.'];
  let config: ReturnType<typeof loadConfig> = { path: null, config: {} };
  if (options.config !== false) {
    try {
      config = loadConfig(cwd, (id) => ruleById(id) !== undefined);
    } catch (e) {
      if (e instanceof ConfigError) throw new TollgateInputError(e.message);
      throw e;
    }
  }
  const ignore = config.config.ignore?.length ? picomatch(config.config.ignore, { dot: true }) : null;
  const configDir = config.path ? dirname(config.path) : cwd;
  const includeFile = ignore ? (file: string) => !ignore(relative(configDir, file)) : undefined;
  const engineOptions = {
    target: options.target ?? config.config.target ?? '10.1',
    profile: options.profile ?? config.config.profile ?? 'recommended',
    ruleLevels: { ...(config.config.rules ?? {}), ...(options.rules ?? {}) },
    inlineConfig: options.inlineConfig !== false,
    ...(config.config.accounts ? { accounts: config.config.accounts } : {}),
    ...(includeFile ? { includeFile } : {}),
  };
  const workers = options.workers ?? 'auto';
  // Fixes and baselines need every file's source, which worker threads do not send back.
  // Worker threads read the base with the default scope: --follow-symlinks lints on this thread.
  const mayUseWorkers = !options.fix && options.baseline === undefined && options.followSymlinks !== true;

  const lintAll = async (): Promise<Collected> => {
    const out: Collected = { diagnostics: [], suppressed: [], files: new Map(), lintedFiles: [] };
    const linted = new Set<string>();
    const seen = new Set<string>();
    // Inputs may overlap (a base and one of its apps): a finding at the same place is reported once.
    const first = (d: Diagnostic): boolean => {
      const key = `${d.ruleId}\0${d.span.file}\0${d.span.offset}\0${d.span.endOffset}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    };
    for (const input of inputs) {
      const path = resolve(cwd, input);
      const threads = !mayUseWorkers || !isBaseInput(path) ? 1 : workers === 'auto' ? autoThreads(path) : workers;
      // null when the split could change the output: then the base is linted on this thread.
      const parallel = threads > 1 ? await lintBaseInParallel(path, engineOptions, threads) : null;
      const result =
        parallel ??
        lintBase(loadLintInput(path, undefined, options.followSymlinks ? { followSymlinks: true } : {}), engineOptions);
      for (const d of result.diagnostics) if (first(d)) out.diagnostics.push(d);
      for (const x of result.suppressed) if (first(x.diagnostic)) out.suppressed.push(x);
      for (const [k, v] of result.files) out.files.set(k, v);
      for (const f of parallel ? parallel.lintedFiles : result.files.keys()) linted.add(f);
    }
    out.lintedFiles = [...linted].filter((f) => !includeFile || includeFile(f));
    return out;
  };

  let collected = await lintAll();
  const notFixed = new Set<string>();
  if (options.fix) {
    // Overlapping edits wait for the next pass, as in ESLint; ten passes end any ping-pong between fixes.
    for (let pass = 0; pass < 10; pass++) {
      const r = applyFixes(collected.diagnostics, collected.files);
      for (const f of r.skipped) notFixed.add(f);
      if (r.fixed === 0) break;
      collected = await lintAll();
    }
  }
  let diagnostics = collected.diagnostics;
  if (options.baseline !== undefined) {
    try {
      diagnostics = applyBaseline(resolve(cwd, options.baseline), diagnostics, collected.files);
    } catch (e) {
      if (e instanceof BaselineError) throw new TollgateInputError(e.message);
      throw e;
    }
  }
  return {
    ...collected,
    diagnostics,
    errorCount: diagnostics.filter((d) => d.severity === 'error').length,
    warningCount: diagnostics.filter((d) => d.severity === 'warning').length,
    infoCount: diagnostics.filter((d) => d.severity === 'info').length,
    notFixed: [...notFixed],
    cwd,
  };
}

export interface FormatOptions {
  /** Errors only (as `--quiet`). */
  quiet?: boolean;
  /** ANSI colours in `stylish` (default false). */
  color?: boolean;
  /** Root of SARIF's repository-relative paths (default: the nearest directory above report.cwd with .git, else report.cwd). */
  repoRoot?: string;
}

/** The repository root (the nearest directory with .git), for SARIF's repository-relative paths; else cwd. */
function repoRootOf(cwd: string): string {
  let dir = cwd;
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return cwd;
    dir = parent;
  }
}

/** The report as text in one of FORMATS, exactly as `tollgate lint --format` prints it. */
export function formatReport(report: LintReport, format: Format = 'stylish', options: FormatOptions = {}): string {
  const formatter = FORMATTERS[format];
  if (!formatter) throw new TollgateInputError(`no format "${String(format)}": use ${FORMATS.join(', ')}`);
  const errorsOnly = (d: Diagnostic): boolean => !options.quiet || d.severity === 'error';
  const input: FormatInput = {
    diagnostics: report.diagnostics.filter(errorsOnly),
    suppressed: report.suppressed.filter((s) => errorsOnly(s.diagnostic)),
    files: report.files,
    lintedFiles: report.lintedFiles,
    cwd: report.cwd,
    repoRoot: options.repoRoot ?? repoRootOf(report.cwd),
    color: options.color === true,
    version: toolVersion(),
  };
  return formatter(input);
}

/** Records the report's findings in a baseline file (as `--baseline-write`); returns how many. */
export function writeBaseline(report: LintReport, file: string): number {
  return writeBaselineFile(resolve(report.cwd, file), report.diagnostics, report.files);
}
