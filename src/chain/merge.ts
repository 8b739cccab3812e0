import type { Diagnostic, FilterDef, FilterMapping, Located, Param, ServletDef, WebXml } from '../model/index.js';
import { validateUrlPattern } from './patterns.js';

export type Origin = 'global' | 'host' | 'app';

/** A filter definition after merging: the winning definition plus init-params it inherited. */
export interface MergedFilter {
  name: string;
  origin: Origin;
  def: FilterDef;
  /** The class that runs (Tomcat keeps the app's, else the default's). */
  className: Located<string> | null;
  /** Effective init-params: the winner's, plus those of a same-named default filter it does not set. */
  initParams: Param[];
}

export interface MergedFilterMapping {
  origin: Origin;
  mapping: FilterMapping;
}

export interface MergedServlet {
  name: string;
  origin: Origin;
  def: ServletDef;
}

export interface MergedServletMapping {
  pattern: string;
  servletName: string;
  origin: Origin;
  span: Located<string>['span'];
}

/** One application's configuration after Tomcat has merged conf/web.xml, web.xml.default and WEB-INF/web.xml. */
export interface MergedWebApp {
  filters: Map<string, MergedFilter>;
  filterMappings: MergedFilterMapping[];
  servlets: Map<string, MergedServlet>;
  servletMappings: Map<string, MergedServletMapping>;
  mimeMappings: Map<string, string>;
  welcomeFiles: string[];
  sessionTimeoutMinutes: number;
  diagnostics: Diagnostic[];
}

interface Layer {
  origin: Origin;
  xml: WebXml;
}

/** What conf/web.xml and web.xml.default contribute, computed once per host and shared (read-only) by its apps. */
interface Defaults {
  filters: Map<string, MergedFilter>;
  filterMappings: MergedFilterMapping[];
  servlets: Map<string, MergedServlet>;
  servletMappings: Map<string, MergedServletMapping>;
  mimeMappings: Map<string, string>;
  welcomeFiles: string[];
  sessionTimeoutMinutes: number;
  diagnostics: Diagnostic[];
}

const NONE = {};
const defaultsCache = new WeakMap<object, WeakMap<object, Defaults>>();

function defaultsOf(global: WebXml | null, hostDefault: WebXml | null): Defaults {
  let inner = defaultsCache.get(global ?? NONE);
  if (!inner) {
    inner = new WeakMap();
    defaultsCache.set(global ?? NONE, inner);
  }
  let d = inner.get(hostDefault ?? NONE);
  if (!d) {
    const layers: Layer[] = [];
    if (global) layers.push({ origin: 'global', xml: global });
    if (hostDefault) layers.push({ origin: 'host', xml: hostDefault });
    d = {
      filters: new Map(),
      filterMappings: [],
      servlets: new Map(),
      servletMappings: new Map(),
      mimeMappings: new Map(),
      welcomeFiles: [],
      sessionTimeoutMinutes: 30,
      diagnostics: [],
    };
    // Both default descriptors are parsed into one WebXml by Tomcat, so a name defined in both is a duplicate.
    for (const layer of layers) addFilters(d.filters, layer, d.diagnostics);
    for (const layer of layers) {
      for (const m of layer.xml.filterMappings) d.filterMappings.push({ origin: layer.origin, mapping: m });
      for (const s of layer.xml.servlets) {
        if (!d.servlets.has(s.name.value)) d.servlets.set(s.name.value, { name: s.name.value, origin: layer.origin, def: s });
      }
      for (const m of layer.xml.servletMappings) {
        for (const u of m.urlPatterns) {
          d.servletMappings.set(u.value, { pattern: u.value, servletName: m.servletName.value, origin: layer.origin, span: u.span });
        }
      }
      overlayCommon(d, layer, d.diagnostics);
    }
    inner.set(hostDefault ?? NONE, d);
  }
  return d;
}

/** Mime mappings, welcome files, session timeout and url-pattern checks: the same rules for every layer. */
function overlayCommon(
  into: { mimeMappings: Map<string, string>; welcomeFiles: string[]; sessionTimeoutMinutes: number },
  layer: Layer,
  diagnostics: Diagnostic[],
): void {
  for (const m of layer.xml.mimeMappings) into.mimeMappings.set(m.extension.value.toLowerCase(), m.mimeType.value);
  // A later descriptor's welcome files replace the earlier ones (Tomcat's replaceWelcomeFiles).
  if (layer.xml.welcomeFiles.length > 0) into.welcomeFiles = layer.xml.welcomeFiles.map((w) => w.value);
  const t = layer.xml.sessionTimeout;
  if (t) {
    if (/^[+-]?\d+$/.test(t.value)) into.sessionTimeoutMinutes = Number.parseInt(t.value, 10);
    else {
      diagnostics.push({
        ruleId: 'webxml-invalid-value',
        severity: 'error',
        message: `<session-timeout> must be a whole number of minutes, not "${t.value}".`,
        span: t.span,
      });
    }
  }
  for (const m of layer.xml.filterMappings) for (const u of m.urlPatterns) if (u.value !== '*') checkPattern(u, diagnostics);
  for (const m of layer.xml.servletMappings) for (const u of m.urlPatterns) checkPattern(u, diagnostics);
}

