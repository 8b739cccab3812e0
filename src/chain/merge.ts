/**
 * Merging descriptors the way Tomcat 10.1 configures a context
 * (ContextConfig.webConfig, WebXml.merge, StandardContext): the app's
 * WEB-INF/web.xml is the main descriptor; WEB-INF/tomcat-web.xml and then the
 * host defaults (conf/web.xml and web.xml.default, read as one descriptor)
 * are merged into it as fragments; then the context checks what it got.
 */
import type { Diagnostic, ErrorPage, MimeMapping, Span, WebXml } from '../model/index.js';
import {
  BORROWED_FILTERS,
  BORROWED_SERVLET_MAPPINGS,
  BORROWED_SERVLETS,
  emptyDescriptor,
  readInto,
  type Descriptor,
} from './descriptor.js';
import { contextMimeMap, LayeredMap } from './mime.js';
import { validateUrlPattern } from './patterns.js';
import { STOCK_WEB_XML } from './stock.js';
import type { MergedFilter, MergedServlet, MergedServletMapping, MergedWebApp, Startup } from './types.js';

const DEFAULT_SESSION_TIMEOUT = 30;

interface Defaults {
  descriptor: Descriptor;
  /** The lower-cased MIME map of the defaults alone, shared by apps that add none. */
  mime: Map<string, string>;
  /**
   * Lower-cased extension to the one way the defaults spell it, or null when they spell it several ways;
   * worked out the first time an app adds MIME types of its own (most add none).
   */
  mimeSpelling: Map<string, string | null> | null;
  mimeDiagnostics: Diagnostic[];
}

function mimeSpellingOf(defaults: Defaults): Map<string, string | null> {
  if (!defaults.mimeSpelling) {
    const spelling = new Map<string, string | null>();
    for (const ext of defaults.descriptor.mime.keys()) {
      const lower = ext.toLowerCase();
      spelling.set(lower, spelling.has(lower) ? null : ext);
    }
    defaults.mimeSpelling = spelling;
  }
  return defaults.mimeSpelling;
}

const NONE = {};
const defaultsCache = new WeakMap<object, WeakMap<object, Defaults>>();

/** conf/web.xml plus web.xml.default, read once per pair (Tomcat caches them per host, too). */
function defaultsOf(global: WebXml | null, hostDefault: WebXml | null): Defaults {
  let inner = defaultsCache.get(global ?? NONE);
  if (!inner) {
    inner = new WeakMap();
    defaultsCache.set(global ?? NONE, inner);
  }
  let d = inner.get(hostDefault ?? NONE);
  if (!d) {
    const descriptor = emptyDescriptor();
    if (global) readInto(descriptor, global, 'global');
    if (hostDefault) {
      descriptor.replaceWelcomeFiles = true;
      readInto(descriptor, hostDefault, 'host');
      descriptor.replaceWelcomeFiles = false;
    }
    const mime = mimeOf(descriptor.mime, 0);
    d = { descriptor, mime: mime.map, mimeSpelling: null, mimeDiagnostics: mime.diagnostics };
    inner.set(hostDefault ?? NONE, d);
  }
  return d;
}

function mimeOf(
  entries: ReadonlyMap<string, MimeMapping>,
  directCount: number,
): { map: Map<string, string>; diagnostics: Diagnostic[] } {
  // As contextMimeMap without a case conflict: the entries lower-cased in order (no extension-to-type copy first).
  const direct = new Map<string, string>();
  for (const [ext, e] of entries) {
    const lower = ext.toLowerCase();
    if (direct.has(lower)) return mimeWithConflicts(entries, directCount);
    direct.set(lower, e.mimeType.value);
  }
  return { map: direct, diagnostics: [] };
}

