import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { SelectorTable } from '../../src/protocol/chain-selector.js';
import { exchangeOf, forward, include, sendException, type RuntimeFilter } from '../../src/runtime/index.js';
import { request, serve } from './serve.js';

/** A filter that records that it ran, by dispatcher type, in a response header. */
const marker = (name: string): RuntimeFilter => ({
  name,
  doFilter(ex, next) {
    ex.response.addHeader('x-ran', `${name}:${ex.request.dispatcherType}`);
    return next();
  },
});
/** `req` on /*, `fwd` on /target/* for FORWARD, `inc` on /part/* for INCLUDE (filter indexes 0, 1, 2). */
const TABLE: SelectorTable = {
  filterMappings: [
    { filter: 0, urlPatterns: ['/*'], servletNames: [], dispatchers: ['REQUEST'] },
    { filter: 1, urlPatterns: ['/target/*'], servletNames: [], dispatchers: ['FORWARD'] },
    { filter: 2, urlPatterns: ['/part/*'], servletNames: [], dispatchers: ['INCLUDE'] },
  ],
  // Tomcat builds no chain for a path no servlet maps: the default servlet takes every path, as in conf/web.xml.
  servletMappings: [{ pattern: '/', servlet: 'default' }],
  welcomeFiles: [],
};

function servlet(req: IncomingMessage, res: ServerResponse): void {
  const r = exchangeOf(req)!.request;
  res.setHeader('content-type', 'application/json');
  res.end(
    JSON.stringify({
      uri: r.requestURI,
      type: r.dispatcherType,
      a: r.getParameterValues('a'),
      from: r.getAttribute('jakarta.servlet.forward.request_uri') ?? null,
      url: req.url,
    }),
  );
}

describe('forward and include from a handler', () => {
  it('forward runs the FORWARD chain of the target, sets the forward attributes and merges parameters (target first)', async () => {
    const s = await serve(
      { contextPath: '/app', filters: [marker('req'), marker('fwd'), marker('inc')], table: TABLE, servlet },
      (req, res) => {
        if (exchangeOf(req)!.request.pathWithinContext === '/start') void forward(req, res, '/target/x?a=2');
        else servlet(req, res);
      },
    );
    try {
      const r = await request(s, '/app/start?a=1');
      expect(r.headers['x-ran']).toBe('req:REQUEST, fwd:FORWARD');
      expect(JSON.parse(r.body)).toEqual({
        uri: '/app/target/x',
        type: 'FORWARD',
        a: ['2', '1'],
        from: '/app/start',
        url: '/app/target/x?a=2',
      });
    } finally {
      await s.close();
    }
  });

  it('include runs the INCLUDE chain and leaves the request path as it was (the include attributes name the target)', async () => {
    const s = await serve(
      { contextPath: '/app', filters: [marker('req'), marker('fwd'), marker('inc')], table: TABLE },
      (req, res) => {
        void include(req, res, '/part/p', (rq, rs) => {
          const r = exchangeOf(rq)!.request;
          rs.write(
            `${r.dispatcherType} ${r.requestURI} ${String(r.getAttribute('jakarta.servlet.include.request_uri'))};`,
          );
        }).then(() => res.end(`after ${exchangeOf(req)!.request.dispatcherType}`));
      },
    );
    try {
      const r = await request(s, '/app/page');
      expect(r.headers['x-ran']).toBe('req:REQUEST, inc:INCLUDE');
      expect(r.body).toBe('INCLUDE /app/page /app/part/p;after REQUEST');
    } finally {
      await s.close();
    }
  });

  it('forward after the response is committed rejects, as Tomcat throws IllegalStateException', async () => {
    let failure: unknown = null;
    const s = await serve({ servlet }, (req, res) => {
      res.write('x');
      forward(req, res, '/y').catch((e: unknown) => {
        failure = e;
        res.end();
      });
    });
    try {
      await request(s, '/');
      expect(String(failure)).toMatch(/committed/);
    } finally {
      await s.close();
    }
  });

  it('contextPathInUrl: false treats the URL as the path within the context', async () => {
    const s = await serve({ contextPath: '/app', contextPathInUrl: false }, (req, res) =>
      res.end(`${exchangeOf(req)!.request.requestURI} ${exchangeOf(req)!.request.pathWithinContext}`),
    );
    try {
      expect((await request(s, '/items/1')).body).toBe('/app/items/1 /items/1');
    } finally {
      await s.close();
    }
  });
});

describe('exceptions and <exception-type> pages', () => {
  class IllegalStateException extends Error {}
  class Specific extends IllegalStateException {}
  const pages = [
    { errorCode: 0, exceptionType: 'java.lang.IllegalStateException', location: '/ise' },
    { errorCode: 0, exceptionType: 'java.lang.Throwable', location: '/any' },
    { errorCode: 500, location: '/500' },
  ];
  const page = (req: IncomingMessage, res: ServerResponse): void => {
    const r = exchangeOf(req)!.request;
    res.end(
      `${r.dispatcherType} ${r.pathWithinContext} ${res.statusCode} ${String((r.getAttribute('jakarta.servlet.error.exception') as Error | undefined)?.message)}`,
    );
  };
  it('a subclass finds its superclass page by simple name; anything else the java.lang.Throwable page', async () => {
    const s = await serve({ errorPages: pages }, (req, res) => {
      const path = exchangeOf(req)!.request.pathWithinContext;
      if (path === '/specific') throw new Specific('deep');
      if (path === '/plain') return Promise.reject(new TypeError('plain'));
      if (path === '/sent') return sendException(req, res, new IllegalStateException('sent'));
      return page(req, res);
    });
    try {
      expect((await request(s, '/specific')).body).toBe('ERROR /ise 500 deep');
      expect((await request(s, '/plain')).body).toBe('ERROR /any 500 plain');
      expect((await request(s, '/sent')).body).toBe('ERROR /ise 500 sent');
    } finally {
      await s.close();
    }
  });
  it('without an exception page, the 500 page', async () => {
    const s = await serve({ errorPages: [pages[2]!] }, (req, res) => {
      if (exchangeOf(req)!.request.pathWithinContext === '/boom') throw new Error('boom');
      page(req, res);
    });
    try {
      expect((await request(s, '/boom')).body).toBe('ERROR /500 500 undefined');
    } finally {
      await s.close();
    }
  });
});

describe('setDateHeader', () => {
  it('writes an HTTP date, as FastHttpDateFormat does', async () => {
    const s = await serve({}, (req, res) => {
      exchangeOf(req)!.response.setDateHeader('Last-Modified', Date.UTC(2001, 0, 1));
      res.end();
    });
    try {
      expect((await request(s, '/')).headers['last-modified']).toBe('Mon, 01 Jan 2001 00:00:00 GMT');
    } finally {
      await s.close();
    }
  });
});

describe('include does not shield the response (docs/divergences.md, "An included handler can set headers")', () => {
  it('a header and status the included handler sets reach the client, where Tomcat ignores them', async () => {
    const s = await serve({}, (req, res) => {
      void include(req, res, '/part', (_rq, rs) => {
        rs.statusCode = 201;
        rs.setHeader('x-included', 'yes');
      }).then(() => res.end('done'));
    });
    try {
      const r = await request(s, '/page');
      expect(r.status).toBe(201);
      expect(r.headers['x-included']).toBe('yes');
    } finally {
      await s.close();
    }
  });
});
