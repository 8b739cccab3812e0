import type { ChainEntry, ResolvedContext } from '../../chain/index.js';
import { effectiveChain } from '../../chain/index.js';
import { FILTER_SPECS } from '../../filters/index.js';
import type { CheckedFilter, LintContext } from '../types.js';

/** Sample request paths whose chains reveal ordering problems: each url-pattern of the context, made concrete. */
export function samplePaths(c: ResolvedContext): string[] {
  const paths = new Set<string>(['/', '/index.html']);
  for (const m of c.merged.filterMappings) {
    for (const u of m.mapping.urlPatterns) {
      const p = u.value;
      if (p.startsWith('*.')) paths.add('/x' + p.slice(1));
      else if (p.endsWith('/*')) paths.add(p.slice(0, -1) + 'x');
      else if (p.startsWith('/')) paths.add(p);
    }
  }
  return [...paths];
}

export type Entries = { entry: ChainEntry; checked: CheckedFilter | undefined }[];

// Three rules walk the same chains: each context's are computed once per lint run (one contexts array per run).
const computed = new WeakMap<ResolvedContext[], Map<ResolvedContext, Entries[]>>();

function chainsOf(ctx: LintContext, c: ResolvedContext, i: number): Entries[] {
  let perRun = computed.get(ctx.contexts);
  if (!perRun) {
    perRun = new Map();
    computed.set(ctx.contexts, perRun);
  }
  let chains = perRun.get(c);
  if (!chains) {
    chains = [];
    const seen = new Set<string>();
    for (const path of samplePaths(c)) {
      const entries = effectiveChain(c.merged, path, 'REQUEST').entries;
      const key = entries.map((e) => e.filter.name).join('\0');
      if (seen.has(key)) continue;
      seen.add(key);
      chains.push(entries.map((entry) => ({ entry, checked: ctx.checked(entry.filter, i) })));
    }
    perRun.set(c, chains);
  }
  return chains;
}

/**
 * Every path chain of a context, with the validated filter of each entry; each distinct order is
 * visited once. A rule asks only for the contexts where it can find something (mayRunAfter,
 * hasTwo), so the chains of the others are never computed (most applications map nothing a
 * chain rule looks for).
 */
export function forEachChainOf(ctx: LintContext, i: number, visit: (entries: Entries) => void): void {
  for (const entries of chainsOf(ctx, ctx.contexts[i]!, i)) visit(entries);
}

/** The bit of each spec id in the per-context masks below (31-bit integers; ids past that are counted by scanning). */
const BIT = new Map(FILTER_SPECS.slice(0, 30).map((spec, i) => [spec.id, 1 << i]));

/** What the chain rules ask of every context before computing its chains, by position in ctx.contexts, each worked out on first use. */
interface Kinds {
  /** The bits of the spec ids of the context's filters; -1 until asked. */
  present: number[];
  /** The bits of the spec ids that two or more of its filters have (set with present). */
  twice: number[];
  /** The spec id of the filter that heads every REQUEST chain of the context, if one does (see firstId); null until asked. */
  first: (string | undefined | null)[];
}

// Three rules ask for every context: kept once per run (one contexts array per run) in plain arrays, not a map per context.
const kindsCache = new WeakMap<ResolvedContext[], Kinds>();

function kindsOf(ctx: LintContext): Kinds {
  let kinds = kindsCache.get(ctx.contexts);
  if (!kinds) {
    const n = ctx.contexts.length;
    kinds = {
      present: new Array<number>(n).fill(-1),
      twice: new Array<number>(n).fill(0),
      first: new Array<string | undefined | null>(n).fill(null),
    };
    kindsCache.set(ctx.contexts, kinds);
  }
  return kinds;
}