function mimeWithConflicts(
  entries: ReadonlyMap<string, MimeMapping>,
  directCount: number,
): { map: Map<string, string>; diagnostics: Diagnostic[] } {
  const types = new Map<string, string>();
  for (const [ext, e] of entries) types.set(ext, e.mimeType.value);
  const { map, conflicts } = contextMimeMap(types, directCount);
  const diagnostics: Diagnostic[] = conflicts.map((exts) => {
    const winner = map.get(exts[0]!.toLowerCase());
    const located = exts.map((e) => entries.get(e)!);
    return {
      ruleId: 'mime-mapping-case-conflict',
      severity: 'warning',
      message: `Extensions ${exts.map((e) => `"${e}"`).join(' and ')} differ only in case: Tomcat keeps one of them (here "${winner}") by Java hash order, not by which descriptor wins. Write the extension in lower case.`,
      span: located[0]!.span,
      related: located.slice(1).map((e) => ({ message: 'also mapped here', span: e.span })),
    };
  });
  return { map, diagnostics };
}

/**
 * The context's MIME map: the app's own types over the shared defaults. Only
 * when an extension is spelled in different cases does Java's HashMap order
 * decide, and then the whole map is built the way Tomcat builds it.
 */
function mimeMappingsOf(
  own: ReadonlyMap<string, MimeMapping>,
  directCount: number,
  defaults: Defaults,
): { map: ReadonlyMap<string, string>; diagnostics: Diagnostic[] } {
  if (own.size === 0) return { map: defaults.mime, diagnostics: defaults.mimeDiagnostics };
  const layer = new Map<string, string>();
  for (const [ext, e] of own) {
    const lower = ext.toLowerCase();
    const spelled = mimeSpellingOf(defaults).get(lower);
    if (layer.has(lower) || (spelled !== undefined && spelled !== ext)) {
      const all = new Map(own);
      for (const [k, v] of defaults.descriptor.mime) if (!all.has(k)) all.set(k, v);
      return mimeOf(all, directCount);
    }
    layer.set(lower, e.mimeType.value);
  }
  return { map: new LayeredMap(layer, defaults.mime), diagnostics: defaults.mimeDiagnostics };
}

/** A same-named definition in a fragment fills in what the main one leaves unset (WebXml.mergeFilter/mergeServlet). */
function inheritFilter(own: MergedFilter, from: MergedFilter): MergedFilter {
  const have = new Set(own.initParams.map((p) => p.name.value));
  const extra = from.initParams.filter((p) => !have.has(p.name.value));
  return {
    ...own,
    className: own.className ?? from.className,
    asyncSupported: own.asyncSupported ?? from.asyncSupported,
    initParams: extra.length ? [...own.initParams, ...extra] : own.initParams,
  };
}

function inheritServlet(own: MergedServlet, from: MergedServlet): MergedServlet {
  const have = new Set(own.initParams.map((p) => p.name.value));
  const extra = from.initParams.filter((p) => !have.has(p.name.value));
  const noTarget = !own.className && !own.jspFile;
  return {
    ...own,
    className: noTarget ? from.className : own.className,
    jspFile: noTarget ? from.jspFile : own.jspFile,
    initParams: extra.length ? [...own.initParams, ...extra] : own.initParams,
  };
}

/**
 * Merges `fragment` into `main` with the rules WebXml.merge applies to
 * tomcat-web.xml and the defaults: main's definitions win and inherit what
 * they leave unset; a fragment's filter mapping is added only for a filter
 * name main does not map; a fragment's servlet mapping only when main maps
 * neither that servlet nor that pattern; MIME mappings, welcome files and the
 * session timeout only where main has none.
 */
