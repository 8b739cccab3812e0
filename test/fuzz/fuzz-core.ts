/**
 * A seeded mutation fuzzer for parse, load, lint, chain and compile.
 *
 * Every input is a pure function of (seed, index): `makeInput(corpus, seed, i)`
 * regenerates input i without generating the ones before it, so a run can be
 * split between processes by index range and any finding replayed from its
 * number. Inputs are real files (fixtures, examples, the real-world corpus
 * copied into test/fuzz/seeds) mutated byte-wise and structure-wise, spliced,
 * or generated (web.xml with nasty init-params, JSON chain documents).
 *
 * Each input is a file in one slot of a small CATALINA_BASE (the application's
 * web.xml, conf/web.xml, server.xml, a context file, ...; or a JSON chain
 * document). The targets run through the library API in-process:
 *   parse    the parser for the slot, on the bytes (or the string) in memory
 *   load     loadBase on the temporary base holding the file (loadInput for JSON)
 *   lint     lintBase with every rule
 *   chain    contexts, findContext and effectiveChain for a few request paths and dispatchers
 *   compile  compileBase: each context gets a module or is refused with a reason; a module's
 *            code parses, its table and filters build on the runtime (and now and then the
 *            module itself is imported)
 * Oracle: no target throws, and none takes over the time limit.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contextsOf, effectiveChain, findContext } from '../../src/chain/index.js';
import { compileBase, type CompileResult } from '../../src/compile/index.js';
import { FILTER_SPECS } from '../../src/filters/index.js';
import { lintBase } from '../../src/lint/engine.js';
import { loadInput } from '../../src/lint/inputs.js';
import type { CatalinaBase, Dispatcher } from '../../src/model/index.js';
import {
  loadBase,
  parseChainJson,
  parseContextXml,
  parseServerXml,
  parseTomcatUsers,
  parseWebXml,
} from '../../src/parser/index.js';
import {
  createChainSelector,
  createContextRuntime,
  FILTER_FACTORIES,
  MemorySessionStore,
  setLogSink,
  type ContextRuntimeOptions,
} from '../../src/runtime/index.js';
import { webXmlToChainDocument } from '../../src/schema/convert.js';

export const REPO = join(import.meta.dirname, '..', '..');
/** No input grows past this by mutation (the 50 MB file and 100,000 levels are the XML attack tests' business). */
export const MAX_LENGTH = 400_000;

// Filters built by the compile target log their start-up (a warning per bad charset, ...): not the fuzzer's output.
setLogSink(() => {});
export const TARGETS = ['parse', 'load', 'lint', 'chain', 'compile'] as const;
export type Target = (typeof TARGETS)[number];

/** Where a fuzzed file sits in the temporary CATALINA_BASE. */
export const SLOTS = {
  app: 'webapps/app/WEB-INF/web.xml',
  'tomcat-web': 'webapps/app/WEB-INF/tomcat-web.xml',
  global: 'conf/web.xml',
  'host-default': 'conf/Catalina/localhost/web.xml.default',
  server: 'conf/server.xml',
  users: 'conf/tomcat-users.xml',
  'context-file': 'conf/Catalina/localhost/ctx.xml',
  'context-meta': 'webapps/app/META-INF/context.xml',
  chain: 'tollgate.chain.json',
} as const;
export type Slot = keyof typeof SLOTS;
export type Kind = 'web' | 'server' | 'users' | 'context' | 'json';
const SLOTS_OF: Record<Kind, Slot[]> = {
  web: ['app', 'app', 'app', 'global', 'host-default', 'tomcat-web'],
  server: ['server'],
  users: ['users'],
  context: ['context-file', 'context-meta'],
  json: ['chain'],
};

// ---------------------------------------------------------------- PRNG

/** A 32-bit hash of (seed, index): the state each input's generator starts from. */
export function mix(seed: number, index: number): number {
  let h =
    (Math.imul(seed | 0, 0x9e3779b1) ^
      Math.imul(index | 0, 0x85ebca6b) ^
      Math.imul((index / 2 ** 32) | 0, 0xc2b2ae35)) >>>
    0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32: small, fast, deterministic. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** 0 <= n < max. */
  int(max: number): number {
    return max <= 1 ? 0 : Math.floor((this.next() / 2 ** 32) * max);
  }
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }
  chance(p: number): boolean {
    return this.next() / 2 ** 32 < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  /** Small numbers often, big ones sometimes. */
  size(max: number): number {
    const r = this.int(10);
    return r < 6 ? this.range(0, Math.min(8, max)) : r < 9 ? this.range(0, Math.min(200, max)) : this.range(0, max);
  }
}

// ---------------------------------------------------------------- seeds

export interface Seed {
  /** Path relative to the repository. */
  name: string;
  kind: Kind;
  text: string;
}

export interface Corpus {
  seeds: Seed[];
  byKind: Record<Kind, Seed[]>;
  /** Init-param names and example values of every filter tollgate knows, by class name. */
  filters: { className: string; params: string[]; examples: string[] }[];
}

const SEED_DIRS = ['test/fixtures', 'examples', 'test/fuzz/seeds'];

function walk(dir: string, out: string[]): void {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const e of entries) {
    const p = join(dir, e);
    const st = statSync(p);
    if (st.isDirectory()) walk(p, out);
    else if (/\.(xml|json|default)$/i.test(e)) out.push(p);
  }
}

/** What a seed file is: by name first, by root element otherwise. */
export function kindOf(path: string, text: string): Kind | null {
  const base = path.split(/[\\/]/).pop()!;
  if (base.endsWith('.json')) return 'json';
  if (base === 'server.xml') return 'server';
  if (/^tomcat-users/.test(base)) return 'users';
  if (/web\.xml(\.default)?$/.test(base) || /^web(xml|-fragment)/.test(base)) return 'web';
  const root = /<([A-Za-z][\w:.-]*)[\s>/]/.exec(
    text.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/g, ''),
  )?.[1];
  if (root === 'Server') return 'server';
  if (root === 'Context') return 'context';
  if (root === 'tomcat-users') return 'users';
  if (root && /(^|:)web-(app|fragment)$/.test(root)) return 'web';
  return null;
}

/**
 * Every XML and JSON file of test/fixtures, examples and test/fuzz/seeds (the
 * real-world corpus copied there), in path order, plus a JSON chain document
 * converted from each application descriptor. Nothing outside the repository.
 */