function checkPattern(u: Located<string>, diagnostics: Diagnostic[]): void {
  const why = validateUrlPattern(u.value);
  if (why) {
    diagnostics.push({
      ruleId: 'invalid-url-pattern',
      severity: 'error',
      message: `Invalid <url-pattern> "${u.value}": ${why}. Tomcat refuses to start the application.`,
      span: u.span,
    });
  }
}

/**
 * Merges descriptors as Tomcat 10.1's ContextConfig and WebXml.merge do:
 * conf/web.xml and web.xml.default are read into one "defaults" descriptor,
 * then merged under the app's. The app's mappings come first; a default
 * mapping is appended only for a filter name the app does not map; a
 * same-named app filter keeps its class and gains the default's init-params
 * it does not set itself. A default servlet mapping is added only when the app
 * neither maps that servlet nor that pattern. The maps of the result may be
 * shared with other applications of the host: treat them as read-only.
 */
export function mergeWebApp(global: WebXml | null, hostDefault: WebXml | null, app: WebXml | null): MergedWebApp {
  const d = defaultsOf(global, hostDefault);
  if (!app) {
    return {
      filters: d.filters,
      filterMappings: d.filterMappings,
      servlets: d.servlets,
      servletMappings: d.servletMappings,
      mimeMappings: d.mimeMappings,
      welcomeFiles: d.welcomeFiles,
      sessionTimeoutMinutes: d.sessionTimeoutMinutes,
      diagnostics: [...d.diagnostics, ...undefinedFilterDiagnostics(d.filters, d.filterMappings)],
    };
  }
  const diagnostics: Diagnostic[] = [...d.diagnostics];
  const appLayer: Layer = { origin: 'app', xml: app };

  let filters = d.filters;
  if (app.filters.length > 0) {
    filters = new Map();
    addFilters(filters, appLayer, diagnostics);
    for (const [name, def] of d.filters) {
      const own = filters.get(name);
      if (!own) {
        filters.set(name, def);
        continue;
      }
      const have = new Set(own.initParams.map((p) => p.name.value));
      for (const p of def.initParams) if (!have.has(p.name.value)) own.initParams.push(p);
      if (!own.className) own.className = def.className;
    }
  }

  const filterMappings: MergedFilterMapping[] = [];
  const appMapped = new Set<string>();
  for (const m of app.filterMappings) {
    filterMappings.push({ origin: 'app', mapping: m });
    appMapped.add(m.filterName.value);
  }
  for (const m of d.filterMappings) if (!appMapped.has(m.mapping.filterName.value)) filterMappings.push(m);

  let servlets = d.servlets;
  if (app.servlets.length > 0) {
    servlets = new Map();
    for (const s of app.servlets) servlets.set(s.name.value, { name: s.name.value, origin: 'app', def: s });
    for (const [name, s] of d.servlets) if (!servlets.has(name)) servlets.set(name, s);
  }
  let servletMappings = d.servletMappings;
  if (app.servletMappings.length > 0) {
    servletMappings = new Map();
    const appMappedServlets = new Set<string>();
    for (const m of app.servletMappings) {
      appMappedServlets.add(m.servletName.value);
      for (const u of m.urlPatterns) {
        servletMappings.set(u.value, { pattern: u.value, servletName: m.servletName.value, origin: 'app', span: u.span });
      }
    }
    for (const [pattern, m] of d.servletMappings) {
      if (!appMappedServlets.has(m.servletName) && !servletMappings.has(pattern)) servletMappings.set(pattern, m);
    }
  }

  const common = {
    mimeMappings: app.mimeMappings.length > 0 ? new Map(d.mimeMappings) : d.mimeMappings,
    welcomeFiles: d.welcomeFiles,
    sessionTimeoutMinutes: d.sessionTimeoutMinutes,
  };
  overlayCommon(common, appLayer, diagnostics);
  diagnostics.push(...undefinedFilterDiagnostics(filters, filterMappings));
  return { filters, filterMappings, servlets, servletMappings, ...common, diagnostics };
}

function undefinedFilterDiagnostics(filters: Map<string, MergedFilter>, mappings: MergedFilterMapping[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { mapping } of mappings) {
    if (!filters.has(mapping.filterName.value)) {
      out.push({
        ruleId: 'filter-mapping-undefined-filter',
        severity: 'error',
        message: `<filter-mapping> names "${mapping.filterName.value}", which no <filter> defines: Tomcat refuses to start the application.`,
        span: mapping.filterName.span,
      });
    }
  }
  return out;
}

function addFilters(into: Map<string, MergedFilter>, layer: Layer, diagnostics: Diagnostic[]): void {
  for (const def of layer.xml.filters) {
    const name = def.name.value;
    const prior = into.get(name);
    if (prior) {
      diagnostics.push({
        ruleId: 'duplicate-filter-name',
        severity: 'error',
        message: `Filter "${name}" is defined twice${prior.origin === layer.origin ? ' in this descriptor' : ` (also in the ${prior.origin} descriptor)`}: Tomcat refuses the descriptor ("Duplicate filter name").`,
        span: def.name.span,
        related: [{ message: 'first defined here', span: prior.def.name.span }],
      });
      continue;
    }
    into.set(name, { name, origin: layer.origin, def, className: def.className, initParams: [...def.initParams] });
  }
}
