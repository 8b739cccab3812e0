import * as z from 'zod';
import { classNameParam } from './class-name.js';
import {
  commaList,
  compileRegex,
  javaBoolean,
  javaInt,
  patternText,
  reader,
  regexNotes,
  statusCode,
  text,
  type CompiledRegex,
} from './values.js';
import { defineFilter, param, refuse, type Note } from './define.js';
import { javaSplit, trimPieces, type Piece } from './java-text.js';

/** A URL that gets no nonce: by suffix (`*.css`), prefix (`/static/*`) or whole-path regex (`/re/`), of the path or, with `mime:`, of its MIME type. */
export interface NoNoncePattern {
  kind: 'suffix' | 'prefix' | 'regex';
  /** The suffix, the prefix, or the Java regex. */
  value: string;
  /** The translated regex, for kind 'regex'. */
  regex: CompiledRegex | null;
  /** Whether the pattern applies to the MIME type of the path (`mime:` prefix) instead of the path. */
  mime: boolean;
}

const DEFAULT_NO_NONCE = '*.css, *.js, *.gif, *.png, *.jpg, *.svg, *.ico, *.jpeg, *.mjs';

/** One entry, as CsrfPreventionFilter.createNoNoncePredicate reads it; null when it makes no predicate. */
function readPattern(piece: Piece, ctx: z.RefinementCtx, notes: Note[]): NoNoncePattern | null {
  let { text: t, offset } = piece;
  let mime = false;
  if (t.startsWith('mime:')) {
    mime = true;
    t = t.slice(5);
    offset += 5;
    if (t.trim() === '') {
      notes.push({
        ruleId: 'filter-param-invalid',
        severity: 'error',
        message:
          '"mime:" with no pattern after it makes Tomcat fail (NullPointerException) on every request for a file with a known MIME type',
        offset: piece.offset,
        length: piece.text.length,
      });
      return null;
    }
  }
  if (t.startsWith('*')) return { kind: 'suffix', value: t.slice(1), regex: null, mime };
  if (t.endsWith('*')) return { kind: 'prefix', value: t.slice(0, -1), regex: null, mime };
  if (t.length >= 2 && t.startsWith('/') && t.endsWith('/'))
    return regexPattern(t.slice(1, -1), offset + 1, mime, ctx, notes);
  refuse(
    ctx,
    `"${t}" is not a pattern CsrfPreventionFilter knows ("Unsupported pattern"): use *.ext, /prefix*, /regex/ or mime: before one of them`,
    { offset, length: Math.max(1, t.length) },
  );
  return null;
}

function regexPattern(
  java: string,
  offset: number,
  mime: boolean,
  ctx: z.RefinementCtx,
  notes: Note[],
): NoNoncePattern | null {
  const regex = compileRegex(java, ctx, offset);
  for (const n of regexNotes(java)) notes.push({ ...n, offset: (n.offset ?? 0) + offset });
  return { kind: 'regex', value: java, regex, mime };
}

/** Reads noNonceURLPatterns; notes that do not stop the filter go to `notes`. */
export function readNoNoncePatterns(v: string | string[], ctx: z.RefinementCtx, notes: Note[]): NoNoncePattern[] {
  if (typeof v === 'string') {
    if (v.trim() === '') return [];
    if (v === '/') {
      refuse(
        ctx,
        '"/" alone makes CsrfPreventionFilter fail to start (it reads it as an empty /regex/ and runs off the end)',
      );
      return [];
    }
    if (v.startsWith('/') && v.endsWith('/')) {
      const p = regexPattern(v.slice(1, -1), 1, false, ctx, notes);
      return p ? [p] : [];
    }
  }
  const pieces = typeof v === 'string' ? trimPieces(javaSplit(v)) : v.map((s) => ({ text: s.trim(), offset: 0 }));
  return pieces.flatMap((p) => {
    if (p.text === '') return [];
    if (p.text === '/') {
      refuse(
        ctx,
        '"/" alone makes CsrfPreventionFilter fail to start (it reads it as an empty /regex/ and runs off the end)',
        { offset: p.offset, length: 1 },
      );
      return [];
    }
    const r = readPattern(p, ctx, notes);
    return r ? [r] : [];
  });
}