export function loadCorpus(root = REPO): Corpus {
  const files: string[] = [];
  for (const d of SEED_DIRS) walk(join(root, d), files);
  const seeds: Seed[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    if (seen.has(text)) continue;
    seen.add(text);
    const kind = kindOf(f, text);
    if (!kind) continue;
    const name = relative(root, f).split(sep).join('/');
    seeds.push({ name, kind, text });
    if (kind === 'web' && text.length < 40_000) {
      const { webXml } = parseWebXml(text, f);
      if (webXml) {
        try {
          const doc = webXmlToChainDocument(webXml, '/app');
          seeds.push({ name: `${name} (as JSON)`, kind: 'json', text: JSON.stringify(doc, null, 2) });
        } catch {
          // A descriptor the converter cannot express: the XML seed is enough.
        }
      }
    }
  }
  const byKind: Record<Kind, Seed[]> = { web: [], server: [], users: [], context: [], json: [] };
  for (const s of seeds) byKind[s.kind].push(s);
  const filters = FILTER_SPECS.flatMap((s) =>
    s.classNames.map((className) => ({
      className,
      params: [
        ...Object.keys(s.params),
        ...Object.values(s.params).flatMap((p) => [...(p.aliases ?? []), ...(p.seenAs ?? [])]),
        ...Object.keys(s.dynamicParams ?? {}).map((p) => `${p}text/html`),
      ],
      examples: Object.values(s.params).flatMap((p) => [
        ...(p.examples ?? []),
        ...(p.default !== undefined ? [p.default] : []),
      ]),
    })),
  );
  return { seeds, byKind, filters };
}

// ---------------------------------------------------------------- nasty values

const LONG = (rng: Rng, unit: string): string => unit.repeat(rng.pick([100, 1000, 10_000, 100_000]) / unit.length);

const NASTY_VALUES: readonly string[] = [
  // regexes (RemoteAddr/RemoteHost allow/deny, RemoteIp internalProxies, CSRF, CORS)
  '(a+)+$',
  '(a|aa)+b',
  '(.*a){12}',
  '^(([a-z])+.)+[A-Z]([a-z])+$',
  '(?<n>a)\\k<n>',
  '(?i)ADMIN',
  '(?s).*',
  '\\p{Alpha}+',
  '\\Q.*\\E',
  '[',
  ']',
  '(',
  ')',
  '\\',
  '*',
  '+?',
  '{1,2}',
  'a{99999}',
  '[a-\\d]',
  '[[:alpha:]]',
  '(?<=a+)b',
  '\\1',
  '\\u00e9',
  '\\x{1F600}',
  '.*',
  '127\\.\\d+\\.\\d+\\.\\d+|::1|0:0:0:0:0:0:0:1',
  '10\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}',
  '[\\d.]+',
  '(?x) a # comment',
  // CIDRs
  '10.0.0.0/8',
  '10.0.0.0/33',
  '::1/129',
  '1.2.3.4/-1',
  '0.0.0.0/0',
  '::/0',
  'fe80::1%eth0/64',
  '1.2.3.4/08',
  '1.2.3.4/',
  '/24',
  '1.2.3.256/24',
  '2001:db8::/32, 10.0.0.0/8,,',
  '::ffff:1.2.3.4/96',
  '1.2.3.4/4294967296',
  ' 192.168.0.0/16 ',
  // Expires
  'access plus 1 month',
  'access plus 1e309 seconds',
  'modification plus -0 years',
  'access plus 0x10 minutes',
  'access plus 1 month 2 weeks 3 days',
  'now',
  'access',
  'access plus',
  'access plus 99999999999999999999 seconds',
  'access plus 2147483648 seconds',
  'plus 1 day',
  'A3600',
  'M0',
  'access plus one day',
  'modification plus 1 fortnight',
  'access plus 1 MONTH',
  'access  plus  1  day',
  // numbers
  '1e309',
  '-1e309',
  '-0',
  '0x10',
  '010',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '2147483647',
  '2147483648',
  '-2147483649',
  '9223372036854775808',
  '1_000',
  '\u0663',
  ' 1 ',
  '1.5',
  '.5',
  '5.',
  '+5',
  '1e3',
  '0b11',
  '\u00bd',
  '',
  // charsets, booleans, origins, headers, methods, paths
  'UTF-8',
  'utf8',
  'x-bogus',
  'ISO-8859-1 ',
  'UTF-16',
  'UTF-32BE',
  'Shift_JIS',
  'true',
  'TRUE',
  'yes',
  'tru',
  'false ',
  'on',
  '*',
  'null',
  'http://a.example,https://b.example,',
  'https://*.example.com',
  'http://[::1]:8080',
  'file://',
  ' , , ',
  'GET,POST,HEAD,OPTIONS,PUT,DELETE,TRACE,CONNECT',
  'Origin,Accept,X-Requested-With,Content-Type,Access-Control-Request-Method',
  'DENY',
  'SAMEORIGIN',
  'ALLOW-FROM https://a.example',
  'ALLOW-FROM',
  '/index.html,/',
  '/*',
  'text/html; charset=utf-8',
  'text/',
  ';;;',
  '${catalina.base}',
  '${undefined.property}',
  '${',
  '${${x}}',
  '$${catalina.home}',
  '%00',
  '%',
  '%2e%2e/',
  '../../..',
  'C:\\\\x',
  // markup that has to stay text
  '&amp;&lt;&#0;&#x110000;&#xD800;&bogus;',
  '<![CDATA[]]]]><![CDATA[>]]>',
  '\u0000',
  '\r\n',
  '\t \u00a0\u2028\u2029',
  '\ufeff',
  '\ud800',
  '\udfff',
  '\ud83d\ude00',
  '\uffff',
  '\u0085',
];

function nasty(rng: Rng, corpus: Corpus): string {
  const r = rng.int(12);
  if (r === 0)
    return LONG(rng, rng.pick(['a', 'a,', '1', '(a+)+', '10.0.0.0/8,', 'access plus 1 day ', '\u00e9', '&amp;']));
  if (r === 1)
    return rng.pick(corpus.filters).examples.length
      ? rng.pick(rng.pick(corpus.filters.filter((f) => f.examples.length)).examples)
      : '';
  if (r === 2) return randomUnicode(rng, rng.size(40));
  if (r === 3)
    return Array.from({ length: rng.range(2, 6) }, () => rng.pick(NASTY_VALUES)).join(
      rng.pick([',', ' ', ', ', '|', '']),
    );
  return rng.pick(NASTY_VALUES);
}

/** Random code points: ASCII, controls, lone surrogates, NUL, BOM, CR, astral. */
function randomUnicode(rng: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    const r = rng.int(10);
    if (r < 3) s += String.fromCharCode(rng.range(0x20, 0x7e));
    else if (r === 3) s += String.fromCharCode(rng.range(0, 0x1f));
    else if (r === 4) s += String.fromCharCode(rng.range(0xd800, 0xdfff));
    else if (r === 5)
      s += rng.pick(['\u0000', '\ufeff', '\r', '\u2028', '\ufffe', '\uffff', '\u0085', '<', '&', ']]>', '"', "'"]);
    else if (r === 6) s += String.fromCodePoint(rng.range(0x10000, 0x10ffff));
    else s += String.fromCharCode(rng.range(0x80, 0xfffd));
  }
  return s;
}

const URL_PATTERNS = [
  '/*',
  '/',
  '',
  '*.jsp',
  '*.',
  '/a/*',
  '/a/*/b',
  '*.*',
  '/**',
  'a',
  '/a*',
  '*',
  ' /x ',
  '/%2F',
  '/\u00e9',
  '//',
  '/*.do',
  '*.tar.gz',
  '/a/',
  '/\u0000',
  '\t/*',
];
const PATHS = [
  '/',
  '',
  '/index.html',
  '/a.jsp',
  '/api/items',
  '/static/a.css',
  '/a/b/c',
  '//x',
  '/%2e%2e/x',
  '/;jsessionid=1',
  '/\u00e9',
  '/WEB-INF/web.xml',
  '/a.',
  '/.jsp',
];
const DISPATCHERS: Dispatcher[] = ['REQUEST', 'FORWARD', 'INCLUDE', 'ERROR', 'ASYNC'];

