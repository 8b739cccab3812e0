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

type Visited = { c: ResolvedContext; entries: { entry: ChainEntry; checked: CheckedFilter | undefined }[] };

// Two rules walk the same chains: compute them once per lint run (one contexts array per run).
const computed = new WeakMap<ResolvedContext[], Visited[]>();

/** Every (context, path) chain, with the validated filter of each entry; each distinct order is visited once. */
export function forEachChain(ctx: LintContext, visit: (c: ResolvedContext, entries: Visited['entries']) => void): void {
  let chains = computed.get(ctx.contexts);
  if (!chains) {
    chains = [];
    for (const c of ctx.contexts) {
      const seen = new Set<string>();
      for (const path of samplePaths(c)) {
        const entries = effectiveChain(c.merged, path, 'REQUEST').entries;
        const key = entries.map((e) => e.filter.name).join('\0');
        if (seen.has(key)) continue;
        seen.add(key);
        chains.push({ c, entries: entries.map((entry) => ({ entry, checked: ctx.checked(entry.filter) })) });
      }
    }
    computed.set(ctx.contexts, chains);
  }
  for (const { c, entries } of chains) visit(c, entries);
}
