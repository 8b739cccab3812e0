import { relative } from 'node:path';
import type { Argv } from 'yargs';
import { FORMATS, formatReport, lint, TollgateInputError, writeBaseline, type Format } from '../../api/lint.js';
import { PROFILES, type Profile, type RuleLevel } from '../../lint/config.js';
import { ruleById } from '../../lint/rules/index.js';
import type { TomcatTarget } from '../../filters/index.js';
import { UsageError, type Command, type Io } from '../command.js';
import { choiceOption, followSymlinksOption, integerOption, single, stringOption, targetOption } from '../options.js';

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
  const format = argv['format'] as Format;
  const baselineWrite = argv['baselineWrite'] as string | undefined;
  let report;
  try {
    report = await lint((argv['paths'] as string[] | undefined) ?? [], {
      cwd: io.cwd,
      ...(argv['target'] !== undefined ? { target: argv['target'] as TomcatTarget } : {}),
      ...(argv['profile'] !== undefined ? { profile: argv['profile'] as Profile } : {}),
      ...(argv['rule'] !== undefined ? { rules: argv['rule'] as Record<string, RuleLevel> } : {}),
      inlineConfig: argv['inlineConfig'] !== false,
      fix: argv['fix'] === true,
      ...(argv['baseline'] !== undefined ? { baseline: argv['baseline'] as string } : {}),
      // A baseline records every file's lines, which worker threads do not send back.
      workers: baselineWrite !== undefined ? 1 : (argv['workers'] as number | 'auto'),
      ...(argv['followSymlinks'] === true ? { followSymlinks: true } : {}),
    });
    if (baselineWrite !== undefined) {
      const n = writeBaseline(report, baselineWrite);
      io.stdout(`tollgate lint: wrote ${n} finding${n === 1 ? '' : 's'} to ${baselineWrite}\n`);
      return 0;
    }
  } catch (e) {
    if (e instanceof TollgateInputError) throw new UsageError(e.message);
    throw e;
  }
  for (const f of report.notFixed)
    io.stderr(`tollgate lint: not fixing ${relative(io.cwd, f)}: its encoding cannot be rewritten safely\n`);
  const color =
    argv['color'] === true ||
    (argv['color'] !== false && format === 'stylish' && process.stdout.isTTY === true && !process.env['NO_COLOR']);
  io.stdout(formatReport(report, format, { quiet: argv['quiet'] === true, color }));
  const maxWarnings = argv['maxWarnings'] as number | undefined;
  if (report.errorCount > 0) return 1;
  if (maxWarnings !== undefined && report.warningCount > maxWarnings) {
    io.stderr(`tollgate lint: ${report.warningCount} warnings, more than --max-warnings ${maxWarnings}\n`);
    return 1;
  }
  return 0;
}

export const lintCommand: Command = {
  builder: (y: Argv) =>
    y
      .positional('paths', {
        type: 'string',
        array: true,
        describe: 'CATALINA_BASE, webapp directory or files (default: .)',
      })
      .option('format', choiceOption('format', FORMATS, 'Output format', { alias: 'f', default: 'stylish' }))
      .option(
        'max-warnings',
        integerOption('max-warnings', 0, 1_000_000_000, 'Fail (exit 1) when there are more warnings than this'),
      )
      .option('quiet', { type: 'boolean', default: false, describe: 'Report errors only' })
      .option('rule', {
        type: 'string',
        array: true,
        requiresArg: true,
        coerce: parseRuleOptions,
        describe: 'Set a rule level: <id>:off|info|warn|error (repeatable)',
      })
      .option('target', targetOption(false))
      .option(
        'profile',
        choiceOption(
          'profile',
          PROFILES,
          "Rule set: recommended (default), cis or stig (adds the benchmark's hardening rules)",
        ),
      )
      .option('inline-config', {
        type: 'boolean',
        default: true,
        describe: 'Honour tollgate-disable comments (--no-inline-config ignores them)',
      })
      .option('color', { type: 'boolean', describe: 'Force colours on or off' })
      .option('follow-symlinks', followSymlinksOption)
      .option('fix', {
        type: 'boolean',
        default: false,
        describe: 'Apply the safe fixes (rewrites only the bytes they cover)',
      })
      .option('baseline', stringOption('baseline', 'Ignore findings recorded in this baseline file'))
      .option('baseline-write', stringOption('baseline-write', 'Record the current findings in this file and exit 0'))
      .conflicts('baseline', 'baseline-write')
      .option('workers', {
        type: 'string',
        default: 'auto',
        requiresArg: true,
        coerce: parseWorkers,
        describe: 'Worker threads for a large base: auto, 0 (none) or a thread count; the output is the same',
      }),
  run,
};
