/**
 * Reading one web.xml into the state Tomcat's digester builds (its WebXml
 * object), including where Tomcat gives up: a duplicate filter name, a
 * url-pattern mapped twice, a bad %-escape or a non-numeric session timeout
 * stop the digester, so nothing after that element is read. conf/web.xml and
 * web.xml.default are read into ONE such state, which is why a name defined
 * in both is a duplicate and why the host's servlets replace the global ones.
 */
import type {
  Diagnostic,
  Dispatcher,
  FilterMapping,
  Located,
  MimeMapping,
  Param,
  ServletMapping,
  WebXml,
} from '../model/index.js';
import { compilePattern, decodeUrlPattern, type CompiledPattern } from './patterns.js';
import type {
  MappedPattern,
  MergedFilter,
  MergedFilterMapping,
  MergedServlet,
  MergedServletMapping,
  Origin,
} from './types.js';
import { parseJavaInteger } from '../protocol/java-integer.js';

/** The digester's view of one descriptor (or of conf/web.xml plus web.xml.default). */
export interface Descriptor {
  filters: Map<string, MergedFilter>;
  filterMappings: MergedFilterMapping[];
  filterMappingNames: Set<string>;
  servlets: Map<string, MergedServlet>;
  servletMappings: Map<string, MergedServletMapping>;
  servletMappingNames: Set<string>;
  /** Case-sensitive, in insertion order (Tomcat lower-cases only when it configures the context). */
  mime: Map<string, MimeMapping>;
  welcomeFiles: string[];
  /** web.xml.default's first welcome file clears the global list (ContextConfig sets replaceWelcomeFiles). */
  replaceWelcomeFiles: boolean;
  sessionTimeout: number | null;
  /** A parse error stopped the digester in one of the files read into this state. */
  failed: boolean;
  diagnostics: Diagnostic[];
  /**
   * Which of filters (BORROWED_FILTERS), servlets and servletMappings are a
   * fragment's own collection, taken over by a merge instead of copied: those
   * are changed through a copy, the others in place.
   */
  borrowed: number;
}

export const BORROWED_FILTERS = 1;
export const BORROWED_SERVLETS = 2;
export const BORROWED_SERVLET_MAPPINGS = 4;

export function emptyDescriptor(): Descriptor {
  return {
    filters: new Map(),
    filterMappings: [],
    filterMappingNames: new Set(),
    servlets: new Map(),
    servletMappings: new Map(),
    servletMappingNames: new Set(),
    mime: new Map(),
    welcomeFiles: [],
    replaceWelcomeFiles: false,
    sessionTimeout: null,
    failed: false,
    diagnostics: [],
    borrowed: 0,
  };
}

const DISPATCHER_BITS: Record<Dispatcher, number> = { REQUEST: 1, FORWARD: 2, INCLUDE: 4, ERROR: 8, ASYNC: 16 };
const DISPATCHER_ORDER: Dispatcher[] = ['REQUEST', 'FORWARD', 'INCLUDE', 'ERROR', 'ASYNC'];

/** The bit of one dispatcher type in MergedFilterMapping.dispatcherMask. */
export function dispatcherBit(d: Dispatcher): number {
  return DISPATCHER_BITS[d];
}

/** Dispatcher bits of a mapping as Tomcat reads them: case-insensitive, unknown names ignored, none means REQUEST. */
export function dispatcherBits(texts: readonly string[]): number {
  let bits = 0;
  for (const t of texts) bits |= DISPATCHER_BITS[t.toUpperCase() as Dispatcher] ?? 0;
  return bits === 0 ? DISPATCHER_BITS.REQUEST : bits;
}

/** Below this many entries, duplicates are looked for pairwise rather than with a Set or Map built per descriptor. */
const SMALL = 16;

/** The init-params a definition ends up with: for a repeated name, the last value wins (Tomcat keeps a map). */
function effectiveParams(params: readonly Param[]): Param[] {
  // Without a repeated name they are the model's own list, shared rather than copied: merged
  // collections are read-only (mergeWebApp), and the model is not changed once read.
  if (params.length < 2 || (params.length <= SMALL && !repeatsName(params))) return params as Param[];
  const byName = new Map<string, Param>();
  for (const p of params) byName.set(p.name.value, p);
  return byName.size === params.length ? [...params] : [...byName.values()];
}