function mergeFragment(main: Descriptor, fragment: Descriptor, last: boolean): void {
  const addedMappings =
    main.filterMappings.length === 0 || fragment.filterMappings.length === 0
      ? fragment.filterMappings
      : fragment.filterMappings.filter((m) => !main.filterMappingNames.has(m.filterName));
  if (addedMappings.length)
    main.filterMappings = main.filterMappings.length === 0 ? addedMappings : [...main.filterMappings, ...addedMappings];
  // A collection main took over from a fragment is copied before it changes; main's own is changed in place
  // (same entries in the same order: a key already there keeps its place, new keys go last).
  if (main.filters.size === 0) {
    main.filters = fragment.filters;
    main.borrowed |= BORROWED_FILTERS;
  } else if (fragment.filters.size > 0) {
    const filters = main.borrowed & BORROWED_FILTERS ? new Map(main.filters) : main.filters;
    for (const [name, f] of fragment.filters) {
      const own = filters.get(name);
      filters.set(name, own ? inheritFilter(own, f) : f);
    }
    main.filters = filters;
    main.borrowed &= ~BORROWED_FILTERS;
  }
  const addedServletMappings: MergedServletMapping[] = [];
  if (main.servletMappings.size === 0) {
    main.servletMappings = fragment.servletMappings;
    main.borrowed |= BORROWED_SERVLET_MAPPINGS;
    if (!last) addedServletMappings.push(...fragment.servletMappings.values());
  } else if (fragment.servletMappings.size > 0) {
    // Checked against main's mappings before this merge: the fragment's patterns are distinct keys, so
    // adding them in place never changes the answer for a later one.
    const mappings = main.borrowed & BORROWED_SERVLET_MAPPINGS ? new Map(main.servletMappings) : main.servletMappings;
    for (const [pattern, m] of fragment.servletMappings) {
      if (!main.servletMappingNames.has(m.servletName) && !main.servletMappings.has(pattern)) {
        mappings.set(pattern, m);
        addedServletMappings.push(m);
      }
    }
    main.servletMappings = mappings;
    main.borrowed &= ~BORROWED_SERVLET_MAPPINGS;
  }
  // Added mappings count as main's for a later fragment (WebXml.addFilterMapping/addServletMapping record the names).
  if (!last) {
    for (const m of addedMappings) main.filterMappingNames.add(m.filterName);
    for (const m of addedServletMappings) main.servletMappingNames.add(m.servletName);
  }
  if (main.servlets.size === 0) {
    main.servlets = fragment.servlets;
    main.borrowed |= BORROWED_SERVLETS;
  } else if (fragment.servlets.size > 0) {
    const servlets = main.borrowed & BORROWED_SERVLETS ? new Map(main.servlets) : main.servlets;
    for (const [name, s] of fragment.servlets) {
      const own = servlets.get(name);
      servlets.set(name, own ? inheritServlet(own, s) : s);
    }
    main.servlets = servlets;
    main.borrowed &= ~BORROWED_SERVLETS;
  }
  // The defaults' MIME types are layered by the caller rather than copied into every application.
  if (!last && fragment.mime.size > 0) {
    const mime = new Map(main.mime);
    for (const [ext, e] of fragment.mime) if (!mime.has(ext)) mime.set(ext, e);
    main.mime = mime;
  }
  if (main.welcomeFiles.length === 0) main.welcomeFiles = fragment.welcomeFiles;
  if (main.sessionTimeout === null) main.sessionTimeout = fragment.sessionTimeout;
}

/** Servlet 2.2 descriptors may omit the leading "/" of a servlet url-pattern (StandardContext.adjustURLPattern). */
function adjustFor22(mappings: Map<string, MergedServletMapping>): Map<string, MergedServletMapping> {
  const out = new Map<string, MergedServletMapping>();
  for (const m of mappings.values()) {
    const p = m.pattern.startsWith('/') || m.pattern.startsWith('*.') ? m.pattern : '/' + m.pattern;
    out.set(p, p === m.pattern ? m : { ...m, pattern: p });
  }
  return out;
}