// ---------------------------------------------------------------- mutations

export interface FuzzInput {
  index: number;
  slot: Slot;
  /** Usually bytes; sometimes the string itself (lone surrogates reach the parser untouched). */
  data: string | Uint8Array;
  /** What was done, short: the seed and the mutations. */
  description: string;
}

type Mutation = (s: string, rng: Rng, corpus: Corpus, kind: Kind) => string | null;

const at = (s: string, rng: Rng): number => rng.int(s.length + 1);

/** A random match of `re` in `s` (global regex), or null. */
function randomMatch(s: string, re: RegExp, rng: Rng): RegExpExecArray | null {
  const all: RegExpExecArray[] = [];
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) && all.length < 2000) {
    all.push(m);
    if (m[0] === '') re.lastIndex++;
  }
  return all.length ? rng.pick(all) : null;
}

/** The span of a random element `<name ...>...</name>` (first closing tag of that name after it). */
function randomElement(s: string, rng: Rng): [number, number] | null {
  const m = randomMatch(s, /<([A-Za-z][\w:.-]*)[\s>/]/g, rng);
  if (!m) return null;
  const close = s.indexOf(`</${m[1]}>`, m.index);
  if (close < 0) {
    const end = s.indexOf('/>', m.index);
    return end < 0 ? null : [m.index, end + 2];
  }
  return [m.index, close + m[1]!.length + 3];
}

