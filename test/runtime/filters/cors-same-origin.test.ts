/**
 * CorsFilter's same-origin test (RequestUtil.isSameOrigin) against a model
 * that builds scheme://serverName[:port] as Tomcat does and compares strings,
 * over generated origins, schemes, host names and ports.
 */
import { describe, expect, it } from 'vitest';
import { classifyCorsRequest } from '../../../src/runtime/filters/cors.js';
import { isValidOrigin } from '../../../src/runtime/filters/java-uri.js';
import type { Exchange } from '../../../src/runtime/index.js';

function modelSameOrigin(scheme: string, serverName: string, port: number, origin: string): boolean {
  const s = scheme.toLowerCase();
  const target = `${s}://${serverName}`;
  if (target.length === origin.length) {
    const nonDefault =
      ((s === 'http' || s === 'ws') && port !== 80) || ((s === 'https' || s === 'wss') && port !== 443);
    return nonDefault ? false : origin === target;
  }
  return origin === `${target}:${port}`;
}

/** Just what classifyCorsRequest reads of an exchange. */
function exchange(scheme: string, serverName: string, serverPort: number, origin: string): Exchange {
  const request = {
    scheme,
    serverName,
    serverPort,
    method: 'GET',
    contentType: null,
    getHeader: (name: string) => (name.toLowerCase() === 'origin' ? origin : null),
    headerLowerCased: (name: string) => (name === 'origin' ? origin : null),
    getHeaders: (name: string) => (name.toLowerCase() === 'origin' ? [origin] : []),
  };
  return { request } as unknown as Exchange;
}

describe('CorsFilter: same-origin requests are not CORS, exactly as RequestUtil.isSameOrigin decides', () => {
  it('for every combination of generated schemes, hosts, ports and origins', () => {
    const schemes = ['http', 'https', 'HTTP', 'ws', 'wss', 'ftp'];
    const hosts = ['a.example', 'localhost', '127.0.0.1', '[::1]', 'a.exampl'];
    const ports = [80, 443, 8080, 8443, -1, 0, 65535];
    const origins: string[] = [];
    for (const s of ['http', 'https', 'ws', 'wss', 'ftp', 'HTTP']) {
      for (const h of hosts) {
        origins.push(`${s}://${h}`, `${s}://${h}/`, `${s}://${h}.`);
        for (const p of ['80', '443', '8080', '8443', '-1', '0', '65535', '080', '', '8080x'])
          origins.push(`${s}://${h}:${p}`, `${s}://${h}.${p}`, `${s}://${h}e${p}`);
      }
    }
    let same = 0;
    let compared = 0;
    for (const scheme of schemes) {
      for (const host of hosts) {
        for (const port of ports) {
          for (const origin of origins) {
            const expected = modelSameOrigin(scheme, host, port, origin);
            if (expected) same++;
            // An origin java.net.URI refuses is invalid before anything else; a cross-origin GET is SIMPLE.
            const type = !isValidOrigin(origin) ? 'INVALID_CORS' : expected ? 'NOT_CORS' : 'SIMPLE';
            const got = classifyCorsRequest(exchange(scheme, host, port, origin));
            compared++;
            // expect() only on a difference: 207,900 calls of it cost most of this test's CPU time.
            if (got !== type)
              expect({ scheme, host, port, origin, type: got }).toEqual({ scheme, host, port, origin, type });
          }
        }
      }
    }
    expect(compared).toBe(schemes.length * hosts.length * ports.length * origins.length);
    // The generated cases reach both answers, with and without a port.
    expect(same).toBeGreaterThan(100);
  });
});
