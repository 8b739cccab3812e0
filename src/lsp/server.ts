/**
 * `tollgate lsp`: a language server (stdio) for web.xml, server.xml, tomcat-users.xml, context files
 * and the JSON chain format. Diagnostics come from the same lint as the CLI, over the editor's unsaved
 * buffers; hover, completion, definition and code actions from the filters' schemas and the merged
 * chains. Every request is answered even for input that cannot be parsed: a failure inside a handler
 * gives an empty answer and a log line, never a dead server.
 */
import { MAX_CONFIG_BYTES, readTextInScope, scopeOf } from '../parser/files.js';
import { printable } from '../lint/printable.js';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type {
  CodeAction,
  Connection,
  Diagnostic as LspDiagnostic,
  InitializeResult,
  Range,
} from 'vscode-languageserver/node';
import type * as Lsp from 'vscode-languageserver/node';
import { toolVersion } from '../lint/docs.js';
import { effectOf } from '../lint/severity.js';
import { ParseCache } from '../parser/index.js';
import type { ResolvedContext } from '../chain/index.js';
import { sep } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { EditorDocument } from './document.js';
import { lintRequest, startLintWorker, type LintReply, type LintRequest, type LintSummary } from './lint-worker.js';
import type { Diagnostic, Severity, Span } from '../model/index.js';
import {
  complete,
  definition,
  docsUrl,
  hover,
  indentationAt,
  parseDocument,
  suppressionComment,
  type ParsedDocument,
} from './features.js';
import { contextsOfInput, inputOf, type CheckSettings } from './workspace.js';

// Loaded through require when the server starts, so the CLI bundle (every other command) never parses them.
const require = createRequire(import.meta.url);
const lsp = require('vscode-languageserver/node') as typeof Lsp;
const { CodeActionKind, DiagnosticSeverity, TextDocuments, TextDocumentSyncKind } = lsp;

/**
 * How long an input's buffers must stay unchanged before it is linted again: as long as its last lint
 * took, between MIN_QUIET_MS and QUIET_MS (a small file is linted 5 ms after a keystroke, a 7 MB one
 * 150 ms after the last of a burst), unless initializationOptions.quietMs fixes it.
 */
const QUIET_MS = 150;
const MIN_QUIET_MS = 5;
const MAX_QUIET_MS = 60_000;

const SEVERITY: Record<Severity, Lsp.DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

const toRange = (s: Span): Range => ({
  start: { line: s.line - 1, character: s.column - 1 },
  end: { line: s.endLine - 1, character: s.endColumn - 1 },
});

function toLsp(d: Diagnostic): LspDiagnostic {
  return {
    range: toRange(d.span),
    severity: SEVERITY[d.severity],
    source: 'tollgate',
    ...(d.ruleId ? { code: d.ruleId, codeDescription: { href: docsUrl(d.ruleId) } } : {}),
    message: printable(d.message),
    // What Tomcat does with it, for clients that show or filter by it (refuses, misbehaves, ignores, weakens, notes, tollgate).
    data: { effect: effectOf(d) ?? 'tollgate' },
    ...(d.related?.length
      ? {
          relatedInformation: d.related.map((r) => ({
            location: { uri: pathToFileURL(r.span.file).href, range: toRange(r.span) },
            message: printable(r.message),
          })),
        }
      : {}),
  };
}

const pathOf = (uri: string): string | null => (uri.startsWith('file:') ? fileURLToPath(uri) : null);

/** Buffers longer than this (UTF-16 units) are not parsed again on every keystroke for hover and completion. */
const FRESH_PARSE_CHARS = 1024 * 1024;
/** How many past lints tollgate/lints reports. */
const LINT_LOG = 200;

/** A lint the server started: its input, and the version of every open buffer of the input it read. */
interface LintRun {
  id: number;
  root: string;
  versions: Map<string, number>;
  started: number;
}

/** What became of a lint (tollgate/lints, for tests that count work). */
export interface LintRecord {
  id: number;
  root: string;
  versions: Record<string, number>;
  outcome: 'running' | 'published' | 'stale' | 'cancelled' | 'failed';
}

/** The last published lint of an input, as the server keeps it. */
interface Kept {
  id: number;
  summary: LintSummary;
  byFile: Map<string, Diagnostic[]>;
  /** Merged contexts for hover on a mapping, loaded on first use. */
  contexts?: ResolvedContext[];
}

