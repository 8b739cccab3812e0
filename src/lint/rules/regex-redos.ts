import { createRequire } from 'node:module';
import type { AST, RegExpParser } from '@eslint-community/regexpp';
import type { CompiledRegex } from '../../filters/index.js';
import { BoundedCache } from '../../protocol/memo.js';
import type { Rule } from '../types.js';

/** What recheck says of one pattern (the subset of its Diagnostics read here). */
interface Verdict {
  status: 'safe' | 'vulnerable' | 'unknown';
  complexity?: { type: string; degree?: number; summary?: string };
  attack?: { pattern: string; string: string };
  /** Set when tollgate did not ask recheck: the pattern is over the size it analyses. */
  tooLarge?: boolean;
}
type CheckSync = (source: string, flags: string, params?: Record<string, unknown>) => Verdict;

/**
 * recheck's JavaScript build, run in this thread. The package ships it as dist/bundle/recheck.cjs
 * (scripts/bundle.mjs; the bundles and their chunks look beside and above them), so installing
 * tollgate installs no recheck: the recheck package pulls a 23 MB Java JAR and a 29 MB native
 * binary as optional dependencies (57 MB installed for this one rule). From src/ it is the recheck
 * package (a devDependency). The same analyser as the native binary: the 30 patterns of
 * test/hardening/regex-redos.test.ts get the same verdicts, in about 4x the time (the search is
 * bounded by work, not time: see DETERMINISTIC).
 */
const RECHECK_PATHS = ['./recheck.cjs', '../recheck.cjs', 'recheck'];

// 2.9 MB of JavaScript: loaded on the first regex parameter only, so a lint of a base without one starts as fast as before.
let checkSync: CheckSync | null = null;
function analyser(): CheckSync {
  if (checkSync) return checkSync;
  const load = createRequire(import.meta.url);
  let mod: { checkSync: CheckSync } | null = null;
  for (const path of RECHECK_PATHS) {
    try {
      mod = load(path) as { checkSync: CheckSync };
      break;
    } catch (err) {
      if (
        (err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' ||
        path === RECHECK_PATHS[RECHECK_PATHS.length - 1]
      )
        throw err;
    }
  }
  const pure = mod!.checkSync;
  // recheck's documented switch for its synchronous backend, read on each call: "pure" is its
  // JavaScript build in this thread (its default starts a worker thread that starts the native binary).
  checkSync = (source, flags, params) => {
    const before = process.env['RECHECK_SYNC_BACKEND'];
    process.env['RECHECK_SYNC_BACKEND'] = 'pure';
    try {
      return pure(source, flags, params);
    } finally {
      if (before === undefined) delete process.env['RECHECK_SYNC_BACKEND'];
      else process.env['RECHECK_SYNC_BACKEND'] = before;
    }
  };
  return checkSync;
}

/**
 * recheck with every clock switched off: its search is then bounded by its work limits only
 * (NFA and pattern size choose the automaton or the fuzzer; the fuzzer counts the characters its
 * VM reads, with a fixed seed), so a pattern gets the same verdict on a loaded 2-core runner as on
 * a fast laptop, and whether the native binary or the JavaScript build of the same analyser runs.
 * A timeout (300 ms per pattern, 600 ms per process before) made verdicts, warning counts and the
 * exit code under --max-warnings depend on CPU speed and on the order of the webapps.
 */
const DETERMINISTIC = {
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  recallTimeout: -1,
  randomSeed: 0,
};

/**
 * The largest alternative (in characters of translated JavaScript) recheck is asked about. Its
 * work grows much faster than the pattern: a 211-character alternative of literal text and
 * wildcards (from test/fuzz, seed 1 input 897) took 8.4 s, a 60-way alternation of host names
 * (2,000 characters) 8 s in the JavaScript build, while every alternative of an address or host
 * list seen so far is under 100. Above this the verdict is `unknown` by size, the same on every machine.
 */
export const MAX_ANALYSED_LENGTH = 160;

/** Verdicts by alternative and flags, for the life of the process (the same pattern is usually repeated across webapps). */
// Bounded: a long-lived process (serve, the fuzzer's 1,000,000 inputs) must not keep every pattern it has seen.
const verdicts = new BoundedCache<string, Verdict>(1_000);
/**
 * Whether a JavaScript pattern repeats anything without bound (*, + or {n,}
 * outside a character class). Without that it only matches inputs of bounded
 * length, so its matching time cannot grow with the input: no ReDoS by
 * definition, and recheck (140 ms to load) need not be asked. Most address
 * patterns are of this kind (10\.\d{1,3}\.\d{1,3}\.\d{1,3}).
 */
export function repeatsUnbounded(source: string): boolean {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
    } else if (c === '*' || c === '+') {
      return true;
    } else if (c === '{') {
      const m = /^\{\d+,\}/.exec(source.slice(i, i + 24));
      if (m) return true;
    }
  }
  return false;
}

const BOUNDED: Verdict = { status: 'safe', complexity: { type: 'constant', summary: 'no unbounded repetition' } };
const TOO_LARGE: Verdict = { status: 'unknown', tooLarge: true };

/**
 * The alternatives of a whole-string pattern (^(?:A|B|...)$, as translateJavaRegex writes it), each
 * as a whole-string pattern of its own, or the pattern itself when it has one alternative or a
 * backreference (which may name a group of another alternative). Tomcat matches with matches():
 * the engine tries A to the end, backtracking inside it, then B, so the time of the whole is the
 * sum of the times of ^(?:A)$ and ^(?:B)$ and the pattern is vulnerable exactly when one of them
 * is. Asked one by one, a long list of address alternatives stays within what recheck analyses.
 */
