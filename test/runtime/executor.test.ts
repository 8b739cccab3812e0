import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createContextRuntime,
  exchangeOf,
  setLogSink,
  type Exchange,
  type FilterInitContext,
  type LogRecord,
  type RuntimeFilter,
} from '../../src/runtime/index.js';
import { request, serve } from './serve.js';

function trail(ex: Exchange): string[] {
  let t = ex.request.getAttribute('trail') as string[] | undefined;
  if (t === undefined) ex.request.setAttribute('trail', (t = []));
  return t;
}

function recording(name: string): RuntimeFilter {
  return {
    name,
    doFilter(ex, next) {
      trail(ex).push(name);
      return next();
    },
  };
}

function reportTrail(req: IncomingMessage, res: ServerResponse): void {
  const ex = exchangeOf(req)!;
  trail(ex).push('downstream');
  res.end(trail(ex).join(','));
}

let logs: LogRecord[] = [];
beforeEach(() => {
  logs = [];
  setLogSink((r) => logs.push(r));
});
afterEach(() => setLogSink(null));

describe('the chain executor', () => {
  it('runs the filters selectChain picks, in its order, then downstream', async () => {
    const s = await serve(
      {
        filters: [recording('A'), recording('B'), recording('C')],
        selectChain: (ex) => (ex.request.servletPath === '/two' ? [2, 0] : [0, 1, 2]),
      },
      reportTrail,
    );
    try {
      expect((await request(s, '/all')).body).toBe('A,B,C,downstream');
      expect((await request(s, '/two')).body).toBe('C,A,downstream');
    } finally {
      await s.close();
    }
  });

  it('goes straight downstream for an empty chain', async () => {
    const s = await serve({ filters: [recording('A')], selectChain: () => [] }, reportTrail);
    try {
      expect((await request(s, '/')).body).toBe('downstream');
    } finally {
      await s.close();
    }
  });

  it('stops when a filter answers without calling next: later filters and downstream do not run', async () => {
    let downstream = 0;
    const deny: RuntimeFilter = { name: 'Deny', doFilter: (ex) => void ex.response.sendError(403) };
    const s = await serve({ filters: [recording('A'), deny, recording('C')] }, (_req, res) => {
      downstream++;
      res.end();
    });
    try {
      expect((await request(s, '/')).status).toBe(403);
      expect(downstream).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('completes the response (200, empty) when a filter returns without answering or continuing, as a container does', async () => {
    const s = await serve({ filters: [{ name: 'Silent', doFilter: () => undefined }] }, reportTrail);
    try {
      expect(await request(s, '/')).toMatchObject({ status: 200, body: '' });
    } finally {
      await s.close();
    }
  });

  it('keeps synchronous chains synchronous: downstream runs before the middleware call returns', async () => {
    let inside = false;
    let sawInside: boolean | null = null;
    const mw = createContextRuntime({ filters: [recording('A'), recording('B')] });
    const http = await import('node:http');
    const server = http.createServer((req, res) => {
      inside = true;
      mw(req, res, () => {
        sawInside = inside;
        res.end();
      });
      inside = false;
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as import('node:net').AddressInfo).port;
      await request({ mw, port, host: '127.0.0.1', close: async () => undefined }, '/');
      expect(sawInside).toBe(true);
    } finally {
      mw.destroy();
      server.close();
    }
  });

  it('awaits async filters, and code after `await next()` runs once the rest of the chain has', async () => {
    const outer: RuntimeFilter = {
      name: 'Outer',
      async doFilter(ex, next) {
        await Promise.resolve();
        trail(ex).push('outer-before');
        await next();
        trail(ex).push('outer-after');
        ex.res.end(trail(ex).join(','));
      },
    };
    const inner: RuntimeFilter = {
      name: 'Inner',
      async doFilter(ex, next) {
        await new Promise<void>((r) => setImmediate(r));
        trail(ex).push('inner');
        return next();
      },
    };
    // Downstream leaves the response to the outer filter, which answers after `await next()`.
    const s = await serve(
      { filters: [outer, recording('sync'), inner] },
      (req) => void trail(exchangeOf(req)!).push('downstream'),
    );
    try {
      expect((await request(s, '/')).body).toBe('outer-before,sync,inner,downstream,outer-after');
    } finally {
      await s.close();
    }
  });

  it('turns a thrown error into a logged 500 that names the filter', async () => {
    const boom: RuntimeFilter = {
      name: 'Boom',
      doFilter() {
        throw new Error('kaboom');
      },
    };
    const s = await serve({ filters: [recording('A'), boom, recording('C')] }, reportTrail);
    try {
      const r = await request(s, '/x');
      expect(r.status).toBe(500);
      expect(r.body).toContain('HTTP Status 500');
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({
        level: 'SEVERE',
        logger: 'tollgate.runtime.ContextRuntime',
        message: 'Filter [Boom] threw an exception processing [/x]',
      });
      expect(String(logs[0]!.error)).toContain('kaboom');
    } finally {
      await s.close();
    }
  });

  it('turns a rejected promise into a logged 500, and the filter before it continues normally', async () => {
    const outerSaw: string[] = [];
    const outer: RuntimeFilter = {
      name: 'Outer',
      async doFilter(_ex, next) {
        await next();
        outerSaw.push('resumed');
      },
    };
    const reject: RuntimeFilter = {
      name: 'Reject',
      async doFilter() {
        await Promise.resolve();
        throw new Error('async kaboom');
      },
    };
    const s = await serve({ filters: [outer, reject] }, reportTrail);
    try {
      expect((await request(s, '/')).status).toBe(500);
      expect(outerSaw).toEqual(['resumed']);
      expect(logs.map((l) => l.message)).toEqual(['Filter [Reject] threw an exception processing [/]']);
    } finally {
      await s.close();
    }
  });

  it('runs downstream once even when a filter calls next twice', async () => {
    let downstream = 0;
    const twice: RuntimeFilter = {
      name: 'Twice',
      doFilter(_ex, next) {
        void next();
        void next();
      },
    };
    const s = await serve({ filters: [twice, recording('B')] }, (req, res) => {
      downstream++;
      reportTrail(req, res);
    });
    try {
      expect((await request(s, '/')).body).toBe('B,downstream');
      expect(downstream).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('leaves the downstream response alone when a filter fails after downstream took over', async () => {
    const late: RuntimeFilter = {
      name: 'Late',
      doFilter(_ex, next) {
        void next();
        throw new Error('after next');
      },
    };
    const s = await serve({ filters: [late] }, (_req, res) => {
      setImmediate(() => res.end('from downstream'));
    });
    try {
      expect(await request(s, '/')).toMatchObject({ status: 200, body: 'from downstream' });
      expect(logs[0]?.message).toBe('Filter [Late] threw an exception processing [/]');
    } finally {
      await s.close();
    }
  });

  it('answers 500 when the downstream handler throws synchronously, and when selectChain throws', async () => {
    const s = await serve({ filters: [recording('A')] }, () => {
      throw new Error('handler broke');
    });
    const t = await serve({
      filters: [recording('A')],
      selectChain: () => {
        throw new Error('no chain');
      },
    });
    try {
      expect((await request(s, '/')).status).toBe(500);
      expect((await request(t, '/')).status).toBe(500);
      expect(logs.map((l) => l.message)).toEqual([
        'The handler after the filter chain threw an exception processing [/]',
        'Selecting the filter chain failed for [/]',
      ]);
    } finally {
      await s.close();
      await t.close();
    }
  });
});

describe('filter declarations and lifecycle', () => {
  it('builds declared filters with their name, context, settings and a logger named by the class, and destroys them', async () => {
    let seen: FilterInitContext | undefined;
    let destroyed = 0;
    const factory = (config: { header: string }, ctx: FilterInitContext): RuntimeFilter => {
      seen = ctx;
      return {
        name: 'HeaderFilter',
        doFilter(ex, next) {
          ex.response.setHeader(config.header, ctx.filterName);
          return next();
        },
        destroy: () => void destroyed++,
      };
    };
    const s = await serve(
      {
        contextPath: '/ctx',
        sessionTimeoutMinutes: 5,
        filters: [
          { filterName: 'myHeader', className: 'org.example.HeaderFilter', factory, config: { header: 'x-filter' } },
        ],
      },
      reportTrail,
    );
    try {
      expect((await request(s, '/ctx/')).headers['x-filter']).toBe('myHeader');
      expect(seen).toMatchObject({
        filterName: 'myHeader',
        contextPath: '/ctx',
        settings: { sessionTimeoutMinutes: 5, maxParameterCount: 1000, maxPostSize: 2097152 },
      });
      expect(seen!.logger.name).toBe('org.example.HeaderFilter');
    } finally {
      await s.close();
    }
    expect(destroyed).toBe(1);
  });

  it('rejects invalid options with a TypeError that says what is wrong', () => {
    expect(() => createContextRuntime({ contextPath: 'app' })).toThrow(/contextPath must be/);
    expect(() => createContextRuntime({ contextPath: '/app/' })).toThrow(TypeError);
    expect(() => createContextRuntime({ uriEncoding: 'nope' })).toThrow(/uriEncoding/);
    expect(() => createContextRuntime({ filters: [{} as RuntimeFilter] })).toThrow(/filters\[0\] has no doFilter/);
    expect(() => createContextRuntime({ sessionCookie: { sameSite: 'Loose' as 'Lax' } })).toThrow(/sameSite/);
  });

  it('lets a failing factory stop the context, as Tomcat refuses to start it', () => {
    const factory = () => {
      throw new Error('bad config');
    };
    expect(() => createContextRuntime({ filters: [{ filterName: 'f', className: 'X', factory, config: {} }] })).toThrow(
      'bad config',
    );
  });
});
