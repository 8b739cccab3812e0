import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { BENCHMARKS, type BenchmarkId } from '../../audit/catalogue.js';
import { formatAuditHtml, formatAuditJson, formatAuditText, type AuditFormatInput } from '../../audit/format.js';
import { auditBase, unreadable } from '../../audit/report.js';
import type { TomcatTarget } from '../../filters/index.js';
import { toolVersion } from '../../lint/docs.js';
import { ConfigError, loadConfig, type Accounts } from '../../lint/config.js';
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
  // Only the account names are read from tollgate.config.json: the audit's rule set is the benchmark's.
  let accounts: Accounts | undefined;
  try {
    accounts = loadConfig(io.cwd, (id) => ruleById(id) !== undefined).config.accounts;
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  const audit = auditBase(base, benchmark, {
    target: argv['target'] as TomcatTarget,
    inlineConfig: argv['inlineConfig'] !== false,
    ...(accounts ? { accounts } : {}),
  });
  // A file Tomcat cannot read either would let every control about it pass unseen.
  const fatal = unreadable(audit.lint);
  if (fatal.length > 0) {
    const where = fatal.map((d) => `${d.span.file}:${d.span.line}:${d.span.column}: ${d.message}`).join('\n  ');
    throw new UsageError(`cannot audit a configuration Tomcat cannot read:\n  ${where}`);
  }
  const input: AuditFormatInput = { audit, cwd: io.cwd, target, version: toolVersion(), date: new Date() };
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
      .option('target', targetOption(true))
      .option('inline-config', {
        type: 'boolean',
        default: true,
        describe: 'Honour tollgate-disable comments as accepted deviations (--no-inline-config ignores them)',
      }),
  run,
};
