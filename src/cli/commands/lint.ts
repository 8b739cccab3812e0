import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import picomatch from 'picomatch';
import type { Argv } from 'yargs';
import type { Diagnostic, SourceFile } from '../../model/index.js';
import { ConfigError, loadConfig, PROFILES, type Profile, type RuleLevel } from '../../lint/config.js';
import { toolVersion } from '../../lint/docs.js';
import { applyBaseline, BaselineError, writeBaseline } from '../../lint/baseline.js';
import { lintBase } from '../../lint/engine.js';
import type { SuppressedDiagnostic } from '../../lint/suppressions.js';
import { applyFixes } from '../../lint/fix.js';
import { formatGithub } from '../../lint/formatters/github.js';
import { formatJson } from '../../lint/formatters/json.js';
import { formatSarif } from '../../lint/formatters/sarif.js';
import { formatStylish } from '../../lint/formatters/stylish.js';
import type { FormatInput } from '../../lint/formatters/common.js';
import { isBaseInput } from '../../lint/inputs.js';
import { readInput } from '../input.js';
import { autoThreads, lintBaseInParallel } from '../../lint/parallel.js';
import { ruleById } from '../../lint/rules/index.js';
import type { TomcatTarget } from '../../filters/index.js';
import { UsageError, type Command, type Io } from '../command.js';
import { choiceOption, integerOption, single, stringOption, targetOption } from '../options.js';

const FORMATTERS = { stylish: formatStylish, json: formatJson, sarif: formatSarif, github: formatGithub } as const;

/** The repository root (the nearest directory with .git), for SARIF's repository-relative paths; else cwd. */
function repoRootOf(cwd: string): string {
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(cwd);
    dir = parent;
  }
}

// The two coerces below run while yargs parses, so a bad value stops lint before it reads a file.
function parseWorkers(value: unknown): number | 'auto' {
  const v = single('workers', value);
  if (v === 'auto') return 'auto';
  if (!/^\d{1,6}$/.test(v)) throw new Error(`--workers "${v}": write auto, 0 or a number of threads`);
  return Math.max(1, Math.min(16, Number(v)));
}

function parseRuleOptions(values: unknown): Record<string, RuleLevel> {
  const out: Record<string, RuleLevel> = {};
  for (const v of (Array.isArray(values) ? values : [values]).map(String)) {
    const m = /^([a-z0-9-]+):(off|info|warn|error)$/.exec(v.trim());
    if (!m) throw new Error(`--rule "${v}": write <rule-id>:off|info|warn|error`);
    if (!ruleById(m[1]!)) throw new Error(`--rule "${v}": there is no rule "${m[1]}"`);
    out[m[1]!] = m[2] as RuleLevel;
  }
  return out;
}