function repeatsName(params: readonly Param[]): boolean {
  for (let i = 1; i < params.length; i++) {
    const name = params[i]!.name.value;
    for (let j = 0; j < i; j++) if (params[j]!.name.value === name) return true;
  }
  return false;
}

/** A url-pattern %-decoded; raw text without "%" is its own pattern (no result object for it). */
function decodedPattern(raw: string): string | { error: string } {
  if (!raw.includes('%')) return raw;
  const d = decodeUrlPattern(raw);
  return 'error' in d ? d : d.pattern;
}

/** Fails to compile when CompiledPattern gains a field mappedPatterns does not copy. */
export const MAPPED_PATTERN_COPIES_EVERY_FIELD: Exclude<keyof CompiledPattern, 'pattern' | 'kind' | 'key'> extends never
  ? true
  : never = true;

function mappedPatterns(urls: readonly Located<string>[]): MappedPattern[] {
  return urls.map((u) => {
    const d = decodedPattern(u.value);
    const c = compilePattern(typeof d === 'string' ? d : u.value);
    // Field by field: a spread ({...c, source}) built each pattern with its properties out of the object, 400 bytes each.
    return { pattern: c.pattern, kind: c.kind, key: c.key, source: u };
  });
}

/** The dispatcher list of each of the 32 masks, shared by every mapping. */
const DISPATCHER_LISTS: Dispatcher[][] = Array.from({ length: 32 }, (_, mask) =>
  DISPATCHER_ORDER.filter((d) => (mask & DISPATCHER_BITS[d]) !== 0),
);

/** The servlet names of the (many) mappings that name none: shared, and frozen so a change would throw. */
const NO_NAMES = Object.freeze([]) as unknown as string[];

function filterMappingOf(m: FilterMapping, origin: Origin): MergedFilterMapping {
  let bits = 0;
  for (const d of m.dispatchers) bits |= DISPATCHER_BITS[d.value.toUpperCase() as Dispatcher] ?? 0;
  // As dispatcherBits: none (or none valid) means REQUEST.
  const mask = bits === 0 ? DISPATCHER_BITS.REQUEST : bits;
  let servletNames = NO_NAMES;
  let allServlets = false;
  if (m.servletNames.length > 0) {
    const names = m.servletNames.map((s) => s.value);
    servletNames = names.filter((n) => n !== '*');
    allServlets = names.includes('*');
  }
  return {
    origin,
    mapping: m,
    filterName: m.filterName.value,
    urlPatterns: mappedPatterns(m.urlPatterns),
    servletNames,
    allServlets,
    dispatchers: DISPATCHER_LISTS[mask]!,
    dispatcherMask: mask,
  };
}

const FILE_LABEL: Record<Origin, string> = {
  global: 'conf/web.xml',
  host: 'web.xml.default',
  'tomcat-web': 'tomcat-web.xml',
  app: 'web.xml',
};

/** What stopping the digester means for the application, by where it happened. */
function consequence(origin: Origin): string {
  if (origin === 'global' || origin === 'host') {
    return 'Tomcat stops reading the host defaults (conf/web.xml, then web.xml.default) here: the first application the host deploys fails to start, and the others start without the rest of this file';
  }
  return `Tomcat stops reading ${FILE_LABEL[origin]} here and does not start the application`;
}

interface Stop {
  offset: number;
  diagnostic: Diagnostic;
  /** For a servlet-mapping: how many of its url-patterns Tomcat added before stopping. */
  applied?: number;
}

