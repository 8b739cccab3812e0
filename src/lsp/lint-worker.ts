/**
 * The language server's lint, on a thread of its own: a lint of a large input takes seconds, and on the
 * server's own thread every request (hover, completion, the next keystroke) waited for it. The thread
 * keeps a parse cache per input between runs, so a keystroke re-parses only the file it changed; the
 * server ends the thread (and starts a fresh one) when a newer version makes the running lint stale.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Diagnostic } from '../model/index.js';
import type { FileScope } from '../model/files.js';
import { ParseCache } from '../parser/index.js';
import { check, type CheckSettings } from './workspace.js';

/** One lint: the input of `path`, with the open buffers `texts` in place of the disk. */
export interface LintRequest {
  id: number;
  path: string;
  texts: [string, string][];
  settings: CheckSettings;
}

/** What the server keeps of a lint: the findings, and what hover, completion and definition need of the input. */
export interface LintSummary {
  id: number;
  root: string;
  byFile: [string, Diagnostic[]][];
  /** The base's folders and file scope (for reading conf/web.xml or a definition's file in scope). */
  base: { base: string; home: string; scope?: FileScope };
  /** conf/web.xml of the base, and its text as linted. */
  globalWebXml: { file: string; text: string | null } | null;
}

export type LintReply = LintSummary | { id: number; error: string };

interface WorkerMarker {
  tollgateLspLint: true;
}

/** Lints one request (on the worker thread, or inline where no thread can start). */
export function lintRequest(req: LintRequest, caches: Map<string, ParseCache>, root: string): LintSummary {
  let cache = caches.get(root);
  if (!cache) caches.set(root, (cache = new ParseCache()));
  const overlay = new Map<string, Uint8Array>(req.texts.map(([p, t]) => [p, Buffer.from(t, 'utf8')]));
  const r = check(req.path, overlay, req.settings, cache);
  const g = r.base.globalWebXml;
  return {
    id: req.id,
    root: r.root,
    byFile: [...r.byFile],
    base: { base: r.base.base, home: r.base.home, ...(r.base.scope ? { scope: r.base.scope } : {}) },
    globalWebXml: g ? { file: g.file, text: r.files.get(g.file)?.text ?? null } : null,
  };
}

/**
 * A thread running this module. From bin/tollgate.js it loads the CLI bundle as the main thread did
 * (src/cli/index.ts imports this module in a thread whose data says so); under tsx (tests of src/) it
 * registers tsx's loader first.
 */
export function startLintWorker(): Worker {
  const data: WorkerMarker = { tollgateLspLint: true };
  const loader = (globalThis as Record<symbol, unknown>)[Symbol.for('tollgate.cli.loader')];
  if (typeof loader === 'string') return new Worker(loader, { workerData: data, execArgv: [] });
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL(here), { workerData: data, execArgv: [] });
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(here)}); })`;
  return new Worker(boot, { eval: true, workerData: data });
}

if (!isMainThread && (workerData as WorkerMarker | undefined)?.tollgateLspLint) {
  const caches = new Map<string, ParseCache>();
  parentPort!.on('message', (req: LintRequest & { root: string }) => {
    try {
      parentPort!.postMessage(lintRequest(req, caches, req.root) satisfies LintReply);
    } catch (e) {
      parentPort!.postMessage({ id: req.id, error: e instanceof Error ? e.message : String(e) } satisfies LintReply);
    }
  });
}
