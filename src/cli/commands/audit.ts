import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { BENCHMARKS, type BenchmarkId } from '../../audit/catalogue.js';
import { formatAuditHtml, formatAuditJson, formatAuditText, type AuditFormatInput } from '../../audit/format.js';
import { auditBase, releaseOf, unreadable } from '../../audit/report.js';
import type { TomcatTarget } from '../../filters/index.js';
import { ConfigError, loadConfig, type Accounts, type AuditFacts } from '../../lint/config.js';
import { ruleById } from '../../lint/rules/index.js';
import { UsageError, type Command, type Io } from '../command.js';
import { readInput } from '../input.js';
import { choiceOption, targetOption } from '../options.js';

const FORMATS = { text: formatAuditText, json: formatAuditJson, html: formatAuditHtml } as const;

async function run(argv: Record<string, unknown>, io: Io): Promise<number> {
  const benchmark = argv['benchmark'] as BenchmarkId | undefined;
  if (!benchmark || !BENCHMARKS.includes(benchmark))
    throw new UsageError(`name the benchmark: --benchmark ${BENCHMARKS.join('|')}`);
  const target = String(argv['base'] ?? '.');
  const home = typeof argv['home'] === 'string' ? resolve(io.cwd, argv['home']) : undefined;
  const base = readInput(resolve(io.cwd, target), home);
  // Only the account names and the audit section (site facts, waivers) are read from
  // tollgate.config.json: the audit's rule set is the benchmark's.
  let accounts: Accounts | undefined;
  let facts: AuditFacts | undefined;
  let configPath: string | null = null;
  try {
    const loaded = loadConfig(io.cwd, (id) => ruleById(id) !== undefined);
    accounts = loaded.config.accounts;
    facts = loaded.config.audit;
    configPath = loaded.path;
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  const version = typeof argv['benchmarkVersion'] === 'string' ? argv['benchmarkVersion'] : undefined;
  try {
    releaseOf(benchmark, version);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const audit = auditBase(base, benchmark, {
    target: argv['target'] as TomcatTarget,
    inlineConfig: argv['inlineConfig'] !== false,
    ...(accounts ? { accounts } : {}),
    ...(facts ? { facts } : {}),
    configPath,
    letter: argv['letter'] === true,
    ...(version ? { version } : {}),
    label: target,
  });
  // A file Tomcat cannot read either would let every control about it pass unseen.
  const fatal = unreadable(audit.lint);
  if (fatal.length > 0) {
    const where = fatal.map((d) => `${d.span.file}:${d.span.line}:${d.span.column}: ${d.message}`).join('\n  ');
    throw new UsageError(`cannot audit a configuration Tomcat cannot read:\n  ${where}`);
  }
  const input: AuditFormatInput = { audit, cwd: io.cwd, target, version: audit.tool.version, date: audit.date };
  io.stdout(FORMATS[argv['format'] as keyof typeof FORMATS](input));
  return audit.results.some((r) => r.status === 'fail') ? 1 : 0;
}

export const auditCommand: Command = {
  builder: (y: Argv) =>
    y
      .positional('base', { type: 'string', describe: 'CATALINA_BASE to audit (default: .)' })
      .option(
        'benchmark',
        choiceOption('benchmark', BENCHMARKS, 'The benchmark to report against', { demandOption: true }),
      )
      .option(
        'format',
        choiceOption('format', Object.keys(FORMATS), 'text (one line per control), json, or html (a page to keep)', {
          alias: 'f',
          default: 'text',
        }),
      )
      .option('home', {
        type: 'string',
        describe: 'CATALINA_HOME, for the controls about its files (default: the base)',
      })
      .option('benchmark-version', {
        type: 'string',
        describe:
          'The benchmark release to audit against, for a site bound to an older one (stig-tomcat: 3.4, 2.1; cis-tomcat-10.1: 1.1.0, 1.0.0; default: the newest)',
      })
      .option('letter', {
        type: 'boolean',
        default: false,
        describe: "Judge by the letter of the check text: a setting it asks for that is left to Tomcat's default fails",
      })
      .option('target', targetOption(true))
      .option('inline-config', {
        type: 'boolean',
        default: true,
        describe: 'Honour tollgate-disable comments as accepted deviations (--no-inline-config ignores them)',
      }),
  run,
};
