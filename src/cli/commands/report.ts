import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { BENCHMARKS, type BenchmarkId } from '../../audit/catalogue.js';
import type { TomcatTarget } from '../../filters/index.js';
import { buildReportData, renderReport } from '../../report/index.js';
import type { Command, Io } from '../command.js';
import { readInput } from '../input.js';
import { choiceOption, followSymlinksOption, stringOption, targetOption } from '../options.js';

async function run(argv: Record<string, unknown>, io: Io): Promise<number> {
  const input = resolve(io.cwd, String(argv['base'] ?? '.'));
  const base = readInput(input, undefined, { followSymlinks: argv['followSymlinks'] === true });
  const data = buildReportData(base, base.base, {
    label: String(argv['base'] ?? '.'),
    ...(argv['target'] ? { target: argv['target'] as TomcatTarget } : {}),
    ...(argv['benchmark'] ? { benchmark: argv['benchmark'] as BenchmarkId } : {}),
  });
  const out = resolve(io.cwd, String(argv['out']));
  mkdirSync(dirname(out), { recursive: true });
  const html = renderReport(data);
  writeFileSync(out, html);
  const contexts = data.hosts.reduce((n, h) => n + h.contexts.length, 0);
  io.stdout(
    `wrote ${String(argv['out'])} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KB): ${data.hosts.length} host${data.hosts.length === 1 ? '' : 's'}, ${contexts} context${contexts === 1 ? '' : 's'}, ${data.counts.error} errors, ${data.counts.warning} warnings\n`,
  );
  return 0;
}

export const reportCommand: Command = {
  builder: (y: Argv) =>
    y
      .positional('base', { type: 'string', describe: 'CATALINA_BASE, webapp or file (default: .)' })
      .option('out', stringOption('out', 'The HTML file to write', { default: 'tollgate-report.html' }))
      .option('benchmark', choiceOption('benchmark', BENCHMARKS, 'Add the compliance table of this benchmark'))
      .option('follow-symlinks', followSymlinksOption)
      .option('target', targetOption(false)),
  run,
};
