import * as z from 'zod';
import { boundedMemo } from '../protocol/memo.js';
import { javaBoolean, commaList, javaInt, reader } from './values.js';
import { defineFilter, param, refuse, type Note } from './define.js';
import { commaSeparatedTexts, eachCommaSeparated, splitCommaSeparated } from './java-text.js';

/**
 * [...new Set(list)]: the first of each value, in order, in a list of its own. Short lists (every real
 * one) are compared pairwise, without the set: validation makes four of these per CorsFilter. `fresh`
 * says the list is the caller's alone (just read from the value, nowhere else): without duplicates it
 * is then the answer, not copied.
 */
function distinct(list: string[], fresh = false): string[] {
  if (list.length > 16) return [...new Set(list)];
  for (let i = 1; i < list.length; i++) {
    if (list.lastIndexOf(list[i]!, i - 1) >= 0) {
      const out: string[] = [];
      for (const x of list) if (!out.includes(x)) out.push(x);
      return out;
    }
  }
  return fresh ? list : list.slice();
}

/** The last list lowerDistinct read, and its answer: applications repeat the same headers (most leave the default). */
let lastHeaders: { list: string[]; lower: string[] } | null = null;

/** distinct(list.map((h) => h.toLowerCase())), a new array each time. */
function lowerDistinct(list: readonly string[]): string[] {
  const last = lastHeaders;
  if (last && last.list.length === list.length && list.every((h, i) => h === last.list[i])) return last.lower.slice();
  const lower = distinct(
    list.map((h) => h.toLowerCase()),
    true,
  );
  if (list.length <= 16 && list.every((h) => h.length <= 256))
    lastHeaders = { list: list.slice(), lower: lower.slice() };
  return lower;
}

const DEFAULT_HEADERS = [
  'Origin',
  'Accept',
  'X-Requested-With',
  'Content-Type',
  'Access-Control-Request-Method',
  'Access-Control-Request-Headers',
];

/** Why a configured origin can never equal an Origin header a browser sends (scheme://host[:port], lower case, no default port). */
export function originProblem(origin: string): string | null {
  if (origin === 'null') return null;
  if (origin === '*')
    return 'only a value that is exactly "*" means any origin; inside a list "*" is compared literally';
  if (origin === '') return null;
  if (origin.includes('*')) return `"${origin}" is compared literally: CorsFilter has no wildcards`;
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/.exec(origin);
  if (!m) return `"${origin}" is not an origin (scheme://host[:port])`;
  const [, scheme, authority, rest] = m as unknown as [string, string, string, string];
  if (rest !== '') return `"${origin}" has a path; browsers send the origin without one (${scheme}://${authority})`;
  if (/[A-Z]/.test(scheme + authority))
    return `"${origin}" has upper-case letters; browsers send ${scheme.toLowerCase()}://${authority.toLowerCase()} and Tomcat compares case-sensitively`;
  const port = /:(\d+)$/.exec(authority)?.[1];
  if ((scheme === 'https' && port === '443') || (scheme === 'http' && port === '80')) {
    return `"${origin}" names the default port; browsers leave it out (${scheme}://${authority.replace(/:\d+$/, '')})`;
  }
  return null;
}

/**
 * Whether originProblem surely finds nothing, read char by char: a lower-case scheme, "://", then no
 * "/", "?", "#", "*" or upper-case letter, and no digit at the end (a port, which may be the default one).
 * Every application names an origin of its own: judging those through the map below hashed each one
 * and ran the regexes on it, for nothing to keep.
 */
export function plainOrigin(origin: string): boolean {
  const n = origin.length;
  let c = origin.charCodeAt(0);
  if (!(c >= 0x61 && c <= 0x7a)) return false;
  let i = 1;
  for (; i < n; i++) {
    c = origin.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2e || c === 0x2d)) break;
  }
  if (c !== 0x3a || origin.charCodeAt(i + 1) !== 0x2f || origin.charCodeAt(i + 2) !== 0x2f) return false;
  for (i += 3; i < n; i++) {
    c = origin.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23 || c === 0x2a || (c >= 0x41 && c <= 0x5a)) return false;
  }
  c = origin.charCodeAt(n - 1);
  return !(c >= 0x30 && c <= 0x39);
}

// Applications share most origins (an admin site, a front end): each is judged once (bounded, short origins only).
const originVerdict = boundedMemo((origin) => originProblem(origin), 1_000, 256);

function knownOriginProblem(origin: string): string | null {
  return plainOrigin(origin) ? null : originVerdict(origin);
}

function originNotes(v: unknown): Note[] {
  if (typeof v !== 'string' || v.trim() === '*') return [];
  // Entry by entry, without a list of pieces: nearly every entry has no problem.
  const out: Note[] = [];
  eachCommaSeparated(v, (text, offset) => {
    const why = knownOriginProblem(text);
    if (why)
      out.push({
        ruleId: 'filter-param-no-effect',
        severity: 'error',
        message: `${why}, so this entry never matches and that origin is refused with 403`,
        offset,
        length: Math.max(1, text.length),
      });
  });
  return out;
}

