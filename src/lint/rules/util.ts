import { baseHasJars } from '../../filters/digester.js';
import type { Param, FilterDef, Span } from '../../model/index.js';
import type { CheckedFilter, DescriptorRef, LintContext } from '../types.js';

/** The first init-param of that name (the one Tomcat uses). */
export function paramOf(def: FilterDef, name: string): Param | undefined {
  for (const p of def.initParams) if (p.name.value === name) return p;
  return undefined;
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

/** Where to point at a filter as a whole: its class name, else its <filter>. */
export function filterSpan(def: FilterDef): Span {
  return def.className?.span ?? def.name.span;
}

interface MappedNames {
  /** The names mapped in each descriptor with more than SCAN_LIMIT mappings (smaller ones are scanned). */
  byDescriptor: Map<DescriptorRef, Set<string>>;
  /** Names mapped in conf/web.xml, and in any host's web.xml.default. */
  global: Set<string>;
  hostDefault: Set<string>;
}

/**
 * Up to this many mappings a descriptor's own list is scanned for a name: an application has a handful, and
 * a set of names per application cost more than the scans (1,000 sets per lint of 1,000 applications).
 */
const SCAN_LIMIT = 16;

function mapsName(mappings: readonly { filterName: { value: string } }[], name: string): boolean {
  for (const x of mappings) if (x.filterName.value === name) return true;
  return false;
}

// Built once per run (one descriptors array per run): asking every descriptor for every filter was quadratic.
const mappedNames = new WeakMap<DescriptorRef[], MappedNames>();

function mappedNamesOf(descriptors: DescriptorRef[]): MappedNames {
  let m = mappedNames.get(descriptors);
  if (m) return m;
  m = { byDescriptor: new Map(), global: new Set(), hostDefault: new Set() };
  for (const d of descriptors) {
    const shared = d.role === 'global' ? m.global : d.role === 'host-default' ? m.hostDefault : null;
    if (!shared && d.webXml.filterMappings.length <= SCAN_LIMIT) continue;
    const names = new Set(d.webXml.filterMappings.map((x) => x.filterName.value));
    m.byDescriptor.set(d, names);
    if (shared) for (const n of names) shared.add(n);
  }
  mappedNames.set(descriptors, m);
  return m;
}

/** Whether any mapping (in any context that sees this descriptor) uses the filter name. */
export function isMapped(ctx: LintContext, f: CheckedFilter): boolean {
  const name = f.def.name.value;
  const own = f.descriptor;
  // An application's own descriptor with a handful of mappings (nearly every filter): scanned, no index asked.
  if ((own.role === 'app' || own.role === 'tomcat-web') && own.webXml.filterMappings.length <= SCAN_LIMIT) {
    return mapsName(own.webXml.filterMappings, name) || ctx.usesOf(f).length > 0;
  }
  const m = mappedNamesOf(ctx.descriptors);
  const names = m.byDescriptor.get(own);
  if (names ? names.has(name) : mapsName(own.webXml.filterMappings, name)) return true;
  // Tomcat reads conf/web.xml and a host's web.xml.default as one descriptor: a mapping in either maps both.
  if (own.role === 'global' && (m.global.has(name) || m.hostDefault.has(name))) return true;
  if (own.role === 'host-default' && m.global.has(name)) return true;
  return ctx.usesOf(f).length > 0;
}

// Read once per run (one contexts array per run), and only by a rule that needs the answer.
const extraJars = new WeakMap<LintContext['contexts'], boolean>();

/** Whether the base or home has a lib/*.jar: classes beyond the JDK's and Tomcat's may then be on Tomcat's class path. */
export function hasExtraJars(ctx: LintContext): boolean {
  let answer = extraJars.get(ctx.contexts);
  if (answer === undefined) {
    answer = baseHasJars(ctx.base);
    extraJars.set(ctx.contexts, answer);
  }
  return answer;
}
