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

/**
 * Merges descriptors as Tomcat 10.1's ContextConfig and WebXml.merge do:
 * conf/web.xml and web.xml.default are read into one "defaults" descriptor,
 * then merged under the app's. The app's mappings come first; a default
 * mapping is appended only for a filter name the app does not map; a
 * same-named app filter keeps its class and gains the default's init-params
 * it does not set itself.
 */
export function mergeWebApp(global: WebXml | null, hostDefault: WebXml | null, app: WebXml | null): MergedWebApp {
  const diagnostics: Diagnostic[] = [];
  const defaults: Layer[] = [];
  if (global) defaults.push({ origin: 'global', xml: global });
  if (hostDefault) defaults.push({ origin: 'host', xml: hostDefault });

  const filters = new Map<string, MergedFilter>();
  const filterMappings: MergedFilterMapping[] = [];
  const appMapped = new Set<string>();

  if (app) {
    addFilters(filters, { origin: 'app', xml: app }, diagnostics);
    for (const m of app.filterMappings) {
      filterMappings.push({ origin: 'app', mapping: m });
      appMapped.add(m.filterName.value);
    }
  }
  const defaultFilters = new Map<string, MergedFilter>();
  for (const layer of defaults) addFilters(defaultFilters, layer, diagnostics);
  for (const layer of defaults) {
    for (const m of layer.xml.filterMappings) {
      if (!appMapped.has(m.filterName.value)) filterMappings.push({ origin: layer.origin, mapping: m });
    }
  }
  for (const [name, d] of defaultFilters) {
    const own = filters.get(name);
    if (!own) {
      filters.set(name, d);
      continue;
    }
    const have = new Set(own.initParams.map((p) => p.name.value));
    for (const p of d.initParams) if (!have.has(p.name.value)) own.initParams.push(p);
    if (!own.className) own.className = d.className;
  }

  const servlets = new Map<string, MergedServlet>();
  const servletMappings = new Map<string, MergedServletMapping>();
  const appMappedServlets = new Set<string>();
  if (app) {
    for (const s of app.servlets) servlets.set(s.name.value, { name: s.name.value, origin: 'app', def: s });
    for (const m of app.servletMappings) {
      appMappedServlets.add(m.servletName.value);
      for (const u of m.urlPatterns) {
        servletMappings.set(u.value, { pattern: u.value, servletName: m.servletName.value, origin: 'app', span: u.span });
      }
    }
  }
  for (const layer of defaults) {
    for (const s of layer.xml.servlets) {
      if (!servlets.has(s.name.value)) servlets.set(s.name.value, { name: s.name.value, origin: layer.origin, def: s });
    }
    for (const m of layer.xml.servletMappings) {
      if (appMappedServlets.has(m.servletName.value)) continue;
      for (const u of m.urlPatterns) {
        if (!servletMappings.has(u.value)) {
          servletMappings.set(u.value, { pattern: u.value, servletName: m.servletName.value, origin: layer.origin, span: u.span });
        }
      }
    }
  }

  const mimeMappings = new Map<string, string>();
  for (const layer of [...defaults, ...(app ? [{ origin: 'app' as const, xml: app }] : [])]) {
    for (const m of layer.xml.mimeMappings) mimeMappings.set(m.extension.value.toLowerCase(), m.mimeType.value);
  }

  // The host's web.xml.default replaces the global welcome files, and the app's replace both.
  let welcomeFiles: string[] = [];
  for (const layer of [...defaults, ...(app ? [{ origin: 'app' as const, xml: app }] : [])]) {
    if (layer.xml.welcomeFiles.length > 0) welcomeFiles = layer.xml.welcomeFiles.map((w) => w.value);
  }

  let sessionTimeoutMinutes = 30;
  for (const layer of [...defaults, ...(app ? [{ origin: 'app' as const, xml: app }] : [])]) {
    const t = layer.xml.sessionTimeout;
    if (!t) continue;
    const n = Number.parseInt(t.value, 10);
    if (/^[+-]?\d+$/.test(t.value) && Number.isFinite(n)) sessionTimeoutMinutes = n;
    else {
      diagnostics.push({
        ruleId: 'webxml-invalid-value',
        severity: 'error',
        message: `<session-timeout> must be a whole number of minutes, not "${t.value}".`,
        span: t.span,
      });
    }
  }

  for (const layer of [...defaults, ...(app ? [{ origin: 'app' as const, xml: app }] : [])]) {
    const patterns = [
      ...layer.xml.filterMappings.flatMap((m) => m.urlPatterns.filter((u) => u.value !== '*')),
      ...layer.xml.servletMappings.flatMap((m) => m.urlPatterns),
    ];
    for (const u of patterns) {
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
  }

  for (const { mapping } of filterMappings) {
    if (!filters.has(mapping.filterName.value)) {
      diagnostics.push({
        ruleId: 'filter-mapping-undefined-filter',
        severity: 'error',
        message: `<filter-mapping> names "${mapping.filterName.value}", which no <filter> defines: Tomcat refuses to start the application.`,
        span: mapping.filterName.span,
      });
    }
  }
  return { filters, filterMappings, servlets, servletMappings, mimeMappings, welcomeFiles, sessionTimeoutMinutes, diagnostics };
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
