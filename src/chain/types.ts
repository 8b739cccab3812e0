import type {
  Diagnostic,
  Dispatcher,
  FilterDef,
  FilterMapping,
  Located,
  Param,
  ServletDef,
  Span,
} from '../model/index.js';
import type { CompiledPattern } from './patterns.js';

/**
 * Which descriptor a definition or mapping came from: conf/web.xml, the host's
 * web.xml.default, the app's WEB-INF/tomcat-web.xml, or its WEB-INF/web.xml.
 */
export type Origin = 'global' | 'host' | 'tomcat-web' | 'app';

/** A filter definition after merging: the winning definition plus what it inherited from same-named ones. */
export interface MergedFilter {
  name: string;
  /** Where the winning definition is. */
  origin: Origin;
  def: FilterDef;
  /** The class that runs: the winner's, else inherited from a same-named filter it overrides. */
  className: Located<string> | null;
  asyncSupported: Located<string> | null;
  /** Effective init-params: the winner's, then those of overridden same-named filters it does not set. */
  initParams: Param[];
}

/** A url-pattern of a mapping, as Tomcat uses it (trimmed, %-decoded, classified), with its source text. */
export interface MappedPattern extends CompiledPattern {
  source: Located<string>;
}

export interface MergedFilterMapping {
  origin: Origin;
  mapping: FilterMapping;
  /** The filter name. */
  filterName: string;
  /** Decoded url-patterns (a "*" pattern has kind 'all'). */
  urlPatterns: MappedPattern[];
  /** Servlet names other than "*". */
  servletNames: string[];
  /** A servlet-name of "*": every servlet. */
  allServlets: boolean;
  /** Effective dispatchers: the valid ones listed, REQUEST when none is. */
  dispatchers: Dispatcher[];
  /** The same as a bit set (REQUEST 1, FORWARD 2, INCLUDE 4, ERROR 8, ASYNC 16). */
  dispatcherMask: number;
}

/** A servlet definition after merging (same inheritance rules as filters). */
export interface MergedServlet {
  name: string;
  origin: Origin;
  def: ServletDef;
  className: Located<string> | null;
  jspFile: Located<string> | null;
  initParams: Param[];
}

export interface MergedServletMapping {
  /** The pattern as the Mapper uses it (decoded; "/" prefixed for a Servlet 2.2 app when missing). */
  pattern: string;
  servletName: string;
  origin: Origin;
  /** Where the url-pattern is written. */
  span: Span;
  /** Where the mapping's servlet-name is written (what a finding about the named servlet points at). */
  nameSpan: Span;
}

/**
 * Whether Tomcat starts the context: `fails` when its own descriptors (or
 * merge-time checks) stop it; `first-on-host-fails` when conf/web.xml or
 * web.xml.default has an error that stops Tomcat reading it: whichever context
 * the host deploys first fails, and the others start with the defaults read up
 * to the error (Tomcat caches them per host); `starts` otherwise.
 */
export type Startup = 'starts' | 'fails' | 'first-on-host-fails';

/** One application's configuration as Tomcat assembles it from its descriptors. */
export interface MergedWebApp {
  filters: Map<string, MergedFilter>;
  /** In Tomcat's final order: the app's, then tomcat-web.xml's, then the defaults' (global, then host). */
  filterMappings: MergedFilterMapping[];
  servlets: Map<string, MergedServlet>;
  /** By pattern. */
  servletMappings: Map<string, MergedServletMapping>;
  /** Lower-case extension to MIME type (read-only: an app's own types layered over its host's). */
  mimeMappings: ReadonlyMap<string, string>;
  welcomeFiles: string[];
  /** Minutes; 30 (Tomcat's default) when no descriptor sets it. */
  sessionTimeoutMinutes: number;
  startup: Startup;
  /** Why startup is not 'starts': where Tomcat's digester stopped, or what StandardContext refused (a subset of diagnostics). */
  refusals: Diagnostic[];
  diagnostics: Diagnostic[];
}
