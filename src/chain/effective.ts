import type { Dispatcher } from '../model/index.js';
import { createChainSelector, dispatcherBits, type ChainSelector, type SelectorTable, type ServletMatch } from '../runtime/chain-selector.js';
import type { MergedFilter, MergedFilterMapping, MergedWebApp } from './merge.js';

export { dispatcherBits, type ServletMatch };

export interface ChainEntry {
  filter: MergedFilter;
  mapping: MergedFilterMapping;
  matchedBy: { kind: 'url-pattern' | 'servlet-name'; value: string };
}

interface Compiled {
  filters: MergedFilter[];
  table: SelectorTable;
  /** Built once per application; lint asks for many paths. */
  select: ChainSelector;
}

const compiled = new WeakMap<MergedWebApp, Compiled>();

/**
 * The runtime's selector table of a merged application: filters by index,
 * mappings in Tomcat's order (an undefined filter gets -1 and never runs).
 * The compiler writes exactly this table into chain modules.
 */
export function selectorTableOf(app: MergedWebApp): { filters: MergedFilter[]; table: SelectorTable; select: ChainSelector } {
  const hit = compiled.get(app);
  if (hit) return hit;
  const filters = [...app.filters.values()];
  const index = new Map(filters.map((f, i) => [f.name, i]));
  const table: SelectorTable = {
    filterMappings: app.filterMappings.map((m) => ({
      filter: index.get(m.mapping.filterName.value) ?? -1,
      urlPatterns: m.mapping.urlPatterns.map((u) => u.value),
      servletNames: m.mapping.servletNames.map((s) => s.value),
      dispatchers: m.mapping.dispatchers.map((d) => d.value),
    })),
    servletMappings: [...app.servletMappings.values()].map((s) => ({ pattern: s.pattern, servlet: s.servletName })),
    welcomeFiles: app.welcomeFiles,
  };
  const c = { filters, table, select: createChainSelector(table, { cacheSize: 0 }) };
  compiled.set(app, c);
  return c;
}

/**
 * The servlet that serves a path, in the Mapper's order: exact, longest
 * prefix, extension, welcome files for a path ending in "/" (when `exists`
 * says which files exist), then the default servlet.
 */
export function resolveServlet(app: MergedWebApp, path: string, exists?: (path: string) => boolean): ServletMatch | null {
  return effectiveChain(app, path, 'REQUEST', exists).servlet;
}

/**
 * The filters that run for a request, in Tomcat's order: every mapping whose
 * url-pattern matches, in mapping order, then every mapping whose servlet-name
 * matches the servlet, in mapping order. A filter runs once, at its first place.
 */
export function effectiveChain(
  app: MergedWebApp,
  path: string,
  dispatcher: Dispatcher = 'REQUEST',
  exists?: (path: string) => boolean,
): { servlet: ServletMatch | null; entries: ChainEntry[] } {
  const { filters, table, select } = selectorTableOf(app);
  const selection = (exists ? createChainSelector(table, { exists }) : select)(path, dispatcher);
  return {
    servlet: selection.servlet,
    entries: selection.entries.map((e) => ({
      filter: filters[e.filter]!,
      mapping: app.filterMappings[e.mapping]!,
      matchedBy: { kind: e.matchedBy, value: e.value },
    })),
  };
}