// Loaded with the first pattern that has alternatives to split, like recheck.
let parser: RegExpParser | null = null;

export function alternativesOf(source: string, flags: string): string[] {
  let ast: AST.RegExpLiteral;
  try {
    parser ??= new (
      createRequire(import.meta.url)('@eslint-community/regexpp') as typeof import('@eslint-community/regexpp')
    ).RegExpParser({ ecmaVersion: 2024 });
    ast = parser.parseLiteral(`/${source}/${flags}`);
  } catch {
    return [source];
  }
  const top = ast.pattern.alternatives;
  const group = top.length === 1 && top[0]!.elements.length === 3 ? top[0]!.elements[1] : undefined;
  if (!group || group.type !== 'Group' || group.alternatives.length < 2 || /\\(?:[1-9]|k<)/.test(source))
    return [source];
  return group.alternatives.map((a) => `^(?:${a.raw})$`);
}

const RANK = (v: Verdict): number => (v.complexity?.type === 'exponential' ? 1_000 : (v.complexity?.degree ?? 2));

/** One alternative's verdict, remembered. */
function verdictOf(source: string, flags: string): Verdict {
  const key = `${flags}/${source}`;
  let v = verdicts.get(key);
  if (!v) {
    if (!repeatsUnbounded(source)) v = BOUNDED;
    else if (source.length > MAX_ANALYSED_LENGTH) v = TOO_LARGE;
    else v = analyser()(source, flags, DETERMINISTIC);
    verdicts.set(key, v);
  }
  return v;
}

// The verdict of each pattern object: a shared config's pattern is asked about once per declaration.
const whole = new WeakMap<CompiledRegex, Verdict>();

/**
 * recheck's verdict on a translated pattern, alternative by alternative: vulnerable when one
 * alternative is (the worst one is named), else `unknown` when one could not be analysed, else safe.
 * A function of the pattern alone: no clock, no budget shared with other patterns.
 */
export function redosVerdict(re: CompiledRegex): Verdict {
  let v = whole.get(re);
  if (v) return v;
  let unknown: Verdict | undefined;
  for (const alt of alternativesOf(re.source, re.flags)) {
    const a = verdictOf(alt, re.flags);
    if (a.status === 'vulnerable') {
      if (!v || RANK(a) > RANK(v)) v = a;
    } else if (a.status === 'unknown') unknown ??= a;
  }
  v ??= unknown ?? BOUNDED;
  whole.set(re, v);
  return v;
}

function isRegex(v: unknown): v is CompiledRegex {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as CompiledRegex).source === 'string' &&
    typeof (v as CompiledRegex).java === 'string' &&
    (v as CompiledRegex).source !== ''
  );
}

/**
 * Whether any property of a config holds a pattern: most filters have none, and looking each
 * init-param name up in the config (a name that is no property must be hashed and searched
 * for) was most of this rule's time. Only own properties can hold one: what a config inherits
 * is Object.prototype's, never a pattern.
 */
function holdsRegex(config: object): boolean {
  if (holding.has(config)) return true;
  for (const k in config) {
    if (isRegex((config as Record<string, unknown>)[k])) {
      holding.add(config);
      return true;
    }
  }
  return false;
}

// Identical declarations share one validated config (lintBase's validation cache): one with a pattern is searched once.
const holding = new WeakSet<object>();

export const rule: Rule = {
  meta: {
    id: 'regex-redos',
    description:
      'A regex parameter open to catastrophic backtracking: one crafted request can hold a thread for seconds.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason: 'Tomcat starts; one crafted request can hold a thread for seconds (java.util.regex backtracks).',
    variants: [{ severity: 'warning', effect: 'tollgate', when: 'the analyser could not decide within its budget' }],
    category: 'security',
    securitySeverity: 7.5,
  },
  visit: (ctx) => ({
    filter(f) {
      const config = f.config as Record<string, unknown> | null;
      if (!config || typeof config !== 'object' || !holdsRegex(config)) return;
      // Only patterns written in the configuration: Tomcat's defaults are linear.
      for (const p of f.def.initParams) {
        const name = p.name.value;
        const value = config[name];
        if (!isRegex(value)) continue;
        const v = redosVerdict(value);
        if (v.status === 'unknown') {
          ctx.report({
            severity: 'warning',
            message: v.tooLarge
              ? `${name}: an alternative of this pattern is over ${MAX_ANALYSED_LENGTH} characters, more than the ReDoS analysis takes on, so whether it can backtrack catastrophically is not known (a pattern this long is hard to review too). Split it into shorter alternatives (a|b|c), or check it by hand: compile and serve will run it.`
              : `${name}: the ReDoS analyser could not model this pattern, so whether it can backtrack catastrophically is not known. Simplify it, or check it by hand: compile and serve will run it.`,
            span: p.value.span,
          });
          continue;
        }
        if (v.status !== 'vulnerable') continue;
        const how =
          v.complexity?.type === 'exponential' ? 'exponential' : `polynomial (degree ${v.complexity?.degree ?? '≥ 2'})`;
        const attack = v.attack?.pattern
          ? ` An input of the shape ${v.attack.pattern.length > 120 ? v.attack.pattern.slice(0, 117) + '...' : v.attack.pattern} shows it.`
          : '';
        ctx.report({
          message: `${name}: matching this pattern takes ${how} time in the length of the input, on Tomcat (java.util.regex backtracks) as on Node: a client that controls the matched value (an X-Forwarded-For entry, a reverse-DNS name, a forwarded address) can hold a request thread for seconds.${attack} Rewrite it without nested or overlapping repetition (the recheck analyser behind this rule names the shape of input that shows it). compile and serve refuse a context that has it.`,
          span: p.value.span,
        });
      }
    },
  }),
};
