import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { BENCHMARKS, type BenchmarkId } from '../../audit/catalogue.js';
import { formatAuditHtml, formatAuditJson, formatAuditText, type AuditFormatInput } from '../../audit/format.js';
import { formatAuditCkl } from '../../audit/export/ckl.js';
import { formatAuditHdf } from '../../audit/export/hdf.js';
import { exportView } from '../../audit/export/view.js';
import { formatAuditXccdf } from '../../audit/export/xccdf.js';
import { auditBase, releaseOf, unreadable } from '../../audit/report.js';
import type { TomcatTarget } from '../../filters/index.js';
import { ConfigError, loadConfig, type Accounts, type AuditFacts } from '../../lint/config.js';
import { ruleById } from '../../lint/rules/index.js';
import { UsageError, type Command, type Io } from '../command.js';
import { readInput } from '../input.js';
import { readStartup } from '../../parser/index.js';
import { choiceOption, followSymlinksOption, targetOption } from '../options.js';

const view = (input: AuditFormatInput) => exportView(input.audit, input);

/** The formats: tollgate's own (text, json, html) and the ones assessors' tools load (docs/audit-formats.md). */
const FORMATS: Record<string, (input: AuditFormatInput) => string> = {
  text: formatAuditText,
  json: formatAuditJson,
  html: formatAuditHtml,
  hdf: (input) => formatAuditHdf(view(input)),
  xccdf: (input) => formatAuditXccdf(view(input)),
  ckl: (input) => formatAuditCkl(view(input)),
};

/** `--date`: an ISO 8601 date-time (with its zone), for a report made again from the same input to be the same bytes. */
function auditDate(v: unknown): Date | undefined {
  if (v === undefined) return undefined;
  const text = String(v);
  const d = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(text) || Number.isNaN(d.getTime()))
    throw new UsageError(`--date: not an ISO 8601 date-time with a zone (2026-01-31T12:00:00Z): ${text}`);
  return d;
}

async function run(argv: Record<string, unknown>, io: Io): Promise<number> {
  const benchmark = argv['benchmark'] as BenchmarkId | undefined;
  const date = auditDate(argv['date']);
  if (!benchmark || !BENCHMARKS.includes(benchmark))
    throw new UsageError(`name the benchmark: --benchmark ${BENCHMARKS.join('|')}`);
  const target = String(argv['base'] ?? '.');
  const home = typeof argv['home'] === 'string' ? resolve(io.cwd, argv['home']) : undefined;
  const base = readInput(resolve(io.cwd, target), home, { followSymlinks: argv['followSymlinks'] === true });
  // Only the account names and the audit section (site facts, waivers) are read from
  // tollgate.config.json: the audit's rule set is the benchmark's.
  let accounts: Accounts | undefined;
  let facts: AuditFacts | undefined;
  let configPath: string | null;
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
  const etc = typeof argv['etc'] === 'string' ? resolve(io.cwd, argv['etc']) : undefined;
  const startup = readStartup(base.base, base.home, base.setenv ?? null, etc ? { etc } : {});
  const audit = auditBase(base, benchmark, {
    startup,
    target: argv['target'] as TomcatTarget,
    inlineConfig: argv['inlineConfig'] !== false,
    ...(accounts ? { accounts } : {}),
    ...(facts ? { facts } : {}),
    configPath,
    letter: argv['letter'] === true,
    ...(version ? { version } : {}),
    label: target,
    ...(date ? { date } : {}),
  });
  // A file Tomcat cannot read either would let every control about it pass unseen.
  const fatal = unreadable(audit.lint);
  if (fatal.length > 0) {
    const where = fatal.map((d) => `${d.span.file}:${d.span.line}:${d.span.column}: ${d.message}`).join('\n  ');
    throw new UsageError(`cannot audit a configuration Tomcat cannot read:\n  ${where}`);
  }
  const input: AuditFormatInput = { audit, cwd: io.cwd, target, version: audit.tool.version, date: audit.date };
  io.stdout(FORMATS[String(argv['format'])]!(input));
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
        choiceOption(
          'format',
          Object.keys(FORMATS),
          "text (one line per control), json, html (a page to keep), or for assessors' tools: hdf (Heimdall, InSpec JSON), xccdf (XCCDF 1.2 results with their benchmark), ckl (STIG Viewer checklist)",
          {
            alias: 'f',
            default: 'text',
          },
        ),
      )
      .option('date', {
        type: 'string',
        requiresArg: true,
        describe: 'The date the report states, ISO 8601 (default: now): the same input and date give the same bytes',
      })
      .option('home', {
        type: 'string',
        describe: 'CATALINA_HOME, for the controls about its files (default: the base)',
      })
      .option('follow-symlinks', followSymlinksOption)
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
      .option('etc', {
        type: 'string',
        describe:
          "The directory that stands for /etc, where the service's start-up options are read (systemd/system/tomcat*.service, default/tomcat*, sysconfig/tomcat*; default: /etc, and the package's unit under /lib/systemd/system)",
      })
      .option('target', targetOption(true))
      .option('inline-config', {
        type: 'boolean',
        default: true,
        describe: 'Honour tollgate-disable comments as accepted deviations (--no-inline-config ignores them)',
      }),
  run,
};