const origins = reader(
  {
    anyString: true,
    build: () =>
      z.union([z.array(z.string()).meta({ title: 'JSON list' }), z.string().meta({ title: 'web.xml text' })]),
  },
  {
    description:
      'Allowed origins: exactly "*" for any, or a comma-separated list of origins (scheme://host[:port]) compared exactly. Empty: no origin.',
    default: '',
    examples: ['https://app.example.com,https://admin.example.com', '*'],
  },
  (v) => {
    const list = typeof v === 'string' ? (v.trim() === '*' ? ['*'] : commaSeparatedTexts(v)) : v.map((s) => s.trim());
    return list.length === 1 && list[0] === '*'
      ? { any: true, list: [] as string[] }
      : { any: false, list: distinct(list, true) };
  },
  () => ({ any: false, list: [] as string[] }),
  originNotes,
);

function methodNotes(v: unknown): Note[] {
  if (typeof v !== 'string') return [];
  if (v === '')
    return [
      {
        ruleId: 'filter-param-no-effect',
        severity: 'error',
        message: 'an empty list allows no method, so every cross-origin request is refused',
      },
    ];
  return splitCommaSeparated(v).flatMap((p) =>
    /[a-z]/.test(p.text) &&
    /^[A-Za-z]+$/.test(p.text) &&
    ['GET', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH'].includes(p.text.toUpperCase())
      ? [
          {
            ruleId: 'filter-param-no-effect',
            severity: 'error' as const,
            message: `methods are case-sensitive: "${p.text}" never matches ${p.text.toUpperCase()}, so those requests are refused with 403`,
            offset: p.offset,
            length: p.text.length,
            replacement: p.text.toUpperCase(),
          },
        ]
      : [],
  );
}

export const spec = defineFilter({
  id: 'cors',
  simpleName: 'CorsFilter',
  description:
    'Cross-origin resource sharing: classifies requests, answers pre-flights and adds Access-Control-* headers; refuses invalid or disallowed CORS requests with 403.',
  configProblemsAreFatal: true,
  unknownParams: 'ignored',
  names: 'exact',
  params: {
    'cors.allowed.origins': param('list', origins),
    // The notes through commaList: a spread of its reader would build the zod schema that waits for first use.
    'cors.allowed.methods': param(
      'list',
      commaList(
        ['GET', 'POST', 'HEAD', 'OPTIONS'],
        'HTTP methods allowed cross-origin (case-sensitive), also sent in Access-Control-Allow-Methods of pre-flight responses.',
        { split: 'tomcat', examples: ['GET,POST,PUT,DELETE'], notes: methodNotes },
      ),
    ),
    'cors.allowed.headers': param(
      'list',
      commaList(
        DEFAULT_HEADERS,
        'Request headers allowed on the actual request (case-insensitive), also sent in Access-Control-Allow-Headers. "*" is not a wildcard here.',
        { split: 'tomcat', examples: ['Content-Type,Authorization,X-Requested-With'] },
      ),
    ),
    'cors.exposed.headers': param(
      'list',
      commaList([], 'Non-simple response headers the browser may let scripts read (Access-Control-Expose-Headers).', {
        split: 'tomcat',
        examples: ['X-Total-Count'],
      }),
    ),
    'cors.preflight.maxage': param(
      'long',
      javaInt(
        1800,
        'Seconds a browser may cache the pre-flight result (Access-Control-Max-Age); negative suppresses the header; empty means 0.',
        { bits: 64, emptyAs: 0, examples: ['1800', '-1'] },
      ),
      { default: '1800' },
    ),
    'cors.support.credentials': param(
      'boolean',
      javaBoolean(
        false,
        'Whether credentials (cookies, HTTP auth) are allowed: Access-Control-Allow-Credentials. Refused together with origins "*".',
      ),
    ),
    'cors.request.decorate': param(
      'boolean',
      javaBoolean(true, 'Whether the cors.* request attributes are set for the application.'),
    ),
  },
  toConfig: (v, _raw, ctx) => {
    const origin = v['cors.allowed.origins'];
    if (origin.any && v['cors.support.credentials']) {
      refuse(
        ctx,
        'true together with cors.allowed.origins="*" makes CorsFilter refuse to start ("It is not allowed to configure supportsCredentials=[true] when allowedOrigins=[*]"): list the trusted origins instead',
        { ruleId: 'cors-credentials-with-any-origin' },
        ['cors.support.credentials'],
      );
    }
    return {
      anyOrigin: origin.any,
      allowedOrigins: origin.list,
      allowedMethods: distinct(v['cors.allowed.methods'], true),
      allowedHeaders: lowerDistinct(v['cors.allowed.headers']),
      exposedHeaders: distinct(v['cors.exposed.headers'], true),
      supportsCredentials: v['cors.support.credentials'],
      preflightMaxAge: v['cors.preflight.maxage'],
      decorateRequest: v['cors.request.decorate'],
    };
  },
});
export type CorsConfig = z.output<typeof spec.schema>;
