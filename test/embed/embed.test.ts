import http from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createConnectorServer,
  createContextChain,
  createContextStaticHandler,
  planCatalinaBase,
  toNodeListener,
} from '../../src/embed/index.js';

const BASE = join(import.meta.dirname, '..', '..', 'examples', 'embed', 'base');

function get(
  server: http.Server,
  path: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      http
        .get({ host: '127.0.0.1', port, path }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => server.close(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body })));
        })
        .on('error', reject);
    });
  });
}

describe('planCatalinaBase: what Tomcat would run, without a server', () => {
  const base = planCatalinaBase(BASE);
  it('finds the started contexts, the connector limits and the host report', () => {
    expect(base.contexts.map((c) => [c.contextPath, c.state])).toEqual([['/api', 'starts']]);
    const api = base.context('/api')!;
    expect(api.filters.map((f) => f.className)).toEqual([
      'org.apache.catalina.filters.HttpHeaderSecurityFilter',
      'org.apache.catalina.filters.ExpiresFilter',
    ]);
    expect(base.context('/nope')).toBeNull();
    expect(base.connector.maxParameterCount).toBe(100);
    expect(base.connector.connectionTimeout).toBe(20000);
    expect(base.errorReport('localhost', 'X')(404, null)!.body).toContain('<h3>X</h3>');
  });

  it("a context's chain mounted at its root (contextPathInUrl: false), with the static handler as its servlet", async () => {
    const api = base.context('/api')!;
    const chain = createContextChain(api, { contextPathInUrl: false, connector: base.connector });
    const files = createContextStaticHandler(api, chain);
    try {
      const r = await get(
        createConnectorServer(
          base.connector,
          toNodeListener(chain, (req, res) => void files(req, res)),
        ),
        '/missing.txt',
      );
      expect(r.status).toBe(404);
      expect(r.headers['x-frame-options']).toBe('DENY');
      expect(r.body).toContain('The requested resource [&#47;api&#47;missing.txt] is not available');
    } finally {
      chain.destroy();
    }
  });

  it('refuses what is not a plan', () => {
    expect(() => createContextChain(null as never)).toThrow(TypeError);
  });
});