/** What StandardContext refuses when the merged descriptor is applied to it; each stops the context. */
function contextChecks(d: Descriptor, servletMappings: Map<string, MergedServletMapping>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const refuse = 'Tomcat refuses to start the application';
  for (const m of d.filterMappings) {
    if (!d.filters.has(m.filterName)) {
      out.push({
        ruleId: 'filter-mapping-undefined-filter',
        severity: 'error',
        message: `<filter-mapping> names "${m.filterName}", which no <filter> defines ("Filter mapping specifies an unknown filter name"): ${refuse}.`,
        span: m.mapping.filterName.span,
      });
    }
    if (m.urlPatterns.length === 0 && m.servletNames.length === 0 && !m.allServlets) {
      out.push({
        ruleId: 'webxml-missing-element',
        severity: 'error',
        message: `<filter-mapping> for "${m.filterName}" has neither a <url-pattern> nor a <servlet-name>: ${refuse}.`,
        span: m.mapping.filterName.span,
      });
    }
    for (const u of m.urlPatterns) {
      const why = validateUrlPattern(u.pattern, 'filter-mapping');
      if (why) {
        out.push({
          ruleId: 'invalid-url-pattern',
          severity: 'error',
          message: `Invalid <url-pattern> "${u.source.value}" in a filter mapping: ${why}. ${refuse}.`,
          span: u.source.span,
        });
      }
    }
  }
  for (const f of d.filters.values()) {
    if (!f.className) {
      out.push({
        ruleId: 'webxml-missing-element',
        severity: 'error',
        message: `Filter "${f.name}" has no <filter-class>, and no same-named filter in tomcat-web.xml, conf/web.xml or web.xml.default provides one: the filter cannot start, so ${refuse}.`,
        span: f.def.name.span,
      });
    }
  }
  for (const m of servletMappings.values()) {
    // A JSON chain document names servlets by mapping only; it has no <servlet> to define them.
    if (!d.servlets.has(m.servletName) && !m.span.file.endsWith('.json')) {
      out.push({
        ruleId: 'servlet-mapping-undefined-servlet',
        severity: 'error',
        message: `<servlet-mapping> names servlet "${m.servletName}", which no <servlet> defines: ${refuse}.`,
        span: m.nameSpan,
      });
    }
    const why = validateUrlPattern(m.pattern, 'servlet-mapping');
    if (why)
      out.push({
        ruleId: 'invalid-url-pattern',
        severity: 'error',
        message: `Invalid <url-pattern> "${m.pattern}" in a servlet mapping: ${why}. ${refuse}.`,
        span: m.span,
      });
  }
  return out;
}

/**
 * Merges conf/web.xml, the host's web.xml.default and the app's WEB-INF/web.xml
 * (and WEB-INF/tomcat-web.xml when given) into what Tomcat 10.1 configures the
 * context with; a null `global` stands for Tomcat's stock conf/web.xml (see
 * stock.ts). Collections of the result may be shared with other apps of the
 * same host: treat them as read-only.
 */
export function mergeWebApp(
  global: WebXml | null,
  hostDefault: WebXml | null,
  app: WebXml | null,
  tomcatWebXml: WebXml | null = null,
): MergedWebApp {
  const defaults = defaultsOf(global ?? STOCK_WEB_XML, hostDefault);
  const main = emptyDescriptor();
  if (app) readInto(main, app, 'app');
  const ownMime = main.mime.size;
  let appFailed = main.failed;
  const diagnostics: Diagnostic[] = [...main.diagnostics];
  const stops: Diagnostic[] = [...main.diagnostics];
  if (tomcatWebXml) {
    const fragment = emptyDescriptor();
    readInto(fragment, tomcatWebXml, 'tomcat-web');
    appFailed ||= fragment.failed;
    diagnostics.push(...fragment.diagnostics);
    stops.push(...fragment.diagnostics);
    mergeFragment(main, fragment, false);
  }
  mergeFragment(main, defaults.descriptor, true);
  diagnostics.push(...defaults.descriptor.diagnostics);

  const servletMappings = app?.generation === '2.2' ? adjustFor22(main.servletMappings) : main.servletMappings;
  const refused = contextChecks(main, servletMappings);
  diagnostics.push(...refused);
  const mime = mimeMappingsOf(main.mime, ownMime, defaults);
  diagnostics.push(...mime.diagnostics);
  const startup: Startup =
    appFailed || refused.length > 0 ? 'fails' : defaults.descriptor.failed ? 'first-on-host-fails' : 'starts';
  const refusals =
    startup === 'fails'
      ? [...stops, ...refused]
      : startup === 'first-on-host-fails'
        ? defaults.descriptor.diagnostics
        : [];
  return {
    filters: main.filters,
    filterMappings: main.filterMappings,
    servlets: main.servlets,
    servletMappings,
    mimeMappings: mime.map,
    // An empty <welcome-file/> is read but never added to the context.
    welcomeFiles: main.welcomeFiles.includes('') ? main.welcomeFiles.filter((w) => w !== '') : main.welcomeFiles,
    sessionTimeoutMinutes: main.sessionTimeout ?? DEFAULT_SESSION_TIMEOUT,
    startup,
    refusals,
    diagnostics,
  };
}

