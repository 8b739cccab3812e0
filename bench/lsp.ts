/**
 * Editor latency of `tollgate lsp`: the time from a keystroke (didChange of one character) to the
 * diagnostics it brings, over stdio with a real LSP client, on Debian's conf/web.xml (4,800 lines) and
 * on an application's web.xml of the same base (Debian's conf/ from /etc/tomcat10 when installed, else
 * the copy of Tomcat 10.1's conf/web.xml in the real-world corpus).
 *
 *   npx tsx bench/lsp.ts [--keys 100]
 *
 * Runs the built CLI (bin/tollgate.js): build first.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

const { values } = parseArgs({ options: { keys: { type: 'string', default: '100' } } });
const keys = Number(values.keys);
const repo = join(import.meta.dirname, '..');
const shared = process.env.TOLLGATE_SHARED ?? join(repo, '..', 'shared');

const base = mkdtempSync(join(tmpdir(), 'tg-bench-lsp-'));
mkdirSync(join(base, 'conf'));
mkdirSync(join(base, 'webapps', 'app', 'WEB-INF'), { recursive: true });
const debian = '/etc/tomcat10';
let conf: string;
if (existsSync(join(debian, 'web.xml'))) {
  for (const f of ['server.xml', 'web.xml', 'context.xml', 'tomcat-users.xml'])
    cpSync(join(debian, f), join(base, 'conf', f));
  conf = `Debian's /etc/tomcat10 (server.xml, web.xml, context.xml, tomcat-users.xml)`;
} else {
  cpSync(join(shared, 'corpus', 'real-world', 'tomcat-10.1.x-conf-web', 'web.xml'), join(base, 'conf', 'web.xml'));
  conf = "Tomcat 10.1's conf/web.xml from the real-world corpus";
}
const APP = `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <filter>
    <filter-name>cors</filter-name>
    <filter-class>org.apache.catalina.filters.CorsFilter</filter-class>
    <init-param><param-name>cors.allowed.origins</param-name><param-value>https://app.example.com</param-value></init-param>
  </filter>
  <filter-mapping><filter-name>cors</filter-name><url-pattern>/api/*</url-pattern></filter-mapping>
  <!-- typing here: -->
</web-app>
`;
writeFileSync(join(base, 'webapps', 'app', 'WEB-INF', 'web.xml'), APP);

const child = spawn(process.execPath, [join(repo, 'bin', 'tollgate.js'), 'lsp', '--stdio'], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const client = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
let waiting: { uri: string; resolve: () => void } | null = null;
client.onNotification('textDocument/publishDiagnostics', (p: { uri: string }) => {
  if (waiting && waiting.uri === p.uri) {
    const w = waiting;
    waiting = null;
    w.resolve();
  }
});
client.listen();
await client.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(base).href, capabilities: {} });
void client.sendNotification('initialized', {});

const published = (uri: string): Promise<void> => new Promise((resolve) => (waiting = { uri, resolve }));
let version = 1;

/** Milliseconds from each keystroke to its diagnostics, typing one character at a time into a comment. */
async function type(file: string): Promise<number[]> {
  const uri = pathToFileURL(file).href;
  let text = readFileSync(file, 'utf8');
  const opened = published(uri);
  void client.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'xml', version: version++, text },
  });
  await opened;
  const at = text.lastIndexOf('-->');
  const times: number[] = [];
  for (let i = 0; i < keys + 5; i++) {
    text = `${text.slice(0, at)}x${text.slice(at)}`;
    const done = published(uri);
    const t = performance.now();
    void client.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: version++ },
      contentChanges: [{ text }],
    });
    await done;
    if (i >= 5) times.push(performance.now() - t);
  }
  void client.sendNotification('textDocument/didClose', { textDocument: { uri } });
  return times;
}

const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
try {
  const rows: [string, number[], number][] = [
    ['conf/web.xml', await type(join(base, 'conf', 'web.xml')), 50],
    ['webapps/app/WEB-INF/web.xml', await type(join(base, 'webapps', 'app', 'WEB-INF', 'web.xml')), 10],
  ];
  console.log(`Base: ${conf}, one application; ${keys} keystrokes each, after 5 of warm-up.`);
  console.log('');
  console.log('| file edited | p50 ms | p95 ms | max ms | goal p95 |');
  console.log('|---|---|---|---|---|');
  for (const [name, t, goal] of rows)
    console.log(
      `| ${name} | ${pct(t, 50).toFixed(1)} | ${pct(t, 95).toFixed(1)} | ${Math.max(...t).toFixed(1)} | < ${goal} ms |`,
    );
} finally {
  await client.sendRequest('shutdown');
  void client.sendNotification('exit');
  client.dispose();
  rmSync(base, { recursive: true, force: true });
}
