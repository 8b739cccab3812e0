/**
 * Plumbing for the hostile-traffic tests: a copy of examples/base (the
 * example `npm start` serves) with a few Connector attributes changed and a
 * `/forms` application behind FailedRequestFilter, and a raw-socket client
 * that sends bytes node:http clients refuse to send.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const EXAMPLE_BASE = fileURLToPath(new URL('../../examples/base', import.meta.url));

const FORMS_WEB_XML = `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <filter>
    <filter-name>failedRequest</filter-name>
    <filter-class>org.apache.catalina.filters.FailedRequestFilter</filter-class>
  </filter>
  <filter-mapping>
    <filter-name>failedRequest</filter-name>
    <url-pattern>/*</url-pattern>
  </filter-mapping>
</web-app>
`;

/**
 * A temporary copy of examples/base. `connector` replaces the HTTP
 * Connector's attributes after `protocol` (the example sets
 * connectionTimeout="20000"); `forms` adds webapps/forms with FailedRequestFilter.
 */
export function exampleBase(opts: { connector?: string; forms?: boolean } = {}): string {
  const base = mkdtempSync(join(tmpdir(), 'tg-hardening-'));
  cpSync(EXAMPLE_BASE, base, { recursive: true });
  if (opts.connector !== undefined) {
    const file = join(base, 'conf', 'server.xml');
    const xml = readFileSync(file, 'utf8');
    const patched = xml.replace(/connectionTimeout="20000"/, opts.connector);
    if (patched === xml) throw new Error('examples/base server.xml no longer has connectionTimeout="20000"');
    writeFileSync(file, patched);
  }
  if (opts.forms === true) {
    mkdirSync(join(base, 'webapps', 'forms', 'WEB-INF'), { recursive: true });
    writeFileSync(join(base, 'webapps', 'forms', 'index.html'), 'form app\n');
    writeFileSync(join(base, 'webapps', 'forms', 'WEB-INF', 'web.xml'), FORMS_WEB_XML);
  }
  return base;
}

export interface RawReply {
  /** The status code, or null when the server closed without answering. */
  status: number | null;
  /** The response head (status line and headers). */
  head: string;
  body: string;
  /** Whether the server closed the connection before `waitMs`. */
  closed: boolean;
  /** Milliseconds from sending to the close (or to giving up). */
  ms: number;
  /** How many of the chunks were written before the connection closed. */
  written: number;
}

/**
 * Sends `chunks` on a fresh connection, `gapMs` apart, and collects what
 * comes back until the server closes or `waitMs` passes (a hang guard: every
 * caller expects the server to close, so a loaded machine only waits longer).
 */
export function rawRequest(
  port: number,
  chunks: string | Buffer | readonly (string | Buffer)[],
  opts: { waitMs?: number; gapMs?: number } = {},
): Promise<RawReply> {
  const list = typeof chunks === 'string' || Buffer.isBuffer(chunks) ? [chunks] : chunks;
  const waitMs = opts.waitMs ?? 60_000;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    const started = Date.now();
    const timers: NodeJS.Timeout[] = [];
    let done = false;
    let written = 0;
    const finish = (closed: boolean): void => {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      socket.destroy();
      const text = Buffer.concat(received).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const head = end < 0 ? text : text.slice(0, end);
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      resolve({
        status: m ? Number(m[1]) : null,
        head,
        body: end < 0 ? '' : text.slice(end + 4),
        closed,
        ms: Date.now() - started,
        written,
      });
    };
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    list.forEach((chunk, i) => {
      timers.push(
        setTimeout(
          () => {
            if (!socket.destroyed && !done) {
              socket.write(chunk);
              written++;
            }
          },
          i * (opts.gapMs ?? 0),
        ),
      );
    });
    timers.push(setTimeout(() => finish(false), waitMs));
  });
}

/** A GET on a fresh connection that asks the server to close afterwards. */
export function get(path: string, headers = ''): string {
  return `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}Connection: close\r\n\r\n`;
}