function duplicateFilter(state: Descriptor, xml: WebXml, index: number, origin: Origin): Stop {
  const f = xml.filters[index]!;
  const prior =
    state.filters.get(f.name.value)?.def.name.span ?? xml.filters.find((x) => x.name.value === f.name.value)!.name.span;
  const where = prior.file === f.name.span.file ? 'earlier in this file' : `in ${prior.file}`;
  return {
    offset: f.span.offset,
    diagnostic: {
      ruleId: 'duplicate-filter-name',
      severity: 'error',
      message: `Filter "${f.name.value}" is already defined ${where} ("Duplicate filter name"): ${consequence(origin)}.`,
      span: f.name.span,
      related: [{ message: 'first defined here', span: prior }],
    },
  };
}

function duplicateServletMapping(
  prior: MergedServletMapping,
  m: ServletMapping,
  u: Located<string>,
  pattern: string,
  applied: number,
  origin: Origin,
): Stop {
  return {
    offset: m.span.offset,
    applied,
    diagnostic: {
      ruleId: 'duplicate-servlet-mapping',
      severity: 'error',
      message: `url-pattern "${pattern}" is already mapped to servlet "${prior.servletName}"; mapping it to "${m.servletName.value}" as well is not permitted: ${consequence(origin)}.`,
      span: u.span,
      related: [{ message: 'first mapped here', span: prior.span }],
    },
  };
}

function earlier(a: Stop | null, b: Stop): Stop {
  return a && a.offset <= b.offset ? a : b;
}

/**
 * The first url-pattern before pattern `i` of mapping `k` that decodes to `d`, as the mapping Tomcat
 * recorded for it; for small descriptors, where looking again costs less than recording every pattern.
 * Every earlier pattern decoded (the loop stops at the first that does not).
 */
function earlierPattern(
  mappings: readonly ServletMapping[],
  k: number,
  i: number,
  d: string,
  origin: Origin,
): MergedServletMapping | undefined {
  for (let j = 0; j <= k; j++) {
    const m = mappings[j]!;
    const end = j === k ? i : m.urlPatterns.length;
    for (let q = 0; q < end; q++) {
      const u = m.urlPatterns[q]!;
      if (decodedPattern(u.value) === d)
        return { pattern: d, servletName: m.servletName.value, origin, span: u.span, nameSpan: m.servletName.span };
    }
  }
  return undefined;
}

/** Finds the first element at which Tomcat's digester would stop reading `xml` on top of `state`. */
function findStop(state: Descriptor, xml: WebXml, origin: Origin): Stop | null {
  let stop: Stop | null = null;
  if (xml.filters.length > 1 || (xml.filters.length === 1 && state.filters.size > 0)) {
    const i = firstDuplicateFilter(state, xml);
    if (i >= 0) stop = duplicateFilter(state, xml, i, origin);
  }
  mappings: for (const m of xml.filterMappings) {
    for (const u of m.urlPatterns) {
      if (!u.value.includes('%')) continue;
      const d = decodedPattern(u.value);
      if (typeof d !== 'string') {
        stop = earlier(stop, { offset: m.span.offset, diagnostic: badEscape(u, d.error, origin) });
        break mappings;
      }
    }
  }
  if (xml.servletMappings.length > 0) {
    // Patterns this descriptor maps so far, with where: a Map for a large descriptor; a small one is searched again.
    let count = 0;
    for (const m of xml.servletMappings) count += m.urlPatterns.length;
    const seen = count > SMALL ? new Map<string, MergedServletMapping>() : null;
    const mappings = xml.servletMappings;
    outer: for (let k = 0; k < mappings.length; k++) {
      const m = mappings[k]!;
      for (let i = 0; i < m.urlPatterns.length; i++) {
        const u = m.urlPatterns[i]!;
        const d = decodedPattern(u.value);
        if (typeof d !== 'string') {
          stop = earlier(stop, { offset: m.span.offset, diagnostic: badEscape(u, d.error, origin), applied: i });
          break outer;
        }
        const prior = state.servletMappings.get(d) ?? (seen ? seen.get(d) : earlierPattern(mappings, k, i, d, origin));
        if (prior) {
          stop = earlier(stop, duplicateServletMapping(prior, m, u, d, i + 1, origin));
          break outer;
        }
        if (seen)
          seen.set(d, {
            pattern: d,
            servletName: m.servletName.value,
            origin,
            span: u.span,
            nameSpan: m.servletName.span,
          });
      }
    }
  }
  const t = xml.sessionTimeout;
  if (t && parseJavaInteger(t.value) === null) {
    stop = earlier(stop, {
      offset: t.span.offset,
      diagnostic: {
        ruleId: 'webxml-invalid-value',
        severity: 'error',
        message: `<session-timeout> must be a whole number of minutes, not "${t.value}": ${consequence(origin)}.`,
        span: t.span,
      },
    });
  }
  return stop;
}

