/**
 * Linting a large CATALINA_BASE on several threads: the base is split into
 * parts by context (see BasePartition), each part is loaded and linted on its
 * own thread (the main thread takes part 0), and the findings are merged,
 * deduplicated and sorted as lintBase does. A part cannot see the other
 * parts' contexts, so findings that depend on several contexts could differ:
 * when a part reports one (the rules below), the caller lints the whole base
 * on one thread instead, so the output is always the single-thread output.
 */
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Diagnostic, SourceFile } from '../model/index.js';
import { loadBase, type BasePartition } from '../parser/index.js';
import { byPosition, lintBase, type LintOptions, type LintResult } from './engine.js';
import type { SuppressedDiagnostic } from './suppressions.js';

/** Rules that keep state across contexts (one finding per filter pair, whichever context comes first). */
const CROSS_CONTEXT = new Set([
  'header-filter-overridden',
  'remote-ip-after-address-filter',
  'set-character-encoding-order',
]);
/**
 * Rules whose finding on a file several contexts share (conf/web.xml, server.xml,
 * tomcat-users.xml, ...) depends on every context: exact only on a part's own files.
 */
const SHARED_DEPENDS_ON_ALL = new Set([
  'filter-never-mapped',
  'rest-csrf-no-fetch-path',
  'csrf-not-covering-all',
  'request-dumper-enabled',
  'host-manager-no-script-user',
  'persist-needs-storeconfig',
  'unused-suppression',
]);

/** What one part sends back: small (findings and the few sources they point into), never the models. */
export interface PartResult {
  diagnostics: Diagnostic[];
  suppressed: SuppressedDiagnostic[];
  /** Every file the part read (for the formats that list clean files). */
  files: string[];
  /** The sources of the files the findings are in, for code frames. */
  sources: [string, SourceFile][];
  /** False when a finding may differ from the whole-base run (see above). */
  exact: boolean;
}

/** Options a worker can receive (LintOptions without its functions). */
export type PartOptions = Omit<LintOptions, 'includeFile' | 'hostsWithContexts'> & {
  ignore?: { patterns: string[]; dir: string };
};

/** Loads and lints part `index` of `count` of the base at `path`. */
export function lintPart(path: string, opts: LintOptions, index: number, count: number): PartResult {
  const partition: BasePartition = { index, count, hostsWithContexts: new Set(), ownFiles: new Set() };
  const base = loadBase({ base: path, partition });
  const r = lintBase(base, { ...opts, hostsWithContexts: partition.hostsWithContexts });
  const inexact = (d: Diagnostic): boolean =>
    CROSS_CONTEXT.has(d.ruleId) || (SHARED_DEPENDS_ON_ALL.has(d.ruleId) && !partition.ownFiles.has(d.span.file));
  const exact = !r.diagnostics.some(inexact) && !r.suppressed.some((s) => inexact(s.diagnostic));
  const needed = new Set([...r.diagnostics, ...r.suppressed.map((s) => s.diagnostic)].map((d) => d.span.file));
  const sources: [string, SourceFile][] = [];
  for (const f of needed) {
    const s = r.files.get(f);
    if (s) sources.push([f, s]);
  }
  return { diagnostics: r.diagnostics, suppressed: r.suppressed, files: [...r.files.keys()], sources, exact };
}

/** Merges the parts' findings as one lintBase would have ordered them; null when a part was not exact. */
export function mergeParts(parts: PartResult[]): (LintResult & { lintedFiles: string[] }) | null {
  if (parts.some((p) => !p.exact)) return null;
  const seen = new Set<string>();
  const key = (d: Diagnostic): string => `${d.ruleId}\0${d.span.file}\0${d.span.offset}\0${d.span.endOffset}`;
  const diagnostics: Diagnostic[] = [];
  const suppressed: SuppressedDiagnostic[] = [];
  const files = new Map<string, SourceFile>();
  const linted = new Set<string>();
  for (const p of parts) {
    for (const d of p.diagnostics) {
      const k = key(d);
      if (!seen.has(k)) {
        seen.add(k);
        diagnostics.push(d);
      }
    }
    for (const s of p.suppressed) {
      const k = `s\0${key(s.diagnostic)}`;
      if (!seen.has(k)) {
        seen.add(k);
        suppressed.push(s);
      }
    }
    for (const [f, s] of p.sources) files.set(f, s);
    for (const f of p.files) linted.add(f);
  }
  diagnostics.sort(byPosition);
  suppressed.sort((a, b) => byPosition(a.diagnostic, b.diagnostic));
  return { diagnostics, suppressed, files, lintedFiles: [...linted] };
}

