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
import type * as Docs from 'vscode-languageserver-textdocument';
import { toolVersion } from '../lint/docs.js';
import { effectOf } from '../lint/severity.js';
import { ParseCache } from '../parser/index.js';
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
import { check, inputOf, type CheckResult, type CheckSettings } from './workspace.js';

// Loaded through require when the server starts, so the CLI bundle (every other command) never parses them.
const require = createRequire(import.meta.url);
const lsp = require('vscode-languageserver/node') as typeof Lsp;
const { CodeActionKind, DiagnosticSeverity, TextDocuments, TextDocumentSyncKind } = lsp;
const { TextDocument } = require('vscode-languageserver-textdocument') as typeof Docs;

/** How long an input's buffers must stay unchanged before it is linted again. */
const QUIET_MS = 150;

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

/** Wires the server's handlers to a connection (stdio for `tollgate lsp`, streams in tests). */
export function startLanguageServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  let settings: CheckSettings = {};
  /** The last lint of each input, and which files of it had findings published. */
  const results = new Map<string, CheckResult>();
  const published = new Map<string, Set<string>>();
  const pending = new Map<string, NodeJS.Timeout>();
  /** How many lints ran (the coalescing test counts them: tests assert work, never wall-clock time). */
  let lintRuns = 0;
  /** Parse results per input, kept between lints: a keystroke re-parses only the file it changed. */
  const caches = new Map<string, ParseCache>();

  const safely = <T>(what: string, fallback: T, fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      connection.console.error(`tollgate: ${what} failed: ${e instanceof Error ? e.message : String(e)}`);
      return fallback;
    }
  };

  const overlay = (): Map<string, Uint8Array> => {
    const m = new Map<string, Uint8Array>();
    for (const d of documents.all()) {
      const p = pathOf(d.uri);
      if (p) m.set(p, Buffer.from(d.getText(), 'utf8'));
    }
    return m;
  };

  /** Lints the input of `path` and publishes the findings of every open document of that input. */
  const lint = (path: string): void => {
    lintRuns++;
    const root = inputOf(path);
    let cache = caches.get(root);
    if (!cache) caches.set(root, (cache = new ParseCache()));
    const result = safely(`checking ${path}`, null, () => check(path, overlay(), settings, cache));
    if (!result) return;
    results.set(root, result);
    const open = new Set(
      documents
        .all()
        .map((d) => pathOf(d.uri))
        .filter((p): p is string => p !== null && inputOf(p) === root),
    );
    const before = published.get(root) ?? new Set<string>();
    const now = new Set<string>();
    for (const file of open) {
      void connection.sendDiagnostics({
        uri: pathToFileURL(file).href,
        diagnostics: (result.byFile.get(file) ?? []).map(toLsp),
      });
      now.add(file);
    }
    for (const file of before)
      if (!now.has(file)) void connection.sendDiagnostics({ uri: pathToFileURL(file).href, diagnostics: [] });
    published.set(root, now);
  };

  // Edits are coalesced per input: each change restarts a short quiet period, and only when it passes is
  // the input linted, from the latest text of every open buffer. A burst of keystrokes on a 7 MB file is
  // one lint after the last of them, not one per keystroke (100 keystrokes were 17 s of lag). A lint is
  // synchronous, so a scheduled run that a newer change replaced never starts: the stale run is the timer
  // cleared here.
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
        lint(path);
      }, QUIET_MS),
    );
  };

  /** The last parse of each open document, by version: hover and completion do not parse the same text again. */
  const parses = new Map<string, { version: number; parsed: ParsedDocument | null }>();
  const parsed = (uri: string): ParsedDocument | null => {
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

  const globalWebXml = (path: string): ParsedDocument | null => {
    const root = inputOf(path);
    const g = results.get(root)?.base.globalWebXml;
    if (!g) return null;
    const open = documents.get(pathToFileURL(g.file).href);
    if (open) return parseDocument(g.file, open.getText());
    const source = results.get(root)?.files.get(g.file);
    return source
      ? parseDocument(g.file, source.text)
      : safely('reading conf/web.xml', null, () => {
          const read = readTextInScope(g.file, scopeOf(results.get(root)!.base));
          return 'text' in read ? parseDocument(g.file, read.text) : null;
        });
  };

  connection.onInitialize((params): InitializeResult => {
    const init = (params.initializationOptions ?? {}) as CheckSettings;
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
      const p = parsed(params.textDocument.uri);
      const d = documents.get(params.textDocument.uri);
      if (!p || !d) return null;
      const root = inputOf(p.path);
      const text = hover(
        p,
        d.offsetAt(params.position),
        results.get(root)?.contexts() ?? [],
        results.get(root)?.root ?? root,
      );
      return text ? { contents: { kind: 'markdown', value: text } } : null;
    }),
  );

  connection.onCompletion((params) =>
    safely('completion', [], () => {
      const p = parsed(params.textDocument.uri);
      const d = documents.get(params.textDocument.uri);
      if (!p || !d) return [];
      const g = globalWebXml(p.path);
      const globalNames =
        g && g.path !== p.path
          ? (g.doc.root?.children ?? [])
              .filter((c) => c.name === 'filter')
              .map((c) => c.children.find((x) => x.name === 'filter-name')?.text.trim() ?? '')
              .filter(Boolean)
          : [];
      return complete(p, d.offsetAt(params.position), globalNames).map((c) => ({
        label: c.label,
        ...(c.detail ? { detail: c.detail } : {}),
        ...(c.documentation ? { documentation: c.documentation } : {}),
      }));
    }),
  );

  connection.onDefinition((params) =>
    safely('definition', null, () => {
      const p = parsed(params.textDocument.uri);
      const d = documents.get(params.textDocument.uri);
      if (!p || !d) return null;
      const target = definition(p, d.offsetAt(params.position), globalWebXml(p.path));
      if (!target) return null;
      const uri = pathToFileURL(target.path).href;
      let text = p.text;
      if (target.path !== p.path && !documents.get(uri)) {
        const base = results.get(inputOf(p.path))?.base;
        const read = base ? readTextInScope(target.path, scopeOf(base)) : null;
        if (!read || !('text' in read)) return null;
        text = read.text;
      }
      const doc = documents.get(uri) ?? TextDocument.create(uri, 'xml', 0, text);
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
  });

  // tollgate/lintRuns: how many lints ran, for tests that count work instead of timing it.
  connection.onRequest('tollgate/lintRuns', () => lintRuns);

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
