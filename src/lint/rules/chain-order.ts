import type { ChainEntry, ResolvedContext } from '../../chain/index.js';
import { effectiveChain } from '../../chain/index.js';
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

type Entries = { entry: ChainEntry; checked: CheckedFilter | undefined }[];

// Three rules walk the same chains: each context's are computed once per lint run (one contexts array per run).
const computed = new WeakMap<ResolvedContext[], Map<ResolvedContext, Entries[]>>();

function chainsOf(ctx: LintContext, c: ResolvedContext): Entries[] {
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
      chains.push(entries.map((entry) => ({ entry, checked: ctx.checked(entry.filter) })));
    }
    perRun.set(c, chains);
  }
  return chains;
}

/**
 * Every (context, path) chain, with the validated filter of each entry; each distinct order is
 * visited once. `relevant` lets a rule skip contexts where it cannot find anything, so their
 * chains are never computed (most applications map nothing a chain rule looks for).
 */
export function forEachChain(ctx: LintContext, visit: (c: ResolvedContext, entries: Entries) => void, relevant?: (c: ResolvedContext) => boolean): void {
  for (const c of ctx.contexts) {
    if (relevant && !relevant(c)) continue;
    for (const entries of chainsOf(ctx, c)) visit(c, entries);
  }
}

/** How many of the context's filters have each spec id. */
export function specCounts(ctx: LintContext, c: ResolvedContext): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of c.merged.filters.values()) {
    const id = ctx.checked(f)?.spec?.id;
    if (id) out.set(id, (out.get(id) ?? 0) + 1);
  }
  return out;
}

/**
 * Whether a filter of spec `id` heads every REQUEST chain of the context: the first mapping is
 * such a filter's, for "/*" and REQUEST, so it comes first in any chain that has entries.
 */
export function alwaysFirst(ctx: LintContext, c: ResolvedContext, id: string): boolean {
  const m = c.merged.filterMappings[0];
  // "/*" (a path pattern with an empty prefix) matches every sample path, as they all start with "/".
  if (!m || (m.dispatcherMask & 1) === 0 || !m.urlPatterns.some((p) => p.kind === 'all' || (p.kind === 'path' && p.key === ''))) return false;
  const f = c.merged.filters.get(m.filterName);
  return f !== undefined && ctx.checked(f)?.spec?.id === id;
}

/** For the "X runs after Y" rules: a context can break the order only with both kinds and X not always first. */
export function mayRunAfter(ctx: LintContext, c: ResolvedContext, id: string, before: ReadonlySet<string>): boolean {
  const counts = specCounts(ctx, c);
  if (!counts.has(id) || ![...before].some((b) => counts.has(b))) return false;
  return !alwaysFirst(ctx, c, id);
}
