/**
 * `tollgate report`: the HTML page of a base (hosts, contexts and their state, chains per URL pattern,
 * findings, optionally the benchmark audit), built from the plan and the lint of the same input.
 */
import { auditBase } from '../audit/report.js';
import type { BenchmarkId } from '../audit/catalogue.js';
import type { TomcatTarget } from '../filters/index.js';
import { toolVersion } from '../lint/docs.js';
import { lintBase } from '../lint/engine.js';
import type { CatalinaBase } from '../model/index.js';
import { planBase } from '../plan/index.js';
import { reportData, type ReportData } from './data.js';
import { scopeOf } from '../parser/files.js';
import { renderReport } from './html.js';

export { reportData, renderReport, type ReportData };

export interface ReportOptions {
  target?: TomcatTarget;
  /** How the page names the input (default: its path). */
  label?: string;
  /** Adds the compliance table of this benchmark. */
  benchmark?: BenchmarkId;
  now?: Date;
}

/** The report's data for a loaded base (`root`: the path it was read from, to print paths relative to it). */
export function buildReportData(base: CatalinaBase, root: string, opts: ReportOptions = {}): ReportData {
  const target = opts.target ?? '10.1';
  const plan = planBase(base, { target });
  const audit = opts.benchmark ? auditBase(base, opts.benchmark, { target }) : null;
  const lint = audit?.lint ?? lintBase(base, { target });
  return reportData({
    root,
    label: opts.label ?? root,
    plan,
    diagnostics: lint.diagnostics,
    files: lint.files,
    audit,
    version: toolVersion(),
    scope: scopeOf(base),
    ...(opts.now ? { now: opts.now } : {}),
  });
}
