/**
 * Tomcat's connectionTimeout covers reading the request, not processing it (issue 32, item 5): a handler
 * that takes longer than the timeout (a host-manager add or persist on a loaded machine) still answers
 * what it did, where the connector used to send 408 for a request it had run. A client that stops
 * sending a body the application waits for still gets 408, and an idle connection is closed.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONNECTOR_LIMITS, installConnectorHandlers, serverOptions } from '../../src/server/connector.js';

const TIMEOUT_MS = 200;
let server: http.Server | null = null;

afterEach(async () => {
  const s = server;
  server = null;
  if (s === null) return;
  s.closeAllConnections();
  await new Promise<void>((r) => s.close(() => r()));
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  const limits = { ...DEFAULT_CONNECTOR_LIMITS, connectionTimeout: TIMEOUT_MS, keepAliveTimeout: TIMEOUT_MS };
  const s = http.createServer(serverOptions(limits), handler);
  installConnectorHandlers(s, limits);
  server = s;
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

/** Sends `raw` and collects everything until the server closes (or `ms` passes). */
function exchange(port: number, raw: string, ms = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    let got = '';
    sock.setEncoding('latin1');
    sock.on('data', (d: string) => (got += d));
    sock.on('end', () => resolve(got));
    sock.on('close', () => resolve(got));
    sock.on('error', reject);
    sock.setTimeout(ms, () => {
      sock.destroy();
      resolve(got);
    });
    sock.write(raw);
  });
}

describe('connectionTimeout', () => {
  it('lets a request that was read whole finish however long it is processed, with its real answer', async () => {
    let ran = 0;
    const port = await listen((_req, res) => {
      // Five times the timeout, with nothing sent meanwhile.
      setTimeout(() => {
        ran++;
        res.end('OK - Configuration persisted\n');
      }, TIMEOUT_MS * 5);
    });
    const answer = await exchange(port, 'GET /slow HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(ran).toBe(1);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toMatch(/\r\n\r\nOK - Configuration persisted\n$/);
    expect(answer).not.toContain('408');
  });

  it('answers 408 when the client stops sending a body the application waits for', async () => {
    const port = await listen((req, res) => {
      req.resume();
      req.on('end', () => res.end('read\n'));
    });
    const answer = await exchange(
      port,
      'POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\nContent-Type: text/plain\r\n\r\nonly part',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it('closes a connection that sends nothing after its response (keep-alive idle)', async () => {
    const port = await listen((_req, res) => res.end('hi\n'));
    const answer = await exchange(port, 'GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nhi\n$/);
  });
});