/** The bits of the spec ids of context i's filters. */
function presentIn(ctx: LintContext, kinds: Kinds, i: number): number {
  if (kinds.present[i]! < 0) {
    let present = 0;
    let twice = 0;
    for (const f of ctx.contexts[i]!.merged.filters.values()) {
      const id = ctx.checked(f, i)?.spec?.id;
      const bit = id ? (BIT.get(id) ?? 0) : 0;
      twice |= present & bit;
      present |= bit;
    }
    kinds.present[i] = present;
    kinds.twice[i] = twice;
  }
  return kinds.present[i]!;
}

function firstIn(ctx: LintContext, kinds: Kinds, i: number): string | undefined {
  let first = kinds.first[i];
  if (first === null) kinds.first[i] = first = firstId(ctx, i);
  return first;
}

/** How many of the filters of a context have spec `id`, counted one by one (for ids without a bit). */
function countOf(ctx: LintContext, i: number, id: string): number {
  let n = 0;
  for (const f of ctx.contexts[i]!.merged.filters.values()) if (ctx.checked(f, i)?.spec?.id === id) n++;
  return n;
}

/** Whether two or more of the filters of ctx.contexts[i] have spec `id`. */
export function hasTwo(ctx: LintContext, i: number, id: string): boolean {
  // Every filter of a context is one of ctx.filters, each definition once: two of a kind need two validated.
  if (ctx.ofKind(id).length < 2) return false;
  const bit = BIT.get(id);
  if (bit === undefined) return countOf(ctx, i, id) >= 2;
  const kinds = kindsOf(ctx);
  presentIn(ctx, kinds, i);
  return (kinds.twice[i]! & bit) !== 0;
}

/**
 * The spec id of the filter of the context's first mapping when that mapping is for "/*" and
 * REQUEST, so that the filter comes first in any REQUEST chain that has entries.
 */
function firstId(ctx: LintContext, i: number): string | undefined {
  const c = ctx.contexts[i]!;
  const m = c.merged.filterMappings[0];
  // "/*" (a path pattern with an empty prefix) matches every sample path, as they all start with "/".
  if (
    !m ||
    (m.dispatcherMask & 1) === 0 ||
    !m.urlPatterns.some((p) => p.kind === 'all' || (p.kind === 'path' && p.key === ''))
  )
    return undefined;
  const f = c.merged.filters.get(m.filterName);
  return f === undefined ? undefined : ctx.checked(f, i)?.spec?.id;
}

/** For the "X runs after Y" rules: context i can break the order only with both kinds and X not always first. */
export function mayRunAfter(ctx: LintContext, i: number, id: string, before: ReadonlySet<string>): boolean {
  // Cheapest first: a kind no filter validated so far has, then the context's first filter (one lookup), then all its filters.
  if (ctx.ofKind(id).length === 0) return false;
  const kinds = kindsOf(ctx);
  if (firstIn(ctx, kinds, i) === id || !hasKind(ctx, i, kinds, id)) return false;
  for (const b of before) if (ctx.ofKind(b).length > 0 && hasKind(ctx, i, kinds, b)) return true;
  return false;
}

function hasKind(ctx: LintContext, i: number, kinds: Kinds, id: string): boolean {
  const bit = BIT.get(id);
  return bit === undefined ? countOf(ctx, i, id) > 0 : (presentIn(ctx, kinds, i) & bit) !== 0;
}

const REMOTE_IP = new Set(['remote-ip']);

/**
 * A context hook that shows `visit` every chain of the context in which a RemoteIpFilter runs before a filter of
 * kind `kind`: the RemoteIpFilter's entry and the entries after it. Contexts where that cannot happen are skipped
 * before their chains are computed.
 */
export function afterRemoteIp(
  ctx: LintContext,
  kind: string,
  visit: (ip: Entries[number], after: Entries) => void,
): (c: ResolvedContext, i: number) => void {
  return (_c, i) => {
    if (!mayRunAfter(ctx, i, kind, REMOTE_IP)) return;
    forEachChainOf(ctx, i, (entries) => {
      const ipAt = entries.findIndex((e) => e.checked?.spec?.id === 'remote-ip');
      if (ipAt >= 0) visit(entries[ipAt]!, entries.slice(ipAt + 1));
    });
  };
}