/** Wires the server's handlers to a connection (stdio for `tollgate lsp`, streams in tests). */
export function startLanguageServer(connection: Connection): void {
  const documents = new TextDocuments<EditorDocument>({
    create: (uri, languageId, version, content) => new EditorDocument(uri, languageId, version, content),
    update: (doc, changes, version) => {
      doc.update(changes, version);
      return doc;
    },
  });
  let settings: CheckSettings = {};
  let fixedQuietMs: number | null = null;
  /** How long the last finished lint of each input took (ms), for its quiet period. */
  const lintMs = new Map<string, number>();
  const quietFor = (root: string): number =>
    fixedQuietMs ?? Math.min(QUIET_MS, Math.max(MIN_QUIET_MS, lintMs.get(root) ?? QUIET_MS));
  /** The last published lint of each input, and which files of it had findings published. */
  const results = new Map<string, Kept>();
  const published = new Map<string, Set<string>>();
  /** Quiet-period timers, per input. */
  const pending = new Map<string, NodeJS.Timeout>();
  /** Inputs whose quiet period passed, waiting for the lint thread (root -> a path in it). */
  const queued = new Map<string, string>();
  let running: LintRun | null = null;
  let worker: Worker | null = null;
  /** Consecutive failures to run the lint thread; past a few, lint runs on this thread (logged). */
  let workerFailures = 0;
  let nextId = 1;
  /** How many lints started (the coalescing tests count them: tests assert work, never wall-clock time). */
  let lintRuns = 0;
  const log: LintRecord[] = [];
  /** Parse results for contexts, per input, kept between hovers on mappings. */
  const caches = new Map<string, ParseCache>();
  const inlineCaches = new Map<string, ParseCache>();

  const safely = <T>(what: string, fallback: T, fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      connection.console.error(`tollgate: ${what} failed: ${e instanceof Error ? e.message : String(e)}`);
      return fallback;
    }
  };

  /** The open buffers of the input `root` (the file itself, or files under the folder). */
  const openIn = (root: string): { uri: string; path: string; doc: EditorDocument }[] =>
    documents.all().flatMap((doc) => {
      const path = pathOf(doc.uri);
      return path !== null && (path === root || path.startsWith(root + sep)) ? [{ uri: doc.uri, path, doc }] : [];
    });

  const overlay = (): Map<string, Uint8Array> => {
    const m = new Map<string, Uint8Array>();
    for (const d of documents.all()) {
      const p = pathOf(d.uri);
      if (p) m.set(p, Buffer.from(d.getText(), 'utf8'));
    }
    return m;
  };

  /** Whether a buffer of the run's input changed, opened or closed since the run read them. */
  const isStale = (run: LintRun): boolean => {
    const now = openIn(run.root);
    return now.length !== run.versions.size || now.some((o) => run.versions.get(o.uri) !== o.doc.version);
  };

  const record = (run: LintRun, outcome: LintRecord['outcome']): void => {
    const found = log.find((r) => r.id === run.id);
    if (found) found.outcome = outcome;
    else {
      log.push({ id: run.id, root: run.root, versions: Object.fromEntries(run.versions), outcome });
      if (log.length > LINT_LOG) log.shift();
    }
  };

  /** Publishes a lint's findings for every open buffer of its input, with the version they are of. */
  const publish = (run: LintRun, summary: LintSummary): void => {
    const kept: Kept = { id: run.id, summary, byFile: new Map(summary.byFile) };
    results.set(run.root, kept);
    const before = published.get(run.root) ?? new Set<string>();
    const now = new Set<string>();
    for (const { uri, path } of openIn(run.root)) {
      void connection.sendDiagnostics({
        uri,
        version: run.versions.get(uri),
        diagnostics: (kept.byFile.get(path) ?? []).map(toLsp),
      });
      now.add(path);
    }
    for (const file of before)
      if (!now.has(file)) void connection.sendDiagnostics({ uri: pathToFileURL(file).href, diagnostics: [] });
    published.set(run.root, now);
  };

  const finish = (run: LintRun, reply: LintReply): void => {
    if (running?.id !== run.id) return;
    running = null;
    lintMs.set(run.root, performance.now() - run.started);
    if ('error' in reply) {
      connection.console.error(`tollgate: checking ${run.root} failed: ${reply.error}`);
      record(run, 'failed');
    } else if (isStale(run)) {
      // A newer version exists: its own quiet period queues it; these findings are of text no longer shown.
      record(run, 'stale');
    } else {
      record(run, 'published');
      safely(`publishing ${run.root}`, undefined, () => publish(run, reply));
    }
    pump();
  };

  const stopWorker = (): void => {
    const w = worker;
    worker = null;
    if (w) {
      w.removeAllListeners();
      void w.terminate();
    }
  };

  const lintThread = (): Worker | null => {
    if (worker) return worker;
    if (workerFailures >= 3) return null;
    const w = safely('starting the lint thread', null, () => startLintWorker());
    if (!w) {
      workerFailures++;
      return lintThread();
    }
    w.unref();
    w.on('message', (reply: LintReply) => {
      workerFailures = 0;
      if (running) finish(running, reply);
    });
    const failed = (why: string): void => {
      if (worker !== w) return;
      workerFailures++;
      connection.console.error(`tollgate: the lint thread stopped (${why})`);
      worker = null;
      if (running) finish(running, { id: running.id, error: why });
    };
    w.on('error', (e) => failed(e instanceof Error ? e.message : String(e)));
    w.on('exit', (code) => failed(`exit code ${code}`));
    return (worker = w);
  };

  /** Starts the next queued lint when none runs. */
  const pump = (): void => {
    if (running) return;
    const next = queued.entries().next();
    if (next.done) return;
    const [root, path] = next.value;
    queued.delete(root);
    const open = openIn(root);
    const run: LintRun = {
      id: nextId++,
      root,
      versions: new Map(open.map((o) => [o.uri, o.doc.version])),
      started: performance.now(),
    };
    running = run;
    lintRuns++;
    record(run, 'running');
    const req: LintRequest = {
      id: run.id,
      path,
      texts: open.map((o) => [o.path, o.doc.getText()]),
      settings,
    };
    const w = lintThread();
    if (w) {
      safely('sending a lint to its thread', undefined, () => w.postMessage({ ...req, root }));
      return;
    }
    // No thread could start: lint here, as before there was one (the event loop waits for it).
    const reply = ((): LintReply => {
      try {
        return lintRequest(req, inlineCaches, root);
      } catch (e) {
        return { id: run.id, error: e instanceof Error ? e.message : String(e) };
      }
    })();
    finish(run, reply);
  };

  // Edits are coalesced per input: each change restarts a short quiet period, and only when it passes is
  // the input queued for the lint thread, with the latest text of its open buffers. A burst of keystrokes
  // on a 7 MB file is one lint after the last of them, not one per keystroke (100 keystrokes were 17 s of
  // lag). A lint still running on text a newer version replaced is cancelled (its thread ended, a fresh
  // one started) when the newer version's quiet period passes; one that finishes first is discarded.
  const schedule = (uri: string): void => {
    const path = pathOf(uri);
    if (!path) return;
    const root = inputOf(path);
    const waiting = pending.get(root);
    if (waiting) clearTimeout(waiting);
    pending.set(
      root,
      setTimeout(() => {
        pending.delete(root);
        queued.set(root, path);
        if (running && running.root === root && isStale(running)) {
          record(running, 'cancelled');
          running = null;
          stopWorker();
        }
        pump();
      }, quietFor(root)),
    );
  };

  /** Whether the input has no lint waiting or running: its buffers have settled. */
  const settled = (root: string): boolean => !pending.has(root) && !queued.has(root) && running?.root !== root;

  /** The last parse of each open document, with the version it is of. */
  const parses = new Map<string, { version: number; parsed: ParsedDocument | null }>();
  const parseNow = (uri: string): ParsedDocument | null => {
    const d = documents.get(uri);
    const p = pathOf(uri);
    if (!d || !p) return null;
    const hit = parses.get(uri);
    if (hit && hit.version === d.version) return hit.parsed;
    const text = d.getText();
    // The lint's size cap holds for hover and completion too: a buffer over it is not parsed at all.
    const result = Buffer.byteLength(text, 'utf8') > MAX_CONFIG_BYTES ? null : parseDocument(p, text);
    parses.set(uri, { version: d.version, parsed: result });
    return result;
  };
  /**
   * A parse to answer hover or completion at `offset` of the current text, and the offset in it. While
   * a large buffer is being typed in, the last parse answers, through the edits since (an offset in text
   * typed since has no answer); once its input settled it is parsed again.
   */
  const parsedAt = (uri: string, offset: number): { p: ParsedDocument; offset: number } | null => {
    const d = documents.get(uri);
    const path = pathOf(uri);
    if (!d || !path) return null;
    const hit = parses.get(uri);
    if (hit && hit.version !== d.version && d.length > FRESH_PARSE_CHARS && !settled(inputOf(path))) {
      const at = d.offsetIn(hit.version, offset);
      return hit.parsed && at !== null ? { p: hit.parsed, offset: at } : null;
    }
    const p = parseNow(uri);
    return p ? { p, offset } : null;
  };

  const contextsFor = (root: string): ResolvedContext[] => {
    const kept = results.get(root);
    if (!kept) return [];
    if (kept.contexts) return kept.contexts;
    let cache = caches.get(root);
    if (!cache) caches.set(root, (cache = new ParseCache()));
    return (kept.contexts = contextsOfInput(root, overlay(), cache));
  };

  const globalWebXml = (path: string): ParsedDocument | null => {
    const kept = results.get(inputOf(path));
    const g = kept?.summary.globalWebXml;
    if (!kept || !g) return null;
    const open = documents.get(pathToFileURL(g.file).href);
    if (open) return parseNow(open.uri);
    return g.text !== null
      ? parseDocument(g.file, g.text)
      : safely('reading conf/web.xml', null, () => {
          const read = readTextInScope(g.file, scopeOf(kept.summary.base));
          return 'text' in read ? parseDocument(g.file, read.text) : null;
        });
  };

  connection.onInitialize((params): InitializeResult => {
    const init = (params.initializationOptions ?? {}) as CheckSettings & { quietMs?: unknown };
    // A slower machine or a larger file may want a longer pause before each lint.
    if (typeof init.quietMs === 'number' && init.quietMs >= 0 && init.quietMs <= MAX_QUIET_MS)
      fixedQuietMs = init.quietMs;
    settings = {
      ...(init.target ? { target: init.target } : {}),
      ...(init.profile ? { profile: init.profile } : {}),
      ...(init.rules ? { rules: init.rules } : {}),
    };
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        completionProvider: { triggerCharacters: ['>'] },
        definitionProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      },
      serverInfo: { name: 'tollgate', version: toolVersion() },
    };
  });

  documents.onDidOpen((e) => schedule(e.document.uri));
  documents.onDidChangeContent((e) => schedule(e.document.uri));
  documents.onDidSave((e) => schedule(e.document.uri));
  documents.onDidClose((e) => {
    parses.delete(e.document.uri);
    const p = pathOf(e.document.uri);
    if (p) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
    // The rest of its input is linted again from the disk's version of the file.
    if (p) schedule(e.document.uri);
  });

  connection.onHover((params) =>
    safely('hover', null, () => {
      const d = documents.get(params.textDocument.uri);
      const at = d ? parsedAt(d.uri, d.offsetAt(params.position)) : null;
      if (!at) return null;
      const root = inputOf(at.p.path);
      const text = hover(at.p, at.offset, () => contextsFor(root), results.get(root)?.summary.root ?? root);
      return text ? { contents: { kind: 'markdown', value: text } } : null;
    }),
  );

  connection.onCompletion((params) =>
    safely('completion', [], () => {
      const d = documents.get(params.textDocument.uri);
      const at = d ? parsedAt(d.uri, d.offsetAt(params.position)) : null;
      if (!at) return [];
      const p = at.p;
      const g = globalWebXml(p.path);
      const globalNames =
        g && g.path !== p.path
          ? (g.doc.root?.children ?? [])
              .filter((c) => c.name === 'filter')
              .map((c) => c.children.find((x) => x.name === 'filter-name')?.text.trim() ?? '')
              .filter(Boolean)
          : [];
      return complete(p, at.offset, globalNames).map((c) => ({
        label: c.label,
        ...(c.detail ? { detail: c.detail } : {}),
        ...(c.documentation ? { documentation: c.documentation } : {}),
      }));
    }),
  );

  connection.onDefinition((params) =>
    safely('definition', null, () => {
      const p = parseNow(params.textDocument.uri);
      const d = documents.get(params.textDocument.uri);
      if (!p || !d) return null;
      const target = definition(p, d.offsetAt(params.position), globalWebXml(p.path));
      if (!target) return null;
      const uri = pathToFileURL(target.path).href;
      let text = p.text;
      if (target.path !== p.path && !documents.get(uri)) {
        const base = results.get(inputOf(p.path))?.summary.base;
        const read = base ? readTextInScope(target.path, scopeOf(base)) : null;
        if (!read || !('text' in read)) return null;
        text = read.text;
      }
      const doc = documents.get(uri) ?? new EditorDocument(uri, 'xml', 0, text);
      return { uri, range: { start: doc.positionAt(target.offset), end: doc.positionAt(target.endOffset) } };
    }),
  );

  connection.onCodeAction((params) =>
    safely('code actions', [] as CodeAction[], () => {
      const d = documents.get(params.textDocument.uri);
      const path = pathOf(params.textDocument.uri);
      if (!d || !path) return [];
      const findings = results.get(inputOf(path))?.byFile.get(path) ?? [];
      const text = d.getText();
      const eol = text.includes('\r\n') ? '\r\n' : '\n';
      const actions: CodeAction[] = [];
      const wanted = params.range;
      for (const f of findings) {
        const r = toRange(f.span);
        if (r.end.line < wanted.start.line || r.start.line > wanted.end.line) continue;
        const lsp = toLsp(f);
        if (f.fix?.some((e) => e.file === path)) {
          actions.push({
            title: `Fix: ${f.message.length > 80 ? `${f.message.slice(0, 77)}...` : f.message}`,
            kind: CodeActionKind.QuickFix,
            diagnostics: [lsp],
            isPreferred: true,
            edit: {
              changes: {
                [params.textDocument.uri]: f.fix
                  .filter((e) => e.file === path)
                  .map((e) => ({
                    range: { start: d.positionAt(e.offset), end: d.positionAt(e.endOffset) },
                    newText: e.text,
                  })),
              },
            },
          });
        }
        if (f.ruleId && !path.endsWith('.json')) {
          const { lineStart, indent } = indentationAt(text, d.offsetAt(r.start));
          actions.push({
            title: `Suppress ${f.ruleId} for this line`,
            kind: CodeActionKind.QuickFix,
            diagnostics: [lsp],
            edit: {
              changes: {
                [params.textDocument.uri]: [
                  {
                    range: { start: d.positionAt(lineStart), end: d.positionAt(lineStart) },
                    newText: suppressionComment(f, indent, eol),
                  },
                ],
              },
            },
          });
        }
      }
      return actions;
    }),
  );

  connection.onShutdown(() => {
    for (const t of pending.values()) clearTimeout(t);
    pending.clear();
    queued.clear();
    running = null;
    stopWorker();
  });

  // For tests that count work instead of timing it: how many lints started, and what became of each
  // (which versions it read, published or stale or cancelled); `running` is answered while a lint runs.
  connection.onRequest('tollgate/lintRuns', () => lintRuns);
  connection.onRequest('tollgate/lints', () => ({
    started: lintRuns,
    running: running ? Object.fromEntries(running.versions) : null,
    log,
  }));

  documents.listen(connection);
  connection.listen();
}

/**
 * `tollgate lsp [--stdio]`: serves on standard input and output until the client exits. A frame it
 * cannot read (a header without Content-Length, a length that is no number) leaves no way to find the
 * next message: it is logged on stderr and the connection closed (exit 1), rather than a server alive
 * but deaf.
 */
export function runStdioServer(): void {
  const reader = new lsp.StreamMessageReader(process.stdin);
  const writer = new lsp.StreamMessageWriter(process.stdout);
  let closing = false;
  reader.onError((e) => {
    if (closing) return;
    closing = true;
    // The first line only: the library appends the headers it read, which are the client's bytes.
    const why = printable((e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '');
    process.stderr.write(`tollgate lsp: malformed message from the client (${why}): closing the connection\n`);
    process.exitCode = 1;
    connection.dispose();
    process.stdin.destroy();
    setImmediate(() => process.exit(1));
  });
  const connection = lsp.createConnection(lsp.ProposedFeatures.all, reader, writer);
  startLanguageServer(connection);
}
