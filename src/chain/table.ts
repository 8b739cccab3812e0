/**
 * The plain table a compiled chain module carries (the runtime's
 * SelectorTable): filters by index, mappings in Tomcat's order with the
 * url-patterns as Tomcat uses them (decoded), servlet mappings, welcome files.
 */
import type { SelectorTable } from '../protocol/chain-selector.js';
import type { MergedFilter, MergedWebApp } from './types.js';

const tables = new WeakMap<MergedWebApp, { filters: MergedFilter[]; table: SelectorTable }>();

/** The selector table of a merged application (built once per application); an undefined filter gets index -1. */
export function selectorTableOf(app: MergedWebApp): { filters: MergedFilter[]; table: SelectorTable } {
  const hit = tables.get(app);
  if (hit) return hit;
  const filters = [...app.filters.values()];
  const index = new Map(filters.map((f, i) => [f.name, i]));
  const table: SelectorTable = {
    filterMappings: app.filterMappings.map((m) => ({
      filter: index.get(m.filterName) ?? -1,
      urlPatterns: m.urlPatterns.map((u) => u.pattern),
      servletNames: m.allServlets ? [...m.servletNames, '*'] : m.servletNames,
      dispatchers: m.dispatchers,
    })),
    servletMappings: [...app.servletMappings.values()].map((s) => ({ pattern: s.pattern, servlet: s.servletName })),
    welcomeFiles: app.welcomeFiles,
  };
  const out = { filters, table };
  tables.set(app, out);
  return out;
}
