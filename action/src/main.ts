/**
 * The GitHub Action (action/action.yml): runs `tollgate lint --format sarif` on the input path, writes the
 * SARIF log, turns each result into an annotation at its file, line and column, and fails the step when a
 * finding is an error (or tollgate could not lint). index.ts calls run(); action/index.cjs is the bundle
 * GitHub runs (scripts/bundle-action.mjs); @github/local-action runs this file (test/integrations/action.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as core from '@actions/core';

interface SarifResult {
  ruleId?: string;
  level?: 'error' | 'warning' | 'note' | 'none';
  message: { text?: string };
  locations?: {
    physicalLocation?: {
      artifactLocation?: { uri?: string };
      region?: { startLine?: number; startColumn?: number; endLine?: number; endColumn?: number };
    };
  }[];
}

interface SarifLog {
  runs: { results?: SarifResult[] }[];
}

const words = (text: string): string[] => text.split(/\s+/).filter((w) => w !== '');

export async function run(): Promise<void> {
  const paths = words(core.getInput('path') || '.');
  const sarifPath = core.getInput('sarif') || 'tollgate.sarif';
  const [command, ...commandArgs] = words(core.getInput('command') || 'tollgate');
  const args = [...commandArgs, 'lint', ...paths, ...words(core.getInput('args')), '--format', 'sarif'];
  core.info(`${command} ${args.join(' ')}`);
  // Paths (the inputs, the SARIF log's and the annotations') are relative to the workspace, as in GitHub.
  const cwd = process.env['GITHUB_WORKSPACE'] || process.cwd();
  const lint = spawnSync(command!, args, { cwd, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  if (lint.error) {
    core.setFailed(`could not run ${command}: ${lint.error.message} (install tollgate first: README, Install)`);
    return;
  }
  let log: SarifLog;
  try {
    log = JSON.parse(lint.stdout) as SarifLog;
  } catch {
    // Exit code 2: a usage or I/O failure, said on stderr in one line.
    core.setFailed(`tollgate lint exited with ${lint.status}: ${lint.stderr.trim() || 'no SARIF on standard output'}`);
    return;
  }
  writeFileSync(resolve(cwd, sarifPath), lint.stdout);
  core.setOutput('sarif', resolve(cwd, sarifPath));
  let errors = 0;
  let warnings = 0;
  for (const result of log.runs.flatMap((r) => r.results ?? [])) {
    const where = result.locations?.[0]?.physicalLocation;
    const region = where?.region;
    const properties: core.AnnotationProperties = {
      title: result.ruleId ?? 'tollgate',
      ...(where?.artifactLocation?.uri !== undefined ? { file: where.artifactLocation.uri } : {}),
      ...(region?.startLine !== undefined ? { startLine: region.startLine } : {}),
      ...(region?.endLine !== undefined ? { endLine: region.endLine } : {}),
      // GitHub takes columns only within one line.
      ...(region?.startColumn !== undefined && region.endLine === region.startLine
        ? {
            startColumn: region.startColumn,
            ...(region.endColumn !== undefined ? { endColumn: region.endColumn } : {}),
          }
        : {}),
    };
    const text = `${result.message.text ?? ''} (${result.ruleId ?? 'tollgate'})`;
    if (result.level === 'error') {
      errors++;
      core.error(text, properties);
    } else if (result.level === 'warning') {
      warnings++;
      core.warning(text, properties);
    } else core.notice(text, properties);
  }
  core.setOutput('errors', errors);
  core.setOutput('warnings', warnings);
  core.info(`tollgate: ${errors} error(s), ${warnings} warning(s); SARIF written to ${sarifPath}`);
  if (errors > 0) core.setFailed(`tollgate lint found ${errors} error(s)`);
  else if (lint.status !== 0) core.setFailed(`tollgate lint exited with ${lint.status}: ${lint.stderr.trim()}`);
}