async function run(argv: Record<string, unknown>, io: Io): Promise<number> {
  const format = String(argv['format']) as keyof typeof FORMATTERS;
  let config;
  try {
    config = loadConfig(io.cwd, (id) => ruleById(id) !== undefined);
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  const ruleLevels = { ...(config.config.rules ?? {}), ...(argv['rule'] as Record<string, RuleLevel> | undefined) };
  const target = (argv['target'] as TomcatTarget | undefined) ?? config.config.target ?? '10.1';
  const profile = (argv['profile'] as Profile | undefined) ?? config.config.profile ?? 'recommended';
  const ignore = config.config.ignore?.length ? picomatch(config.config.ignore, { dot: true }) : null;
  const configDir = config.path ? dirname(config.path) : io.cwd;
  const includeFile = ignore ? (file: string) => !ignore(relative(configDir, file)) : undefined;

  const paths = ((argv['paths'] as string[] | undefined) ?? []).map(String);
  const inputs = paths.length ? paths : ['.'];
  const workers = argv['workers'] as number | 'auto';
  // --fix and baselines need every file's source, which worker threads do not send back.
  const mayUseWorkers = !argv['fix'] && argv['baseline'] === undefined && argv['baselineWrite'] === undefined;
  const lintAll = async (): Promise<{ diagnostics: Diagnostic[]; files: Map<string, SourceFile>; suppressed: SuppressedDiagnostic[]; lintedFiles: string[] }> => {
    const diagnostics: Diagnostic[] = [];
    const suppressed: SuppressedDiagnostic[] = [];
    const files = new Map<string, SourceFile>();
    const lintedFiles = new Set<string>();
    const seen = new Set<string>();
    const first = (d: Diagnostic): boolean => {
      const key = `${d.ruleId}\0${d.span.file}\0${d.span.offset}\0${d.span.endOffset}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    };
    const lintOptions = { target, profile, ruleLevels, inlineConfig: argv['inlineConfig'] !== false, ...(includeFile ? { includeFile } : {}) };
    for (const input of inputs) {
      const path = resolve(io.cwd, input);
      const threads = !mayUseWorkers || !isBaseInput(path) ? 1 : workers === 'auto' ? autoThreads(path) : workers;
      const parallel = threads > 1 ? await lintBaseInParallel(path, lintOptions, threads) : null;
      if (parallel) {
        for (const d of parallel.diagnostics) if (first(d)) diagnostics.push(d);
        for (const x of parallel.suppressed) if (first(x.diagnostic)) suppressed.push(x);
        for (const [k, v] of parallel.files) files.set(k, v);
        for (const f of parallel.lintedFiles) lintedFiles.add(f);
        continue;
      }
      const result = lintBase(readInput(resolve(io.cwd, input)), lintOptions);
      // Inputs may overlap (a base and one of its apps): a finding at the same place is reported once.
      for (const d of result.diagnostics) if (first(d)) diagnostics.push(d);
      for (const x of result.suppressed) if (first(x.diagnostic)) suppressed.push(x);
      for (const [k, v] of result.files) {
        files.set(k, v);
        lintedFiles.add(k);
      }
    }
    return { diagnostics, files, suppressed, lintedFiles: [...lintedFiles] };
  };

  let { diagnostics, files, suppressed, lintedFiles } = await lintAll();
  if (argv['fix']) {
    // Overlapping edits wait for the next pass, as in ESLint; ten passes end any ping-pong between fixes.
    const refused = new Set<string>();
    for (let pass = 0; pass < 10; pass++) {
      const r = applyFixes(diagnostics, files);
      for (const f of r.skipped) refused.add(f);
      if (r.fixed === 0) break;
      ({ diagnostics, files, suppressed, lintedFiles } = await lintAll());
    }
    for (const f of refused) io.stderr(`tollgate lint: not fixing ${relative(io.cwd, f)}: its encoding cannot be rewritten safely\n`);
  }
  if (argv['baselineWrite'] !== undefined) {
    const n = writeBaseline(resolve(io.cwd, String(argv['baselineWrite'])), diagnostics, files);
    io.stdout(`tollgate lint: wrote ${n} finding${n === 1 ? '' : 's'} to ${String(argv['baselineWrite'])}\n`);
    return 0;
  }
  if (argv['baseline'] !== undefined) {
    try {
      diagnostics = applyBaseline(resolve(io.cwd, String(argv['baseline'])), diagnostics, files);
    } catch (e) {
      if (e instanceof BaselineError) throw new UsageError(e.message);
      throw e;
    }
  }
  const shown = argv['quiet'] ? diagnostics.filter((d) => d.severity === 'error') : diagnostics;
  const input: FormatInput = {
    diagnostics: shown,
    suppressed: argv['quiet'] ? suppressed.filter((s) => s.diagnostic.severity === 'error') : suppressed,
    files,
    lintedFiles: lintedFiles.filter((f) => !includeFile || includeFile(f)),
    cwd: io.cwd,
    repoRoot: repoRootOf(io.cwd),
    color: argv['color'] === true || (argv['color'] !== false && format === 'stylish' && process.stdout.isTTY === true && !process.env['NO_COLOR']),
    version: toolVersion(),
  };
  io.stdout(FORMATTERS[format](input));
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  const maxWarnings = argv['maxWarnings'] as number | undefined;
  if (errors > 0) return 1;
  if (maxWarnings !== undefined && maxWarnings >= 0 && warnings > maxWarnings) {
    io.stderr(`tollgate lint: ${warnings} warnings, more than --max-warnings ${maxWarnings}\n`);
    return 1;
  }
  return 0;
}

export const lintCommand: Command = {
  name: 'lint [paths..]',
  describe: 'Check a CATALINA_BASE, a web application or single configuration files',
  builder: (y: Argv) =>
    y
      .positional('paths', { type: 'string', array: true, describe: 'CATALINA_BASE, webapp directory or files (default: .)' })
      .option('format', choiceOption('format', Object.keys(FORMATTERS), 'Output format', { alias: 'f', default: 'stylish' }))
      .option('max-warnings', integerOption('max-warnings', 0, 1_000_000_000, 'Fail (exit 1) when there are more warnings than this'))
      .option('quiet', { type: 'boolean', default: false, describe: 'Report errors only' })
      .option('rule', { type: 'string', array: true, requiresArg: true, coerce: parseRuleOptions, describe: 'Set a rule level: <id>:off|info|warn|error (repeatable)' })
      .option('target', targetOption(false))
      .option('profile', choiceOption('profile', PROFILES, 'Rule set: recommended (default), cis or stig (adds the benchmark\'s hardening rules)'))
      .option('inline-config', { type: 'boolean', default: true, describe: 'Honour tollgate-disable comments (--no-inline-config ignores them)' })
      .option('color', { type: 'boolean', describe: 'Force colours on or off' })
      .option('fix', { type: 'boolean', default: false, describe: 'Apply the safe fixes (rewrites only the bytes they cover)' })
      .option('baseline', stringOption('baseline', 'Ignore findings recorded in this baseline file'))
      .option('baseline-write', stringOption('baseline-write', 'Record the current findings in this file and exit 0'))
      .conflicts('baseline', 'baseline-write')
      .option('workers', { type: 'string', default: 'auto', requiresArg: true, coerce: parseWorkers, describe: 'Worker threads for a large base: auto, 0 (none) or a thread count; the output is the same' }),
  run,
};
