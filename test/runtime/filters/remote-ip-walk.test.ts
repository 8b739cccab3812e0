/**
 * RemoteIpFilter's walk over X-Forwarded-For against a model written the way
 * Tomcat's RemoteIpFilter.doFilter reads it (StringUtils.splitCommaSeparated,
 * then the entries from the last one back), over many generated header values:
 * odd spacing, empty entries, trailing commas and several header lines.
 */
import http from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { spec } from '../../../src/filters/remote-ip.js';
import { create } from '../../../src/runtime/filters/remote-ip.js';
import { createContextRuntime, exchangeOf, toNodeListener } from '../../../src/runtime/index.js';
import { declare } from './helpers.js';

const INTERNAL = /^(?:192\.168\.0\.10|192\.168\.0\.11)$/;
const TRUSTED = /^(?:proxy1|proxy2)$/;

/** Tomcat's walk, entry by entry: what the downstream handler should see. */
function model(peer: string, lines: string[]): { remoteAddr: string; xff: string | null; xfb: string | null } {
  const internalPeer = INTERNAL.test(peer);
  if (!internalPeer && !TRUSTED.test(peer))
    return { remoteAddr: peer, xff: lines.length === 0 ? null : lines.join(', '), xfb: null };
  const parts = lines.length === 0 ? [] : lines.join(', ').split(',');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  const entries = parts.map((p) => p.trim());
  const proxies: string[] = internalPeer ? [] : [peer];
  let remoteIp: string | null = null;
  let idx = entries.length - 1;
  for (; idx >= 0; idx--) {
    const current = entries[idx]!;
    remoteIp = current;
    if (INTERNAL.test(current)) continue;
    if (TRUSTED.test(current)) {
      proxies.push(current);
      continue;
    }
    idx--;
    break;
  }
  if (remoteIp === null) return { remoteAddr: peer, xff: lines.length === 0 ? null : lines.join(', '), xfb: null };
  return {
    remoteAddr: remoteIp,
    xff: idx < 0 ? null : entries.slice(0, idx + 1).join(','),
    xfb: proxies.length === 0 ? null : proxies.reverse().join(','),
  };
}

/** A small deterministic generator, so a failure names a reproducible case. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ENTRIES = [
  '140.211.11.130',
  '192.168.0.10',
  '192.168.0.11',
  'proxy1',
  'proxy2',
  '',
  ' ',
  '\t10.0.0.1 ',
  'unknown',
];
const SEPARATORS = [',', ', ', ' ,', ' , ', ',,', ',\t'];

function headerValue(rand: () => number): string {
  const n = Math.floor(rand() * 5);
  let v = rand() < 0.15 ? SEPARATORS[Math.floor(rand() * SEPARATORS.length)]! : '';
  for (let i = 0; i < n; i++) {
    if (i > 0) v += SEPARATORS[Math.floor(rand() * SEPARATORS.length)]!;
    v += ENTRIES[Math.floor(rand() * ENTRIES.length)]!;
  }
  if (rand() < 0.15) v += rand() < 0.5 ? ',' : ', ,';
  return v;
}

describe("RemoteIpFilter: the walk over X-Forwarded-For agrees with Tomcat's entry-by-entry reading", () => {
  it('for 3000 generated header values, peers internal, trusted and neither', () => {
    const filter = declare(spec, create, {
      internalProxies: INTERNAL.source.slice(1, -1),
      trustedProxies: TRUSTED.source.slice(1, -1),
      proxiesHeader: 'x-forwarded-by',
    });
    let seen: { remoteAddr: string; xff: string | null; xfb: string | null } | null;
    const listener = toNodeListener(createContextRuntime({ filters: [filter] }), (req, res) => {
      const r = exchangeOf(req)!.request;
      seen = { remoteAddr: r.remoteAddr, xff: r.getHeader('x-forwarded-for'), xfb: r.getHeader('x-forwarded-by') };
      res.end();
    });
    const rand = lcg(4);
    for (let i = 0; i < 3000; i++) {
      const peer = ['192.168.0.10', 'proxy2', '127.0.0.1'][i % 3]!;
      const lines: string[] = [];
      const count = rand() < 0.2 ? 2 : rand() < 0.1 ? 0 : 1;
      for (let k = 0; k < count; k++) lines.push(headerValue(rand));
      const socket = new Socket();
      Object.defineProperty(socket, 'remoteAddress', { value: peer });
      const req = new http.IncomingMessage(socket);
      req.method = 'GET';
      req.url = '/x';
      req.httpVersion = '1.1';
      const raw = ['Host', 'localhost'];
      for (const l of lines) raw.push('X-Forwarded-For', l);
      (req as unknown as { _addHeaderLines(h: string[], n: number): void })._addHeaderLines(raw, raw.length);
      seen = null;
      listener(req, new http.ServerResponse(req));
      expect({ case: i, lines, ...seen! }).toEqual({ case: i, lines, ...model(peer, lines) });
    }
  });
});
