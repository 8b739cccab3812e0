import type { Param, FilterDef, Span } from '../../model/index.js';
import type { CheckedFilter, LintContext } from '../types.js';

/** The first init-param of that name (the one Tomcat uses). */
export function paramOf(def: FilterDef, name: string): Param | undefined {
  return def.initParams.find((p) => p.name.value === name);
}

/** Validated filters of one kind (by spec id), across every descriptor. */
export function filtersOf(ctx: LintContext, specId: string): CheckedFilter[] {
  return ctx.filters.filter((f) => f.spec?.id === specId);
}

/** Where to point at a filter as a whole: its class name, else its <filter>. */
export function filterSpan(def: FilterDef): Span {
  return def.className?.span ?? def.name.span;
}

/** Whether any mapping (in any context that sees this descriptor) uses the filter name. */
export function isMapped(ctx: LintContext, f: CheckedFilter): boolean {
  const name = f.def.name.value;
  if (f.descriptor.webXml.filterMappings.some((m) => m.filterName.value === name)) return true;
  return ctx.contexts.some((c) => c.merged.filters.get(name)?.def === f.def && c.merged.filterMappings.some((m) => m.mapping.filterName.value === name));
}