/**
 * From how many entries in webapps/ `--workers auto` would use threads. Measured on 2 cores
 * (bench/lint.ts, CLI processes): at 10000 webapps two threads took 1.80-1.97 s against
 * 1.87-2.05 s on one (each half runs ~55% slower beside the other: memory and GC threads
 * compete), and they lose below that. So auto stays on one thread; --workers N opts in.
 */
export const PARALLEL_THRESHOLD = Number.POSITIVE_INFINITY;

/** How many threads `--workers auto` uses for the base at `path`: 1 below PARALLEL_THRESHOLD. */
export function autoThreads(path: string): number {
  if (!Number.isFinite(PARALLEL_THRESHOLD)) return 1;
  let apps: number;
  try {
    apps = readdirSync(join(path, 'webapps')).length;
  } catch {
    return 1;
  }
  return apps < PARALLEL_THRESHOLD ? 1 : Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * A thread running this module. Under tsx (tests, benchmarks of src/) the thread must
 * register tsx's loader itself before it can import TypeScript.
 */
function startWorker(request: WorkerRequest): Worker {
  // Started from bin/tollgate.js: the thread loads the CLI bundle from V8's code cache as the main thread did.
  const loader = (globalThis as Record<symbol, unknown>)[Symbol.for('tollgate.cli.loader')];
  if (typeof loader === 'string') return new Worker(loader, { workerData: request, execArgv: [] });
  const here = import.meta.url;
  // No inherited loader flags (a benchmark under tsx importing dist/): plain JavaScript needs none.
  if (!here.endsWith('.ts')) return new Worker(new URL(here), { workerData: request, execArgv: [] });
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(here)}); })`;
  return new Worker(boot, { eval: true, workerData: request });
}

interface WorkerRequest {
  tollgateLintPart: true;
  path: string;
  opts: LintOptions;
  index: number;
  count: number;
}

/**
 * Lints the base at `path` on `threads` threads (the main one included).
 * Resolves to null when the split could change the output: lint the whole base then.
 */
export async function lintBaseInParallel(
  path: string,
  opts: LintOptions,
  threads: number,
): Promise<(LintResult & { lintedFiles: string[] }) | null> {
  const { includeFile, ...plain } = opts;
  const started = Array.from({ length: threads - 1 }, (_, i) => {
    const request: WorkerRequest = { tollgateLintPart: true, path, opts: plain, index: i + 1, count: threads };
    const worker = startWorker(request);
    return new Promise<PartResult>((resolve, reject) => {
      worker.once('message', (m: PartResult) => resolve(m));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`lint worker exited with ${code}`)));
    }).finally(() => void worker.terminate());
  });
  const first = lintPart(path, plain, 0, threads);
  let rest: PartResult[];
  try {
    rest = await Promise.all(started);
  } catch {
    return null; // a thread that could not start or failed: the single-thread run says what is wrong
  }
  const merged = mergeParts([first, ...rest]);
  if (!merged || !includeFile) return merged;
  // Ignore globs are a function, which cannot cross threads: applied here, after the merge, as lintBase applies them last.
  merged.diagnostics = merged.diagnostics.filter((d) => includeFile(d.span.file));
  merged.suppressed = merged.suppressed.filter((s) => includeFile(s.diagnostic.span.file));
  return merged;
}

if (!isMainThread && (workerData as WorkerRequest | undefined)?.tollgateLintPart) {
  const { path, opts, index, count } = workerData as WorkerRequest;
  parentPort!.postMessage(lintPart(path, opts, index, count));
}