/** An `<error-page>` the context keeps after the merge: by status code, by exception type, or the default page (neither). */
export interface MergedErrorPage {
  /** The status code; 0 for the default error page and for exception-type pages. */
  errorCode: number;
  exceptionType: string | null;
  /** Starts with "/" (a Servlet 2.2 descriptor's relative location gets one, as StandardContext.addErrorPage does). */
  location: string;
  origin: 'global' | 'host' | 'tomcat-web' | 'app';
  span: Span;
}

/**
 * The error pages of a context as Tomcat 10.1 keeps them (WebXml.addErrorPage
 * keys them by exception type, else by code, a later one replacing an earlier
 * one of the same key; WebXml.merge adds a fragment's or the defaults' page
 * only where the application has none for that key): the application's, then
 * tomcat-web.xml's, then conf/web.xml's and web.xml.default's.
 *
 * Pages Tomcat would refuse (an error code that is not an integer, a missing
 * location, a location without a leading "/" outside a 2.2 descriptor: the
 * context fails to start) are left out here; they are lint's to report.
 */
export function mergeErrorPages(
  global: WebXml | null,
  hostDefault: WebXml | null,
  app: WebXml | null,
  tomcatWebXml: WebXml | null = null,
): MergedErrorPage[] {
  const keyed = (sources: [WebXml | null, MergedErrorPage['origin']][]): Map<string, MergedErrorPage> => {
    const out = new Map<string, MergedErrorPage>();
    for (const [xml, origin] of sources) {
      for (const p of xml?.errorPages ?? []) {
        const page = usableErrorPage(p, origin, xml!.generation === '2.2');
        if (page) out.set(page.exceptionType ?? String(page.errorCode), page);
      }
    }
    return out;
  };
  const merged = keyed([[app, 'app']]);
  for (const layer of [
    keyed([[tomcatWebXml, 'tomcat-web']]),
    keyed([
      [global, 'global'],
      [hostDefault, 'host'],
    ]),
  ]) {
    for (const [k, p] of layer) if (!merged.has(k)) merged.set(k, p);
  }
  return [...merged.values()];
}

function usableErrorPage(p: ErrorPage, origin: MergedErrorPage['origin'], servlet22: boolean): MergedErrorPage | null {
  const codeText = p.errorCode?.value.trim() ?? null;
  const exceptionType = p.exceptionType?.value.trim() || null;
  let location = p.location?.value.trim() ?? '';
  if (location === '') return null;
  if (!location.startsWith('/')) {
    if (!servlet22) return null;
    location = `/${location}`;
  }
  let errorCode = 0;
  if (codeText !== null) {
    if (!/^[+-]?\d{1,9}$/.test(codeText)) return null;
    errorCode = Number(codeText);
  }
  return { errorCode: exceptionType === null ? errorCode : 0, exceptionType, location, origin, span: p.span };
}
