import type { Param, FilterDef, Span } from '../../model/index.js';
import type { CheckedFilter, DescriptorRef, LintContext } from '../types.js';

/** The first init-param of that name (the one Tomcat uses). */
export function paramOf(def: FilterDef, name: string): Param | undefined {
  return def.initParams.find((p) => p.name.value === name);
}

/**
 * The init-params a definition runs with in each context where it is the winning
 * definition (its own, then those it inherits from same-named filters of the
 * defaults); its own alone when no context uses it.
 */
export function effectiveParamSets(ctx: LintContext, def: FilterDef): Param[][] {
  return paramSetsOf(ctx.contexts).get(def) ?? [def.initParams];
}

// Indexed once per run: scanning every context's filters for each filter was quadratic (32,000 filters in one file: minutes).
const paramSets = new WeakMap<LintContext['contexts'], Map<FilterDef, Param[][]>>();

function paramSetsOf(contexts: LintContext['contexts']): Map<FilterDef, Param[][]> {
  let index = paramSets.get(contexts);
  if (index) return index;
  index = new Map();
  for (const c of contexts) {
    for (const m of c.merged.filters.values()) {
      const sets = index.get(m.def);
      if (sets) sets.push(m.initParams);
      else index.set(m.def, [m.initParams]);
    }
  }
  paramSets.set(contexts, index);
  return index;
}

/** Validated filters of one kind (by spec id), across every descriptor. */
export function filtersOf(ctx: LintContext, specId: string): CheckedFilter[] {
  return ctx.filters.filter((f) => f.spec?.id === specId);
}

/** Where to point at a filter as a whole: its class name, else its <filter>. */
export function filterSpan(def: FilterDef): Span {
  return def.className?.span ?? def.name.span;
}

interface MappedNames {
  byDescriptor: Map<DescriptorRef, Set<string>>;
  /** Names mapped in conf/web.xml, and in any host's web.xml.default. */
  global: Set<string>;
  hostDefault: Set<string>;
}

// Built once per run (one descriptors array per run): asking every descriptor for every filter was quadratic.
const mappedNames = new WeakMap<DescriptorRef[], MappedNames>();

function mappedNamesOf(descriptors: DescriptorRef[]): MappedNames {
  let m = mappedNames.get(descriptors);
  if (m) return m;
  m = { byDescriptor: new Map(), global: new Set(), hostDefault: new Set() };
  for (const d of descriptors) {
    const names = new Set(d.webXml.filterMappings.map((x) => x.filterName.value));
    m.byDescriptor.set(d, names);
    const shared = d.role === 'global' ? m.global : d.role === 'host-default' ? m.hostDefault : null;
    if (shared) for (const n of names) shared.add(n);
  }
  mappedNames.set(descriptors, m);
  return m;
}

/** Whether any mapping (in any context that sees this descriptor) uses the filter name. */
export function isMapped(ctx: LintContext, f: CheckedFilter): boolean {
  const name = f.def.name.value;
  const own = f.descriptor;
  const m = mappedNamesOf(ctx.descriptors);
  if (m.byDescriptor.get(own)?.has(name)) return true;
  // Tomcat reads conf/web.xml and a host's web.xml.default as one descriptor: a mapping in either maps both.
  if (own.role === 'global' && (m.global.has(name) || m.hostDefault.has(name))) return true;
  if (own.role === 'host-default' && m.global.has(name)) return true;
  return ctx.usesOf(f).length > 0;
}