/** The index of the first filter whose name is already defined (in `state` or earlier in `xml`), or -1. */
function firstDuplicateFilter(state: Descriptor, xml: WebXml): number {
  const filters = xml.filters;
  if (filters.length > SMALL) {
    const names = new Set(state.filters.keys());
    for (let i = 0; i < filters.length; i++) {
      const name = filters[i]!.name.value;
      if (names.has(name)) return i;
      names.add(name);
    }
    return -1;
  }
  for (let i = 0; i < filters.length; i++) {
    const name = filters[i]!.name.value;
    if (state.filters.has(name)) return i;
    for (let j = 0; j < i; j++) if (filters[j]!.name.value === name) return i;
  }
  return -1;
}

function badEscape(u: Located<string>, why: string, origin: Origin): Diagnostic {
  return {
    ruleId: 'invalid-url-pattern',
    severity: 'error',
    message: `Invalid <url-pattern> "${u.value}": ${why}. ${consequence(origin)}.`,
    span: u.span,
  };
}

function addServletMapping(state: Descriptor, m: ServletMapping, origin: Origin, count: number): void {
  for (let i = 0; i < count; i++) {
    const u = m.urlPatterns[i]!;
    const d = decodedPattern(u.value);
    if (typeof d !== 'string') return;
    state.servletMappings.set(d, {
      pattern: d,
      servletName: m.servletName.value,
      origin,
      span: u.span,
      nameSpan: m.servletName.span,
    });
    state.servletMappingNames.add(m.servletName.value);
  }
}

/**
 * Reads `xml` into `state` as Tomcat's digester would, element by element,
 * stopping (and marking the state failed) where Tomcat stops.
 */
export function readInto(state: Descriptor, xml: WebXml, origin: Origin): void {
  const stop = findStop(state, xml, origin);
  const limit = stop ? stop.offset : Infinity;
  if (stop) {
    state.failed = true;
    state.diagnostics.push(stop.diagnostic);
  }
  for (const def of xml.filters) {
    if (def.span.offset >= limit) break;
    const name = def.name.value;
    state.filters.set(name, {
      name,
      origin,
      def,
      className: def.className,
      asyncSupported: def.asyncSupported,
      initParams: effectiveParams(def.initParams),
    });
  }
  for (const m of xml.filterMappings) {
    if (m.span.offset >= limit) break;
    state.filterMappings.push(filterMappingOf(m, origin));
    state.filterMappingNames.add(m.filterName.value);
  }
  for (const s of xml.servlets) {
    if (s.span.offset >= limit) break;
    const name = s.name.value;
    state.servlets.set(name, {
      name,
      origin,
      def: s,
      className: s.className,
      jspFile: s.jspFile,
      initParams: effectiveParams(s.initParams),
    });
  }
  for (const m of xml.servletMappings) {
    if (m.span.offset > limit) break;
    addServletMapping(state, m, origin, m.span.offset === limit ? (stop?.applied ?? 0) : m.urlPatterns.length);
  }
  for (const m of xml.mimeMappings) {
    if (m.span.offset >= limit) break;
    state.mime.set(m.extension.value, m);
  }
  for (const w of xml.welcomeFiles) {
    if (w.span.offset >= limit) break;
    if (state.replaceWelcomeFiles) {
      state.welcomeFiles = [];
      state.replaceWelcomeFiles = false;
    }
    if (!state.welcomeFiles.includes(w.value)) state.welcomeFiles.push(w.value);
  }
  const t = xml.sessionTimeout;
  if (t && t.span.offset < limit) state.sessionTimeout = parseJavaInteger(t.value);
}
