import type { Param, FilterDef, Span } from '../../model/index.js';
import type { CheckedFilter, DescriptorRef, LintContext } from '../types.js';

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
  const own = f.descriptor;
  // Tomcat reads conf/web.xml and a host's web.xml.default as one descriptor: a mapping in either maps both.
  const isDefault = (d: DescriptorRef): boolean => d.role === 'global' || d.role === 'host-default';
  const sameDescriptor = (d: DescriptorRef): boolean => d === own || (isDefault(own) && isDefault(d) && (d.role === 'global' || own.role === 'global'));
  if (ctx.descriptors.some((d) => sameDescriptor(d) && d.webXml.filterMappings.some((m) => m.filterName.value === name))) return true;
  return ctx.usesOf(f).length > 0;
}
