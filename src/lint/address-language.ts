/**
 * Which client addresses and host names an allow/deny/proxy regex can match, decided on the
 * regular languages themselves (refa builds the automata) rather than on sample strings: a pattern
 * either shares a word with the language of the values Tomcat compares it with, or it does not.
 */
import { createRequire } from 'node:module';
import type { NFA, ReadonlyWordSet } from 'refa';
import { translateJavaRegex } from '../filters/java-regex.js';

// refa (1.2 MB) is loaded on the first address pattern only: a lint of a base without one, and each
// worker of a parallel lint, starts as fast as before.
let loaded: typeof import('refa') | null = null;
const refa = (): typeof import('refa') => (loaded ??= createRequire(import.meta.url)('refa') as typeof import('refa'));

/** An IPv4 address as Tomcat's getRemoteAddr() gives it: four decimal octets, no leading zeros. */
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
/** An IPv6 address as Java's Inet6Address.getHostAddress() gives it: eight lower-case groups, no leading zeros, never "::". */
const GROUP = '(?:0|[1-9a-f][0-9a-f]{0,3})';
const IPV6 = `${GROUP}(?::${GROUP}){7}`;
/** Any IPv6 text, as a proxy may write it into X-Forwarded-For (nginx and most proxies write the condensed form, ::1). */
const IPV6_TEXT = '[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}';
/** A host name as reverse DNS gives it (RemoteHostFilter), or the address when lookups are off. */
const HOST = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*';

/**
 * What a pattern is compared with: `address`, the socket address (RemoteAddrFilter); `forwarded`,
 * the socket address or an X-Forwarded-For entry (RemoteIpFilter's proxies); `host`, a host name
 * or, with lookups off, the address (RemoteHostFilter).
 */
export type AddressKind = 'address' | 'forwarded' | 'host' | 'condensed-ipv6';
const DOMAINS: Record<AddressKind, string> = {
  // Only to tell a pattern written for "::1" (remote-addr-ipv6-form's finding) from one that matches nothing.
  'condensed-ipv6': '(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4})*)?::(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4})*)?',
  address: `${IPV4}|${IPV6}`,
  forwarded: `${IPV4}|${IPV6}|${IPV6_TEXT}`,
  host: `${IPV4}|${IPV6}|${HOST}`,
};

/** Past this many automaton states the question is left open (the same answer on every machine: a count, not a clock). */
const MAX_NODES = 20_000;

/** The automaton of a translated whole-string pattern ^(?:X)$, or null when it has what an automaton cannot hold (backreferences, lookaround). */
function automatonOf(source: string, flags: string): NFA | null {
  if (!source.startsWith('^(?:') || !source.endsWith(')$')) return null;
  try {
    const { JS, NFA } = refa();
    const { expression, maxCharacter } = JS.Parser.fromLiteral({ source: source.slice(4, -2), flags }).parse({
      backreferences: 'throw',
      assertions: 'throw',
    });
    return NFA.fromRegex(expression, { maxCharacter }, { assertions: 'throw' });
  } catch {
    return null;
  }
}

const domains = new Map<string, NFA>();
function domainOf(kind: AddressKind, flags: string): NFA {
  const key = `${kind}/${flags.includes('u') ? 'u' : ''}`;
  let d = domains.get(key);
  if (!d) {
    d = automatonOf(`^(?:${DOMAINS[kind]})$`, flags.includes('u') ? 'u' : '')!;
    domains.set(key, d);
  }
  return d;
}

function firstWord(sets: Iterable<ReadonlyWordSet>): string | null {
  const { Words } = refa();
  for (const ws of sets) return Words.fromUnicodeToString(Words.pickMostReadableWord(ws));
  return null;
}

/** Whether the pattern matches some value of the kind (an example when it does), or null when that cannot be decided. */
export function matchesAny(
  source: string,
  flags: string,
  kind: AddressKind,
): { any: false } | { any: true; example: string } | null {
  const nfa = automatonOf(source, flags);
  if (!nfa) return null;
  const domain = domainOf(kind, flags);
  const { getIntersectionWordSets, isDisjointWith } = refa();
  try {
    if (isDisjointWith(nfa, domain, MAX_NODES)) return { any: false };
    return { any: true, example: firstWord(getIntersectionWordSets(nfa, domain, MAX_NODES)) ?? '' };
  } catch {
    return null;
  }
}

/**
 * The offsets of the dots of a Java pattern that match any character: outside a character
 * class, not escaped, not quoted (\Q...\E), and not followed by a quantifier (".*" and ".+" are
 * meant as wildcards; a dot that stands between labels or octets is meant as a dot).
 */
export function bareDots(java: string): number[] {
  const out: number[] = [];
  let depth = 0;
  for (let i = 0; i < java.length; i++) {
    const c = java[i];
    if (c === '\\') {
      if (java[i + 1] === 'Q') {
        const end = java.indexOf('\\E', i + 2);
        if (end < 0) break;
        i = end + 1;
      } else i++;
    } else if (c === '[') depth++;
    else if (c === ']' && depth > 0) depth--;
    else if (c === '.' && depth === 0 && !/[*+?{]/.test(java[i + 1] ?? '')) out.push(i);
  }
  return out;
}

/**
 * A value of the kind that the pattern matches only because its bare dots match any character,
 * that is a word of pattern ∩ kind outside (pattern with those dots escaped); null when there is
 * none or it cannot be decided.
 */
export function matchedByBareDots(java: string, dots: readonly number[], kind: AddressKind): string | null {
  const whole = translateJavaRegex(java);
  let escapedJava = '';
  let from = 0;
  for (const d of dots) {
    escapedJava += java.slice(from, d) + '\\.';
    from = d + 1;
  }
  escapedJava += java.slice(from);
  const escaped = translateJavaRegex(escapedJava);
  if (!whole.source || !escaped.source) return null;
  const wide = automatonOf(whole.source, whole.flags);
  const narrow = automatonOf(escaped.source, escaped.flags);
  if (!wide || !narrow) return null;
  const { DFA, NFA, getIntersectionWordSets } = refa();
  try {
    const inKind = NFA.fromIntersection(wide, domainOf(kind, whole.flags), new NFA.LimitedNodeFactory(MAX_NODES));
    const outside = DFA.fromFA(narrow, new DFA.LimitedNodeFactory(MAX_NODES));
    outside.complement();
    return firstWord(getIntersectionWordSets(inKind, outside, MAX_NODES));
  } catch {
    return null;
  }
}
