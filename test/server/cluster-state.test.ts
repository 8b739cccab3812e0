import { describe, expect, it } from 'vitest';
import { createContextRuntime } from '../../src/runtime/context.js';
import { filterDeclaration } from '../../src/runtime/plan-options.js';
import { newSessionRecord } from '../../src/runtime/session.js';
import {
  ClusterStateBackend,
  primaryStore,
  StateClient,
  StateHost,
  type StateCall,
} from '../../src/server/cluster-state.js';
import { filterSpecById, plannedFilter } from '../../src/filters/index.js';
import { listen } from './http.js';

/** One primary and `n` workers' backends; every batch goes through structured clone, as node:cluster's advanced serialization carries it. */
function cluster(n: number): { workers: ClusterStateBackend[]; batches: StateCall[][]; host: StateHost } {
  const host = new StateHost(primaryStore);
  const batches: StateCall[][] = [];
  const workers = Array.from(
    { length: n },
    () =>
      new ClusterStateBackend(
        new StateClient(async (calls) => {
          batches.push(calls);
          return structuredClone(await host.run(structuredClone(calls)));
        }),
      ),
  );
  return { workers, batches, host };
}

const POLICY = { failureCount: 3, lockOutTime: 300, cacheSize: 1000 };

describe('state kept in the cluster primary', () => {
  it('gives every worker the same session: created on one, loaded, changed and renamed on another', async () => {
    const {
      workers: [a, b],
    } = cluster(2);
    const sa = a!.context('localhost', '/app').sessions;
    const sb = b!.context('LocalHost', '/app').sessions;
    const record = newSessionRecord('A'.repeat(32), 1_000, 1800);
    record.attributes.set('user', { name: 'ada' });
    await sa.create(record);
    const loaded = (await sb.load('A'.repeat(32), 2_000))!;
    expect(loaded.attributes.get('user')).toEqual({ name: 'ada' });
    expect(loaded.lastAccessedTime).toBe(2_000);
    await sb.update(
      { ...loaded, maxInactiveInterval: 60 },
      new Map<string, unknown>([
        ['cart', 3],
        ['user', undefined],
      ]),
    );
    await sa.addNonce('A'.repeat(32), 'N1', 2);
    await sb.addNonce('A'.repeat(32), 'N2', 2);
    await sa.addNonce('A'.repeat(32), 'N3', 2);
    expect(await sb.restToken('A'.repeat(32), 'T1')).toBe('T1');
    expect(await sa.restToken('A'.repeat(32), 'T2')).toBe('T1');
    expect(await sa.rename('A'.repeat(32), 'B'.repeat(32))).toBe(true);
    expect(await sb.load('A'.repeat(32), 3_000)).toBeNull();
    const moved = (await sb.load('B'.repeat(32), 3_000))!;
    expect([...moved.attributes]).toEqual([['cart', 3]]);
    expect(moved.maxInactiveInterval).toBe(60);
    expect(moved.nonces).toEqual(['N2', 'N3']);
    expect(moved.restToken).toBe('T1');
    await sb.remove('B'.repeat(32));
    expect(await sa.load('B'.repeat(32), 3_000)).toBeNull();
  });

  it('keeps contexts, hosts and filters apart', async () => {
    const {
      workers: [a],
    } = cluster(1);
    await a!.context('localhost', '/app').sessions.create(newSessionRecord('C'.repeat(32), 0, 60));
    expect(await a!.context('localhost', '/other').sessions.load('C'.repeat(32), 1)).toBeNull();
    expect(await a!.context('partners.localhost', '/app').sessions.load('C'.repeat(32), 1)).toBeNull();
    const one = a!.context('localhost', '/app').rateLimiter('one');
    const two = a!.context('localhost', '/app').rateLimiter('two');
    expect(await one.increment('127.0.0.1', 7, 1024)).toBe(1);
    expect(await two.increment('127.0.0.1', 7, 1024)).toBe(1);
  });

  it('counts a client once across workers, and locks a user out on every worker', async () => {
    const {
      workers: [a, b],
    } = cluster(2);
    const counts = [];
    for (let i = 0; i < 6; i++)
      counts.push(
        await (i % 2 ? b! : a!).context('localhost', '').rateLimiter('limit').increment('203.0.113.9', 42, 65_536),
      );
    expect(counts).toEqual([1, 2, 3, 4, 5, 6]);
    const la = a!.lockouts('engine', POLICY);
    const lb = b!.lockouts('engine', POLICY);
    await la.registerFailure('admin', 1_000, POLICY);
    await lb.registerFailure('admin', 2_000, POLICY);
    expect(await la.registerFailure('admin', 3_000, POLICY)).toEqual({ failures: 3, lastFailure: 3_000 });
    expect(await lb.get('admin')).toEqual({ failures: 3, lastFailure: 3_000 });
    await la.clear('admin');
    expect(await lb.get('admin')).toBeNull();
  });

  it('sends what one request asks at once as one message', async () => {
    const {
      workers: [a],
      batches,
    } = cluster(1);
    const stores = a!.context('localhost', '/app');
    await Promise.all([
      stores.sessions.load('D'.repeat(32), 1),
      stores.rateLimiter('limit').increment('127.0.0.1', 1, 1024),
      a!.lockouts('engine', POLICY).get('x'),
    ]);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(3);
  });

  it('takes one round trip for a request through RateLimitFilter and RestCsrfPreventionFilter with a session', async () => {
    const {
      workers: [a],
      batches,
    } = cluster(1);
    const spec = (id: string, params: Record<string, string>) => {
      const s = filterSpecById(id)!;
      return filterDeclaration(plannedFilter(id, s.classNames[0]!, s, s.schema.parse(params)));
    };
    const mw = createContextRuntime({
      contextPath: '',
      stores: a!.context('localhost', ''),
      filters: [spec('rate-limit', { bucketRequests: '100' }), spec('rest-csrf-prevention', {})],
    });
    const server = await listen((req, res) => mw(req, res, () => res.end('ok')));
    try {
      const fetched = await fetch(`http://127.0.0.1:${server.port}/x`, { headers: { 'X-CSRF-Token': 'Fetch' } });
      const cookie = fetched.headers.get('set-cookie')!.split(';')[0]!;
      const token = fetched.headers.get('x-csrf-token')!;
      batches.length = 0;
      const post = await fetch(`http://127.0.0.1:${server.port}/x`, {
        method: 'POST',
        headers: { Cookie: cookie, 'X-CSRF-Token': token },
      });
      expect(post.status).toBe(200);
      expect(await post.text()).toBe('ok');
      expect(batches.map((b) => b.map((c) => c.method))).toEqual([['load', 'increment']]);
    } finally {
      await server.close();
      mw.destroy();
    }
  });

  it('fails only the call that failed, and every call of a batch the primary never answered', async () => {
    const {
      workers: [a],
    } = cluster(1);
    const host = new StateHost(primaryStore);
    await expect(host.run([{ target: '["nothing"]', method: 'load', args: [] }])).resolves.toEqual([
      { ok: false, message: 'no such store: ["nothing"]' },
    ]);
    const gone = new ClusterStateBackend(new StateClient(() => Promise.reject(new Error('worker 1 exited')))).context(
      'localhost',
      '',
    );
    await expect(
      Promise.all([gone.sessions.load('E'.repeat(32), 1), gone.rateLimiter('x').increment('a', 1, 1)]),
    ).rejects.toThrow('worker 1 exited');
    expect(await a!.context('localhost', '').sessions.load('E'.repeat(32), 1)).toBeNull();
  });
});