/** One entry, for the JSON Schema: *.ext, /prefix*, /regex/ or mime: before one of them (blanks around allowed). */
const ENTRY = String.raw`\s*(mime:)?(\*[^,]*|[^,]*\*|/[^,]*/)?\s*`;

const noNonceUrlPatterns = reader(
  z.union([
    z.array(patternText(`^${ENTRY}$`, 'one pattern')).meta({ title: 'JSON list' }),
    patternText(`^(/.*/|${ENTRY}(,${ENTRY})*)$`),
  ]),
  {
    description:
      'URLs that get no nonce added (static resources): comma-separated *.ext, /prefix*, /regex/ or mime:<one of those>; a whole value /.../ is one regex.',
    default: DEFAULT_NO_NONCE,
    examples: ['*.css, *.js, /static/*', 'mime:image/*'],
  },
  (v, ctx) => readNoNoncePatterns(v, ctx, []),
  () =>
    DEFAULT_NO_NONCE.split(',').map((s): NoNoncePattern => ({
      kind: 'suffix',
      value: s.trim().slice(1),
      regex: null,
      mime: false,
    })),
  (v: unknown): Note[] => {
    if (typeof v !== 'string' && !Array.isArray(v)) return [];
    const notes: Note[] = [];
    const sink = { addIssue: () => undefined, issues: [] } as unknown as z.RefinementCtx;
    readNoNoncePatterns(v as string | string[], sink, notes);
    return notes;
  },
);

/** randomClass of both CSRF filters (CsrfPreventionFilterBase). */
export function randomClassParam() {
  return param(
    'class-name',
    classNameParam(
      'java.security.SecureRandom',
      'Class generating nonces: a java.util.Random with a public no-argument constructor. Anything but SecureRandom makes nonces predictable.',
      {
        accepted: ['java.security.SecureRandom', 'java.util.Random'],
        what: 'a java.util.Random',
        runtimeNote: "tollgate's runtime always uses Node's crypto generator.",
      },
    ),
  );
}

export const spec = defineFilter({
  id: 'csrf-prevention',
  simpleName: 'CsrfPreventionFilter',
  description:
    'Form CSRF protection: a nonce kept in the session that every URL sent to the client must carry (encodeURL / encodeRedirectURL).',
  configProblemsAreFatal: true,
  names: 'bean',
  params: {
    denyStatus: param('status', statusCode(403, 'Status sent when a request has no valid nonce.')),
    entryPoints: param(
      'list',
      commaList([], 'Paths (servlet path + path info) not checked for a nonce, to enter the application; GET only.', {
        examples: ['/index.jsp,/login'],
      }),
    ),
    nonceCacheSize: param(
      'integer',
      javaInt(5, 'How many recent nonces are accepted (LRU), for parallel requests and back navigation.', {
        notes: (n) =>
          n < 1
            ? [
                {
                  ruleId: 'filter-param-invalid',
                  severity: 'error',
                  message: `a cache of ${n} keeps no nonce, so every request that needs one is refused`,
                },
              ]
            : [],
      }),
    ),
    nonceRequestParameterName: param(
      'string',
      text('org.apache.catalina.filters.CSRF_NONCE', 'Name of the request parameter carrying the nonce.'),
    ),
    randomClass: randomClassParam(),
    enforce: param(
      'boolean',
      javaBoolean(true, 'When false, requests without a valid nonce are let through (and only logged at debug level).'),
      { versionNotes: ['added in 9.0.86, 10.1.19 and 11.0.0-M17'] },
    ),
    noNonceURLPatterns: param('url-patterns', noNonceUrlPatterns, {
      versionNotes: ['added in 9.0.86, 10.1.19 and 11.0.0-M17'],
    }),
  },
  toConfig: (v) => ({
    denyStatus: v.denyStatus,
    entryPoints: v.entryPoints,
    nonceCacheSize: v.nonceCacheSize,
    nonceRequestParameterName: v.nonceRequestParameterName,
    randomClass: v.randomClass,
    enforce: v.enforce,
    noNonceUrlPatterns: v.noNonceURLPatterns,
  }),
});
export type CsrfPreventionConfig = z.output<typeof spec.schema>;
