/**
 * serverName and serverPort from the Host header against a model written with
 * lastIndexOf (the port follows the last ':' after the last ']'), over every
 * Host value of up to 6 characters from an alphabet of the characters that matter.
 */
import http from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createContextRuntime, exchangeOf, toNodeListener } from '../../src/runtime/index.js';
import { allStrings } from './strings.js';

function model(host: string): { serverName: string; serverPort: number } {
  const close = host.lastIndexOf(']');
  const colon = host.lastIndexOf(':');
  const rest = colon > close ? host.slice(colon + 1) : null;
  const digits = rest !== null && /^\d+$/.test(rest) ? Number(rest) : -1;
  if (digits >= 0) return { serverName: host.slice(0, colon), serverPort: digits };
  return { serverName: colon > close ? host.slice(0, colon) : host, serverPort: 80 };
}

describe('ExchangeRequest: serverName and serverPort from the Host header', () => {
  it('agree with the lastIndexOf reading for every Host of up to 6 characters over "a", "1", ":", "[", "]", "."', () => {
    let seen: { serverName: string; serverPort: number } | null;
    const listener = toNodeListener(createContextRuntime({}), (req, res) => {
      const r = exchangeOf(req)!.request;
      seen = { serverName: r.serverName, serverPort: r.serverPort };
      res.end();
    });
    const socket = new Socket();
    const hosts = allStrings(['a', '1', ':', '[', ']', '.'], 6);
    for (const host of hosts) {
      const req = new http.IncomingMessage(socket);
      req.method = 'GET';
      req.url = '/x';
      req.httpVersion = '1.1';
      (req as unknown as { _addHeaderLines(h: string[], n: number): void })._addHeaderLines(['Host', host], 2);
      seen = null;
      listener(req, new http.ServerResponse(req));
      const want = model(host);
      if (seen!.serverName !== want.serverName || seen!.serverPort !== want.serverPort)
        expect({ host, ...seen! }).toEqual({ host, ...want });
    }
    expect(hosts.length).toBe(55_986);
  });
});
