import { createRequire } from 'node:module';
import type { CompiledRegex } from '../../filters/index.js';
import type { Rule } from '../types.js';

/** What recheck says of one pattern (the subset of its Diagnostics read here). */
interface Verdict {
  status: 'safe' | 'vulnerable' | 'unknown';
  complexity?: { type: string; degree?: number; summary?: string };
  attack?: { pattern: string; string: string };
}
type CheckSync = (source: string, flags: string, params?: { timeout?: number }) => Verdict;

// recheck is 2.9 MB of JavaScript: loaded on the first regex parameter only, so a lint of a base without one starts as fast as before.
let checkSync: CheckSync | null = null;
function analyser(): CheckSync {
  checkSync ??= (createRequire(import.meta.url)('recheck') as { checkSync: CheckSync }).checkSync;
  return checkSync;
}

/** Verdicts by translated source and flags, for the life of the process (the same pattern is usually repeated across webapps). */
const verdicts = new Map<string, Verdict>();
const MAX_VERDICTS = 1_000;

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

/**
 * recheck's time per pattern, and in all for one process. Ordinary patterns take
 * 2-160 ms; a fuzzed 100 KB descriptor held patterns that took 1.4 s together,
 * over the second a lint of any input may take. Past either bound the verdict
 * is `unknown`: reported as a warning, so a pattern cannot hide behind slow ones.
 */
const RECHECK_TIMEOUT_MS = 300;
const RECHECK_BUDGET_MS = 600;
let spentMs = 0;

const UNDECIDED: Verdict = { status: 'unknown' };

/**
 * The timeout for the next pattern after `spent` ms, or null when the budget is
 * gone. A whole number: recheck's agent never answers a fractional timeout (the
 * process that asked then waits forever, as serve did under the conformance run).
 */
export function recheckTimeout(spent: number): number | null {
  const left = Math.floor(Math.min(RECHECK_TIMEOUT_MS, RECHECK_BUDGET_MS - spent));
  return left >= 20 ? left : null;
}

const BOUNDED: Verdict = { status: 'safe', complexity: { type: 'constant', summary: 'no unbounded repetition' } };

// The key of each pattern object: a shared config's pattern is asked about once per declaration, its key built once.
const keys = new WeakMap<CompiledRegex, string>();

/** recheck's own verdict on a translated pattern; `unknown` when it ran out of time (not reported). */
export function redosVerdict(re: CompiledRegex): Verdict {
  let key = keys.get(re);
  if (key === undefined) {
    key = `${re.flags}/${re.source}`;
    keys.set(re, key);
  }
  let v = verdicts.get(key);
  if (!v) {
    const timeout = recheckTimeout(spentMs);
    if (!repeatsUnbounded(re.source)) v = BOUNDED;
    else if (timeout === null) v = UNDECIDED;
    else {
      const started = performance.now();
      v = analyser()(re.source, re.flags, { timeout });
      spentMs += performance.now() - started;
    }
    // Bounded: a long-lived process (serve, the fuzzer's 1,000,000 inputs) must not keep every pattern it has seen.
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(key, v);
  }
  return v;
}

function isRegex(v: unknown): v is CompiledRegex {
  return typeof v === 'object' && v !== null && typeof (v as CompiledRegex).source === 'string' && typeof (v as CompiledRegex).java === 'string' && (v as CompiledRegex).source !== '';
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
    description: 'A regex parameter open to catastrophic backtracking: one crafted request can hold a thread for seconds.',
    defaultSeverity: 'error',
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
            message: `${name}: the ReDoS analyser could not decide in time whether this pattern can backtrack catastrophically (a pattern this hard to analyse is hard to review too). Simplify it, or check it by hand: compile and serve will run it.`,
            span: p.value.span,
          });
          continue;
        }
        if (v.status !== 'vulnerable') continue;
        const how = v.complexity?.type === 'exponential' ? 'exponential' : `polynomial (degree ${v.complexity?.degree ?? '≥ 2'})`;
        const attack = v.attack?.pattern ? ` An input of the shape ${v.attack.pattern.length > 120 ? v.attack.pattern.slice(0, 117) + '...' : v.attack.pattern} shows it.` : '';
        ctx.report({
          message: `${name}: matching this pattern takes ${how} time in the length of the input, on Tomcat (java.util.regex backtracks) as on Node: a client that controls the matched value (an X-Forwarded-For entry, a reverse-DNS name, a forwarded address) can hold a request thread for seconds.${attack} Rewrite it without nested or overlapping repetition (the recheck analyser behind this rule names the shape of input that shows it). compile and serve refuse a context that has it.`,
          span: p.value.span,
        });
      }
    },
  }),
};