const MUTATIONS: Record<string, Mutation> = {
  flip: (s, rng) => {
    if (!s.length) return null;
    const i = rng.int(s.length);
    return s.slice(0, i) + String.fromCharCode(s.charCodeAt(i) ^ (1 << rng.int(16))) + s.slice(i + 1);
  },
  char: (s, rng) => {
    const i = at(s, rng);
    return (
      s.slice(0, i) +
      rng.pick([
        '<',
        '>',
        '&',
        '"',
        "'",
        '/',
        '=',
        ';',
        '\u0000',
        '\r',
        '\ufeff',
        '\ud800',
        ']]>',
        '<!--',
        '-->',
        '?>',
        '${',
        '}',
        '*',
        '\\',
        ' ',
      ]) +
      s.slice(i + rng.int(2))
    );
  },
  unicode: (s, rng) => {
    const i = at(s, rng);
    return s.slice(0, i) + randomUnicode(rng, rng.size(30)) + s.slice(i);
  },
  delete: (s, rng) => {
    const i = at(s, rng);
    return s.slice(0, i) + s.slice(i + rng.size(s.length - i));
  },
  duplicate: (s, rng) => {
    const i = at(s, rng);
    const span = s.slice(i, i + rng.size(s.length - i));
    const j = at(s, rng);
    return s.slice(0, j) + span.repeat(rng.chance(0.1) ? rng.range(2, 50) : 1) + s.slice(j);
  },
  truncate: (s, rng) => s.slice(0, at(s, rng)),
  splice: (s, rng, corpus, kind) => {
    const other = rng.pick(rng.chance(0.7) && corpus.byKind[kind].length ? corpus.byKind[kind] : corpus.seeds).text;
    return s.slice(0, at(s, rng)) + other.slice(rng.int(other.length + 1));
  },
  dupElement: (s, rng) => {
    const e = randomElement(s, rng);
    if (!e) return null;
    const el = s.slice(e[0], e[1]);
    // Many copies only of small elements: copies of a partly nested span would multiply the nesting past a few thousand levels.
    const small = el.length < 4000 && (el.match(/</g)?.length ?? 0) < 40;
    return s.slice(0, e[1]) + el.repeat(rng.chance(0.1) && small ? rng.range(2, 300) : 1) + s.slice(e[1]);
  },
  moveElement: (s, rng) => {
    const e = randomElement(s, rng);
    if (!e) return null;
    const el = s.slice(e[0], e[1]);
    const rest = s.slice(0, e[0]) + s.slice(e[1]);
    const j = at(rest, rng);
    return rest.slice(0, j) + el + rest.slice(j);
  },
  removeElement: (s, rng) => {
    const e = randomElement(s, rng);
    return e ? s.slice(0, e[0]) + s.slice(e[1]) : null;
  },
  removeClosingTag: (s, rng) => {
    const m = randomMatch(s, /<\/[^>]*>/g, rng);
    return m ? s.slice(0, m.index) + s.slice(m.index + m[0].length) : null;
  },
  renameTag: (s, rng, corpus) => {
    const m = randomMatch(s, /<\/?([A-Za-z][\w:.-]*)/g, rng);
    if (!m) return null;
    const name = rng.pick([
      'filter',
      'filter-mapping',
      'init-param',
      'param-value',
      'url-pattern',
      'servlet-name',
      'dispatcher',
      'Host',
      'Context',
      'Engine',
      'Connector',
      'Valve',
      'user',
      'role',
      'web-app',
      'Server',
      'x:web-app',
      'web-fragment',
      'absolute-ordering',
      'mime-mapping',
      'welcome-file',
      randomUnicode(rng, 3),
    ]);
    void corpus;
    const start = m.index + (m[0].startsWith('</') ? 2 : 1);
    return s.slice(0, start) + name + s.slice(start + m[1]!.length);
  },
  doctype: (s, rng) => {
    const decl = /^\s*<\?xml[^>]*\?>/.exec(s);
    const i = decl ? decl[0].length : 0;
    const entities = [
      '<!ENTITY e "expanded">',
      '<!ENTITY big "' + 'x'.repeat(rng.pick([10, 1000, 50_000])) + '">',
      '<!ENTITY a "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">',
      '<!ENTITY ext SYSTEM "file:///nonexistent/tollgate-fuzz-canary">',
      '<!ENTITY net SYSTEM "http://127.0.0.1:9/tollgate-fuzz">',
      '<!ENTITY % pe "<!ENTITY q \'q\'>"> %pe;',
      '<!ENTITY rec "&rec;">',
      '<!ELEMENT web-app ANY>',
      '<!ATTLIST filter id ID #IMPLIED>',
      '<!ENTITY lt2 "&#60;">',
      '<!ENTITY unparsed SYSTEM "x" NDATA gif>',
    ];
    const subset = Array.from({ length: rng.range(0, 4) }, () => rng.pick(entities)).join('\n');
    const root = rng.pick(['web-app', 'Server', 'Context', 'tomcat-users', 'x']);
    const doctype = rng.pick([
      `<!DOCTYPE ${root} [\n${subset}\n]>`,
      `<!DOCTYPE web-app PUBLIC "-//Sun Microsystems, Inc.//DTD Web Application 2.3//EN" "http://java.sun.com/dtd/web-app_2_3.dtd">`,
      `<!DOCTYPE ${root} SYSTEM "http://127.0.0.1:9/x.dtd" [${subset}]>`,
      '<!DOCTYPE',
      '<!DOCTYPE [',
    ]);
    let out = s.slice(0, i) + doctype + s.slice(i);
    for (let k = rng.range(0, 3); k > 0; k--) {
      const j = at(out, rng);
      out =
        out.slice(0, j) +
        rng.pick([
          '&e;',
          '&a;',
          '&big;',
          '&ext;',
          '&net;',
          '&rec;',
          '&q;',
          '&lt2;',
          '&undefined;',
          '&#0;',
          '&#x41;',
          '&amp',
        ]) +
        out.slice(j);
    }
    return out;
  },
  markup: (s, rng) => {
    const j = at(s, rng);
    return (
      s.slice(0, j) +
      rng.pick([
        '<![CDATA[x]]>',
        '<![CDATA[<filter>]]>',
        '<![CDATA[',
        ']]>',
        '<?pi data?>',
        '<?xml version="1.0"?>',
        '<?xml-stylesheet href="x"?>',
        '<!-- c -->',
        '<!-- a -- b -->',
        '<!--',
        '<!-- tollgate-disable -->',
        '<!-- tollgate-enable -->',
        '<!-- tollgate-disable-next-line cors-any-origin :: fuzz -->',
        '<!-- tollgate-disable-next-line -->',
        '<!-- tollgate-disable unknown-rule-id :: x -->',
        '<!-- tollgate-enable cors-any-origin -->',
        '<!-- tollgate-disable-next-line xml-malformed, filter-never-mapped -->',
        '<x:y xmlns:x="urn:x"/>',
        'xmlns:j="http://xmlns.jcp.org/xml/ns/javaee"',
        '<j:filter>',
        '&',
        '<',
        '<>',
        '</>',
        '<a b="1" b="2"/>',
        '<a b=c/>',
      ]) +
      s.slice(j)
    );
  },
  hugeAttribute: (s, rng) => {
    const m = randomMatch(s, /<[A-Za-z][\w:.-]*/g, rng);
    if (!m) return null;
    const i = m.index + m[0].length;
    const name = rng.pick([
      'className',
      'path',
      'docBase',
      'appBase',
      'name',
      'port',
      'password',
      'roles',
      'xmlBase',
      'deployIgnore',
      'x',
      'version',
      'metadata-complete',
    ]);
    return `${s.slice(0, i)} ${name}="${LONG(rng, rng.pick(['a', '&amp;', '${x}', '/..', '\u00e9', ' ']))}"${s.slice(i)}`;
  },
  attributeValue: (s, rng, corpus) => {
    const m = randomMatch(s, /(\s[\w:.-]+\s*=\s*)(["'])([^"']*)\2/g, rng);
    if (!m) return null;
    const v = nasty(rng, corpus).replace(/["<&]/g, (c) =>
      rng.chance(0.5) ? c : c === '"' ? '&quot;' : c === '<' ? '&lt;' : '&amp;',
    );
    return s.slice(0, m.index) + m[1] + m[2] + v + m[2] + s.slice(m.index + m[0].length);
  },
  textValue: (s, rng, corpus) => {
    const m = randomMatch(
      s,
      /<(param-value|param-name|url-pattern|servlet-name|filter-name|filter-class|dispatcher|session-timeout|extension|mime-type|welcome-file|Alias|request-character-encoding)>([^<]*)</g,
      rng,
    );
    if (!m) return null;
    let v: string;
    if (m[1] === 'url-pattern') v = rng.chance(0.5) ? rng.pick(URL_PATTERNS) : nasty(rng, corpus);
    else if (m[1] === 'param-name')
      v = rng.pick(rng.pick(corpus.filters).params.concat(['', 'x', 'Cors.Allowed.Origins']));
    else if (m[1] === 'filter-class')
      v = rng.pick(corpus.filters).className + (rng.chance(0.1) ? rng.pick([' ', 'X', '\n']) : '');
    else if (m[1] === 'dispatcher') v = rng.pick([...DISPATCHERS, 'request', 'BOGUS', '', ' FORWARD ']);
    else v = nasty(rng, corpus);
    if (rng.chance(0.7)) v = v.replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'));
    const start = m.index + m[1]!.length + 2;
    return s.slice(0, start) + v + s.slice(start + m[2]!.length);
  },
  nest: (s, rng) => {
    const e = randomElement(s, rng);
    const j = e ? s.indexOf('>', e[0]) + 1 : at(s, rng);
    // Up to a few thousand levels: saxes resolves namespaces by walking the open elements, so depth costs
    // depth squared (6,800 levels: 0.6 s); 100,000 levels are the XML attack tests' business.
    const depth = rng.pick([10, 100, 1000, rng.range(1, 1500)]);
    const tag = rng.pick(['a', 'filter', 'init-param', 'Valve', 'web-app', 'x:y']);
    return s.slice(0, j) + `<${tag}>`.repeat(depth) + (rng.chance(0.2) ? '' : `</${tag}>`.repeat(depth)) + s.slice(j);
  },
  lineEndings: (s, rng) =>
    rng.pick([
      s.replace(/\n/g, '\r\n'),
      s.replace(/\n/g, '\r'),
      s.replace(/\r?\n/g, '\u2028'),
      '\ufeff' + s,
      s.replace(/ /g, '\t'),
    ]),
  encodingDecl: (s, rng) => {
    const enc = rng.pick([
      'UTF-16',
      'UTF-16LE',
      'ISO-8859-1',
      'windows-1252',
      'US-ASCII',
      'EBCDIC',
      'bogus',
      '',
      'UTF-8"?><x',
      'Shift_JIS',
      'UTF-32',
    ]);
    return /^\s*<\?xml[^>]*\?>/.test(s)
      ? s.replace(/encoding\s*=\s*["'][^"']*["']|(?<=<\?xml)/, `${rng.chance(0.5) ? '' : ' '}encoding="${enc}"`)
      : `<?xml version="1.0" encoding="${enc}"?>\n${s}`;
  },
  filterBlock: (s, rng, corpus) => {
    const i = s.lastIndexOf('</');
    const j = i < 0 ? at(s, rng) : i;
    return s.slice(0, j) + filterXml(rng, corpus) + s.slice(j);
  },
};
const MUTATION_NAMES = Object.keys(MUTATIONS);
const BYTE_MUTATIONS = ['byteFlip', 'utf16', 'latin1', 'invalidUtf8', 'truncateBytes'] as const;

function mutateBytes(b: Uint8Array, name: (typeof BYTE_MUTATIONS)[number], rng: Rng, text: string): Uint8Array {
  switch (name) {
    case 'byteFlip': {
      const out = Uint8Array.from(b);
      for (let k = rng.range(1, 8); k > 0 && out.length; k--) out[rng.int(out.length)]! ^= 1 << rng.int(8);
      return out;
    }
    case 'utf16': {
      const le = rng.chance(0.5);
      const body = Buffer.from(text, 'utf16le');
      if (!le) body.swap16();
      const bom = rng.chance(0.7) ? Buffer.from(le ? [0xff, 0xfe] : [0xfe, 0xff]) : Buffer.alloc(0);
      return Buffer.concat([bom, body]);
    }
    case 'latin1':
      return Buffer.from(text, 'latin1');
    case 'invalidUtf8': {
      const i = rng.int(b.length + 1);
      return Buffer.concat([
        b.subarray(0, i),
        Buffer.from(
          rng.pick([
            [0xff],
            [0xc0, 0x80],
            [0xed, 0xa0, 0x80],
            [0xf4, 0x90, 0x80, 0x80],
            [0xe2, 0x82],
            [0x00],
            [0xef, 0xbb, 0xbf],
          ]),
        ),
        b.subarray(i),
      ]);
    }
    case 'truncateBytes':
      return b.subarray(0, rng.int(b.length + 1));
  }
}

// ---------------------------------------------------------------- generators

function xmlText(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

function filterXml(rng: Rng, corpus: Corpus): string {
  const f = rng.pick(corpus.filters);
  const name = rng.chance(0.9) ? `f${rng.int(5)}` : nasty(rng, corpus);
  const params = Array.from({ length: rng.size(12) }, () => {
    const p = rng.chance(0.9) && f.params.length ? rng.pick(f.params) : nasty(rng, corpus);
    const v = rng.chance(0.5) ? nasty(rng, corpus) : f.examples.length ? rng.pick(f.examples) : '';
    return `<init-param><param-name>${xmlText(p)}</param-name><param-value>${rng.chance(0.9) ? xmlText(v) : v}</param-value></init-param>`;
  });
  const mappings = Array.from({ length: rng.range(0, 3) }, () => {
    const what = rng.chance(0.7)
      ? `<url-pattern>${xmlText(rng.pick(URL_PATTERNS))}</url-pattern>`
      : `<servlet-name>${rng.pick(['*', 'default', 'jsp', 'x'])}</servlet-name>`;
    const d = Array.from(
      { length: rng.range(0, 2) },
      () => `<dispatcher>${rng.pick([...DISPATCHERS, 'bogus'])}</dispatcher>`,
    ).join('');
    return `<filter-mapping><filter-name>${xmlText(rng.chance(0.9) ? name : 'other')}</filter-name>${what}${d}</filter-mapping>`;
  });
  return `<filter><filter-name>${xmlText(name)}</filter-name><filter-class>${f.className}</filter-class>${rng.chance(0.1) ? '<async-supported>maybe</async-supported>' : ''}${params.join('')}</filter>${mappings.join('')}`;
}

function generatedWebXml(rng: Rng, corpus: Corpus): string {
  const ns = rng.pick([
    'xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"',
    'xmlns="http://xmlns.jcp.org/xml/ns/javaee" version="4.0"',
    'xmlns="http://java.sun.com/xml/ns/javaee" version="3.0"',
    'version="2.4"',
    '',
    'xmlns="urn:bogus" version="9.9"',
    'xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.1" metadata-complete="true"',
  ]);
  const parts = Array.from({ length: rng.range(1, 6) }, () => filterXml(rng, corpus));
  if (rng.chance(0.5))
    parts.push(
      `<servlet-mapping><servlet-name>${rng.pick(['default', 'jsp', 'app'])}</servlet-name><url-pattern>${xmlText(rng.pick(URL_PATTERNS))}</url-pattern></servlet-mapping>`,
    );
  if (rng.chance(0.3))
    parts.push(`<session-config><session-timeout>${xmlText(nasty(rng, corpus))}</session-timeout></session-config>`);
  if (rng.chance(0.2))
    parts.push(
      `<mime-mapping><extension>${xmlText(rng.pick(['css', 'CSS', '', 'x']))}</extension><mime-type>${xmlText(nasty(rng, corpus))}</mime-type></mime-mapping>`,
    );
  if (rng.chance(0.2))
    parts.push(`<request-character-encoding>${xmlText(nasty(rng, corpus))}</request-character-encoding>`);
  if (rng.chance(0.2))
    parts.push(`<welcome-file-list><welcome-file>${xmlText(nasty(rng, corpus))}</welcome-file></welcome-file-list>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<web-app ${ns}>\n${parts.join('\n')}\n</web-app>\n`;
}

/** A JSON value written by hand, so numbers like 1e309 and -0 and duplicate keys can appear. */
function jsonValue(rng: Rng, corpus: Corpus, depth = 0): string {
  const r = rng.int(depth > 2 ? 6 : 9);
  if (r <= 2) return JSON.stringify(nasty(rng, corpus));
  if (r === 3)
    return rng.pick([
      '1e309',
      '-0',
      '0',
      '600',
      '-1',
      '1.5',
      '2147483648',
      '1E400',
      '0.0000001',
      '123456789012345678901234567890',
    ]);
  if (r === 4) return rng.pick(['true', 'false', 'null']);
  if (r === 5)
    return `[${Array.from({ length: rng.size(5) }, () => (rng.chance(0.8) ? JSON.stringify(nasty(rng, corpus)) : jsonValue(rng, corpus, depth + 1))).join(',')}]`;
  return `{${Array.from({ length: rng.size(4) }, () => `${JSON.stringify(rng.pick(['name', 'class', 'params', 'x', '']))}:${jsonValue(rng, corpus, depth + 1)}`).join(',')}}`;
}

function generatedChainJson(rng: Rng, corpus: Corpus): string {
  const layer = (): string => {
    const names = Array.from({ length: rng.range(0, 4) }, (_, i) => (rng.chance(0.9) ? `f${i}` : nasty(rng, corpus)));
    const filters = names.map((n) => {
      const f = rng.pick(corpus.filters);
      const params = Array.from(
        { length: rng.size(8) },
        () =>
          `${JSON.stringify(rng.chance(0.9) && f.params.length ? rng.pick(f.params) : nasty(rng, corpus))}: ${jsonValue(rng, corpus)}`,
      );
      const fields = [
        `"name": ${rng.chance(0.95) ? JSON.stringify(n) : jsonValue(rng, corpus)}`,
        `"class": ${rng.chance(0.95) ? JSON.stringify(f.className) : jsonValue(rng, corpus)}`,
      ];
      if (rng.chance(0.9)) fields.push(`"params": {${params.join(', ')}}`);
      if (rng.chance(0.1)) fields.push(`"asyncSupported": ${jsonValue(rng, corpus)}`);
      return `{${fields.join(', ')}}`;
    });
    const mappings = Array.from({ length: rng.range(0, 4) }, () => {
      const fields = [
        `"filter": ${rng.chance(0.9) ? JSON.stringify(rng.chance(0.9) && names.length ? rng.pick(names) : 'nope') : jsonValue(rng, corpus)}`,
      ];
      if (rng.chance(0.8))
        fields.push(
          `"urlPatterns": [${Array.from({ length: rng.range(0, 3) }, () => JSON.stringify(rng.pick(URL_PATTERNS))).join(',')}]`,
        );
      if (rng.chance(0.3))
        fields.push(
          `"servletNames": [${Array.from({ length: rng.range(0, 2) }, () => JSON.stringify(rng.pick(['*', 'default', 'jsp']))).join(',')}]`,
        );
      if (rng.chance(0.3))
        fields.push(
          `"dispatchers": [${Array.from({ length: rng.range(0, 3) }, () => JSON.stringify(rng.pick([...DISPATCHERS, 'bogus']))).join(',')}]`,
        );
      return `{${fields.join(', ')}}`;
    });
    const fields = [`"filters": [${filters.join(',\n')}]`, `"mappings": [${mappings.join(',\n')}]`];
    if (rng.chance(0.3))
      fields.push(
        `"servletMappings": {${JSON.stringify(rng.pick(URL_PATTERNS))}: ${JSON.stringify(rng.pick(['default', 'jsp', 'x']))}}`,
      );
    if (rng.chance(0.3)) fields.push(`"welcomeFiles": [${JSON.stringify(nasty(rng, corpus))}]`);
    if (rng.chance(0.3)) fields.push(`"sessionTimeoutMinutes": ${jsonValue(rng, corpus)}`);
    return fields.join(',\n');
  };
  const contexts = Array.from({ length: rng.range(0, 4) }, () => {
    const path = rng.chance(0.8)
      ? rng.pick(['/', '', '/api', '/app', '/a/b', '/api/', '//', 'noslash'])
      : nasty(rng, corpus);
    const host = rng.chance(0.8)
      ? ''
      : `"host": ${rng.chance(0.8) ? JSON.stringify(rng.pick(['localhost', 'a.example', '', 'LOCALHOST'])) : jsonValue(rng, corpus)},\n`;
    return `{${host}"path": ${rng.chance(0.95) ? JSON.stringify(path) : jsonValue(rng, corpus)},\n${layer()}}`;
  });
  const top = [`"version": ${rng.pick(['1', '2', '"1"', 'null'])}`, `"contexts": [${contexts.join(',\n')}]`];
  if (rng.chance(0.5)) top.push(`"global": {${layer()}}`);
  if (rng.chance(0.1)) top.push(`"$schema": "./schemas/tollgate.chain.schema.json"`);
  return `{\n${top.join(',\n')}\n}\n`;
}

const JSON_MUTATIONS: Mutation[] = [
  MUTATIONS.flip!,
  MUTATIONS.char!,
  MUTATIONS.delete!,
  MUTATIONS.duplicate!,
  MUTATIONS.truncate!,
  MUTATIONS.unicode!,
  (s, rng, corpus) => {
    // a string value replaced by another JSON value
    const m = randomMatch(s, /"(?:[^"\\]|\\.)*"/g, rng);
    return m ? s.slice(0, m.index) + jsonValue(rng, corpus) + s.slice(m.index + m[0].length) : null;
  },
  (s, rng) => {
    const j = at(s, rng);
    const depth = rng.pick([10, 1000, 3000]);
    return s.slice(0, j) + '['.repeat(depth) + ']'.repeat(rng.chance(0.8) ? depth : 0) + s.slice(j);
  },
];

// ---------------------------------------------------------------- inputs

/** Input `index` of the run with `seed`: a pure function of both. */
export function makeInput(corpus: Corpus, seed: number, index: number): FuzzInput {
  const rng = new Rng(mix(seed, index));
  const steps: string[] = [];
  let kind: Kind;
  let text: string;
  const r = rng.int(100);
  if (r < 12) {
    kind = 'web';
    text = generatedWebXml(rng, corpus);
    steps.push('generated web.xml');
  } else if (r < 24) {
    kind = 'json';
    text = generatedChainJson(rng, corpus);
    steps.push('generated chain JSON');
  } else {
    const seed0 = rng.pick(
      rng.chance(0.5)
        ? corpus.seeds
        : corpus.byKind[rng.pick(['web', 'web', 'server', 'users', 'context', 'json'] as Kind[])],
    );
    kind = seed0.kind;
    text = seed0.text;
    steps.push(seed0.name);
  }
  const count = rng.pick([0, 1, 1, 1, 2, 2, 3, 4, 6, 10]);
  let nested = false;
  for (let k = 0; k < count; k++) {
    let name: string;
    let m: Mutation;
    if (kind === 'json') {
      const i = rng.int(JSON_MUTATIONS.length);
      name = `json${i}`;
      m = JSON_MUTATIONS[i]!;
    } else {
      name = rng.pick(MUTATION_NAMES);
      // One deep nesting per input at most.
      if (name === 'nest' && nested) name = 'dupElement';
      nested ||= name === 'nest';
      m = MUTATIONS[name]!;
    }
    const out = m(text, rng, corpus, kind);
    if (out !== null && out.length <= MAX_LENGTH) {
      text = out;
      steps.push(name);
    }
  }
  const slot = rng.pick(SLOTS_OF[kind]);
  let data: string | Uint8Array;
  if (kind !== 'json' && rng.chance(0.25)) {
    data = text;
    steps.push('as string');
  } else {
    data = Buffer.from(text, 'utf8');
    if (kind !== 'json' && rng.chance(0.15)) {
      const b = rng.pick(BYTE_MUTATIONS);
      data = mutateBytes(data, b, rng, text);
      steps.push(b);
    }
  }
  return { index, slot, data, description: `#${index} ${slot}: ${steps.join(' + ')}` };
}

// ---------------------------------------------------------------- targets

export interface TargetOutcome {
  target: Target;
  /** Wall-clock time, for reports. */
  ms: number;
  /**
   * CPU time of this process (user + system) while the target ran: the work it did, which other
   * processes on a loaded machine do not inflate as they do wall-clock time. The oracle uses this.
   */
  cpuMs?: number;
  error?: { message: string; stack: string };
}

export interface RunOptions {
  /** Which targets to run for this input (default: all). */
  targets?: ReadonlySet<Target>;
  /** Import the compiled module itself (slow: a new module each time). */
  importModule?: boolean;
}

const FIXED: Record<string, string> = {
  'conf/server.xml': `<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <GlobalNamingResources>
    <Resource name="UserDatabase" auth="Container" type="org.apache.catalina.UserDatabase" factory="org.apache.catalina.users.MemoryUserDatabaseFactory" pathname="conf/tomcat-users.xml" />
  </GlobalNamingResources>
  <Service name="Catalina">
    <Connector port="8080" address="127.0.0.1" protocol="HTTP/1.1" connectionTimeout="20000" />
    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps"><Alias>127.0.0.1</Alias></Host>
    </Engine>
  </Service>
</Server>
`,
  'conf/tomcat-users.xml': `<?xml version="1.0" encoding="UTF-8"?>
<tomcat-users xmlns="http://tomcat.apache.org/xml" version="1.0">
  <role rolename="admin-script"/>
  <user username="deployer" password="{pbkdf2}x" roles="admin-script"/>
</tomcat-users>
`,
};

/**
 * A CATALINA_BASE in a temporary directory (tmpfs when there is one): the
 * example's conf/web.xml and /api application, a stock server.xml; each input
 * is written into its slot and the slot restored afterwards.
 */
export class Workspace {
  readonly dir: string;
  private readonly fixed = new Map<string, string | null>();

  constructor() {
    // Not /dev/shm: the file-access layer never reads under /dev (docs/security.md), a tmpfs there included.
    this.dir = mkdtempSync(join(tmpdir(), 'tollgate-fuzz-'));
    const example = join(REPO, 'examples', 'base');
    const files: Record<string, string> = {
      ...FIXED,
      'conf/web.xml': readFileSync(join(example, 'conf', 'web.xml'), 'utf8'),
      [SLOTS.app]: readFileSync(join(example, 'webapps', 'api', 'WEB-INF', 'web.xml'), 'utf8'),
      'webapps/app/index.html': '<p>fuzz</p>\n',
      'webapps/ROOT/index.html': '<p>root</p>\n',
    };
    for (const [path, text] of Object.entries(files)) this.write(path, text);
    for (const slot of Object.values(SLOTS)) this.fixed.set(slot, files[slot] ?? null);
  }

  private write(path: string, data: string | Uint8Array): void {
    const p = join(this.dir, path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, data);
  }

  /** Puts the input in its slot, runs `fn` on the path to load, puts the slot back. */
  with<T>(input: FuzzInput, fn: (path: string) => T): T {
    const rel = SLOTS[input.slot];
    this.write(rel, input.data);
    try {
      return fn(input.slot === 'chain' ? join(this.dir, rel) : this.dir);
    } finally {
      const original = this.fixed.get(rel);
      if (original === null || original === undefined) rmSync(join(this.dir, rel), { force: true });
      else this.write(rel, original);
    }
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const PROPS = { 'catalina.base': '/srv/tomcat', 'catalina.home': '/usr/share/tomcat10' };

function parseTarget(input: FuzzInput): void {
  const file = `/fuzz/${SLOTS[input.slot]}`;
  const d = input.data;
  switch (input.slot) {
    case 'app':
    case 'tomcat-web':
    case 'global':
    case 'host-default':
      parseWebXml(d, file, input.index % 2 ? PROPS : undefined, { namespaceAware: input.index % 3 === 0 });
      break;
    case 'server':
      parseServerXml(d, file, PROPS);
      break;
    case 'users':
      parseTomcatUsers(d, file, input.index % 2 ? PROPS : undefined);
      break;
    case 'context-file':
    case 'context-meta':
      parseContextXml(d, file, PROPS);
      break;
    case 'chain':
      parseChainJson(typeof d === 'string' ? d : Buffer.from(d).toString('utf8'), file);
      break;
  }
}

function chainTarget(base: CatalinaBase): void {
  const contexts = contextsOf(base);
  for (const c of contexts.slice(0, 6)) {
    const patterns = c.merged.filterMappings.flatMap((m) => m.urlPatterns.map((p) => p.pattern)).slice(0, 3);
    const paths = [...PATHS.slice(0, 6), ...patterns.map((p) => p.replace(/\*/g, 'x'))];
    for (const [i, p] of paths.entries()) effectiveChain(c.merged, p, DISPATCHERS[i % DISPATCHERS.length]);
  }
  for (const host of ['localhost', '127.0.0.1', 'other.example', '', 'LOCALHOST:8080', '[::1]:80']) {
    for (const uri of ['/', '/app/x', '/api/', '/app', '']) findContext(base, host, uri);
  }
}

let sharedStore: MemorySessionStore | null = null;
let importCount = 0;

/** How many compiled modules this process has imported (the test checks the import path works). */
export function importedModules(): number {
  return importCount;
}

/** What compile must give: a module or a reason for every context, and modules that run on the runtime. */
async function compileTarget(base: CatalinaBase, ws: Workspace, importModule: boolean): Promise<CompileResult> {
  const r = compileBase(base);
  const contexts = contextsOf(base).length;
  if (r.modules.length + r.skipped.length !== contexts) {
    throw new Error(
      `compile gave ${r.modules.length} modules and ${r.skipped.length} refusals for ${contexts} contexts`,
    );
  }
  for (const s of r.skipped) {
    if (!s.reason) throw new Error(`compile refused ${s.host}${s.contextPath} without a reason`);
    if (s.state === 'refused' && s.diagnostics.length === 0) {
      throw new Error(`compile says Tomcat refuses ${s.host}${s.contextPath}, but gives no file:line:column for it`);
    }
  }
  for (const m of r.modules) {
    // compile --out writes join(out, fileName): two plain segments, nothing that climbs out.
    const parts = m.fileName.split(/[\\/]/);
    if (parts.length !== 2 || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\0'))) {
      throw new Error(
        `compiled module file name ${JSON.stringify(m.fileName)} would be written outside its host directory`,
      );
    }
    // The module's own code, run as the module would run, on the runtime it imports: a Function with the
    // import turned into a parameter (parsing it is the syntax check). Its sessions go to one shared store
    // (each store of its own would start a sweep timer).
    const body = m.code
      .replace(/^import \{([^}]*)\} from 'tollgate\/runtime';$/m, 'const {$1} = __rt;')
      .replace(/^export function createChain\(/m, 'function createChain(')
      .replace(/^export function create\(/m, 'function create(')
      .replace(/^export default middleware;$/m, 'return middleware;');
    if (body === m.code) throw new Error(`compiled module ${m.fileName} does not have the expected import and export`);
    sharedStore ??= new MemorySessionStore({ sweepIntervalMs: 0 });
    const store = sharedStore;
    const rt = {
      createChainSelector,
      FILTER_FACTORIES,
      createContextRuntime: (o: ContextRuntimeOptions) => createContextRuntime({ ...o, sessionStore: store }),
    };
    const middleware = new Function('__rt', `'use strict';\n${body}`)(rt) as unknown;
    if (typeof middleware !== 'function') throw new Error(`compiled module ${m.fileName} does not build a middleware`);
    if (importModule) {
      const runtime = pathToFileURL(join(REPO, 'src', 'runtime', 'index.ts')).href;
      const file = join(ws.dir, `module-${process.pid}-${importCount++}.mjs`);
      writeFileSync(file, m.code.replace("from 'tollgate/runtime'", `from ${JSON.stringify(runtime)}`));
      try {
        const mod = (await import(pathToFileURL(file).href)) as { default: unknown };
        if (typeof mod.default !== 'function')
          throw new Error(`compiled module ${m.fileName} does not export a middleware`);
      } finally {
        rmSync(file, { force: true });
      }
    }
  }
  return r;
}

function describeError(e: unknown): { message: string; stack: string } {
  const err = e instanceof Error ? e : new Error(String(e));
  return {
    message: `${err.name}: ${err.message}`.slice(0, 500),
    stack: (err.stack ?? '').split('\n').slice(0, 8).join('\n'),
  };
}

/**
 * Runs the targets on one input. A target that throws is a crash; what it
 * throws is recorded and the targets after it that need its result are skipped.
 */
export async function runInput(input: FuzzInput, ws: Workspace, opts: RunOptions = {}): Promise<TargetOutcome[]> {
  const want = opts.targets ?? new Set(TARGETS);
  const out: TargetOutcome[] = [];
  const cpuSince = (c0: NodeJS.CpuUsage): number => {
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  const time = <T>(target: Target, fn: () => T): T | undefined => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    try {
      const v = fn();
      out.push({ target, ms: performance.now() - t0, cpuMs: cpuSince(c0) });
      return v;
    } catch (e) {
      out.push({ target, ms: performance.now() - t0, cpuMs: cpuSince(c0), error: describeError(e) });
      return undefined;
    }
  };
  if (want.has('parse')) time('parse', () => parseTarget(input));
  const needBase = want.has('load') || want.has('lint') || want.has('chain') || want.has('compile');
  if (!needBase) return out;
  const pending: Promise<void>[] = [];
  ws.with(input, (path) => {
    const base = time('load', () => (input.slot === 'chain' ? loadInput(path) : loadBase({ base: path })));
    if (!base) return;
    if (want.has('lint')) time('lint', () => lintBase(base));
    if (want.has('chain')) time('chain', () => chainTarget(base));
    if (want.has('compile')) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      // The compile itself is synchronous and runs while the slot still holds the input.
      const compiled = compileTarget(base, ws, opts.importModule === true).then(
        () => void out.push({ target: 'compile', ms: performance.now() - t0, cpuMs: cpuSince(c0) }),
        (e: unknown) =>
          void out.push({
            target: 'compile',
            ms: performance.now() - t0,
            cpuMs: cpuSince(c0),
            error: describeError(e),
          }),
      );
      pending.push(compiled);
    }
  });
  await Promise.all(pending);
  return out;
}

// ---------------------------------------------------------------- minimisation and regressions

/** The first stack frame inside the repository's src/, to tell crashes apart. */
export function crashSignature(o: TargetOutcome): string {
  const frame = o.error?.stack.split('\n').find((l) => l.includes(`${sep}src${sep}`)) ?? '';
  return `${o.target}: ${o.error?.message.replace(/\d+/g, 'N').slice(0, 120)} @ ${frame
    .trim()
    .replace(/:\d+:\d+\)?$/, '')
    .replace(/^.*src[\\/]/, 'src/')}`;
}

/**
 * Delta reduction: removes chunks of the text, halving the chunk size down to
 * one character, keeping every removal after which `stillFails` holds.
 */
export async function minimise(
  text: string,
  stillFails: (candidate: string) => Promise<boolean>,
  budget = 4000,
): Promise<string> {
  let cur = text;
  let tries = 0;
  for (
    let chunk = Math.max(1, Math.floor(cur.length / 2));
    chunk >= 1 && tries < budget;
    chunk = Math.floor(chunk / 2)
  ) {
    for (let i = 0; i < cur.length && tries < budget;) {
      const candidate = cur.slice(0, i) + cur.slice(i + chunk);
      tries++;
      if (await stillFails(candidate)) cur = candidate;
      else i += chunk;
    }
    if (chunk === 1) break;
  }
  return cur;
}

export const REGRESSIONS = join(REPO, 'test', 'fuzz', 'regressions');

/** A regression file: `<name>.<slot>.<xml|json>`; its slot comes from the name. */
export function regressionInput(file: string, index = 0): FuzzInput {
  const parts = file.split(/[\\/]/).pop()!.split('.');
  const slot = parts[parts.length - 2] as Slot;
  if (!(slot in SLOTS))
    throw new Error(`${file}: the name must end in .<slot>.<ext>, with a slot among ${Object.keys(SLOTS).join(', ')}`);
  return { index, slot, data: readFileSync(file), description: `regression ${file.split(/[\\/]/).pop()}` };
}

export function regressionFiles(): string[] {
  try {
    return readdirSync(REGRESSIONS)
      .filter((f) => /\.(xml|json)$/.test(f))
      .sort()
      .map((f) => join(REGRESSIONS, f));
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------- a run

export interface TargetStats {
  runs: number;
  totalMs: number;
  slowestMs: number;
  slowest: string;
}

export interface Finding {
  kind: 'crash' | 'slow';
  target: Target;
  signature: string;
  input: string;
  message: string;
  ms: number;
}

export interface RunSummary {
  inputs: number;
  targets: Record<Target, TargetStats>;
  findings: Finding[];
}

/** The wall-clock time bench/fuzz.ts reports inputs over (its runs own the machine). */
export const TIME_LIMIT_MS = 1000;

/**
 * The test's bound, on CPU time: generous, so that a loaded machine (the full suite on two cores)
 * cannot fail it, while the super-linear shapes it exists to catch took 1.4 s to 64 s. bench/fuzz.ts
 * reports the times themselves.
 */
export const CPU_LIMIT_MS = 3000;

export function emptySummary(): RunSummary {
  const targets = Object.fromEntries(
    TARGETS.map((t) => [t, { runs: 0, totalMs: 0, slowestMs: 0, slowest: '' }]),
  ) as Record<Target, TargetStats>;
  return { inputs: 0, targets, findings: [] };
}

/** Which targets input `index` gets: parse always, the others every `every[target]`-th input. */
export function targetsFor(index: number, every: Partial<Record<Target, number>>): Set<Target> {
  return new Set(TARGETS.filter((t) => index % (every[t] ?? 1) === 0));
}

/**
 * Adds one input's outcomes to the summary. `limit` says what counts as slow: over `ms` of CPU time
 * (the test) or, with `wall`, of wall-clock time (bench/fuzz.ts, which has the machine to itself).
 */
export function record(
  summary: RunSummary,
  input: FuzzInput,
  outcomes: TargetOutcome[],
  limit: { ms: number; wall?: boolean } = { ms: CPU_LIMIT_MS },
): void {
  summary.inputs++;
  for (const o of outcomes) {
    const s = summary.targets[o.target];
    s.runs++;
    s.totalMs += o.ms;
    if (o.ms > s.slowestMs) {
      s.slowestMs = o.ms;
      s.slowest = input.description;
    }
    if (o.error) {
      const signature = crashSignature(o);
      if (!summary.findings.some((f) => f.signature === signature)) {
        summary.findings.push({
          kind: 'crash',
          target: o.target,
          signature,
          input: input.description,
          message: `${o.error.message}\n${o.error.stack}`,
          ms: o.ms,
        });
      }
    } else if ((limit.wall ? o.ms : (o.cpuMs ?? o.ms)) > limit.ms) {
      summary.findings.push({
        kind: 'slow',
        target: o.target,
        signature: `${o.target}: slow`,
        input: input.description,
        message: `${o.ms.toFixed(0)} ms (${(o.cpuMs ?? o.ms).toFixed(0)} ms of CPU)`,
        ms: o.ms,
      });
    }
  }
}

export function mergeSummaries(parts: RunSummary[]): RunSummary {
  const out = emptySummary();
  for (const p of parts) {
    out.inputs += p.inputs;
    for (const t of TARGETS) {
      const a = out.targets[t];
      const b = p.targets[t];
      a.runs += b.runs;
      a.totalMs += b.totalMs;
      if (b.slowestMs > a.slowestMs) {
        a.slowestMs = b.slowestMs;
        a.slowest = b.slowest;
      }
    }
    for (const f of p.findings)
      if (f.kind === 'slow' || !out.findings.some((x) => x.signature === f.signature)) out.findings.push(f);
  }
  return out;
}
