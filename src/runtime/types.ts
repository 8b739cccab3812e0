/**
 * The contracts between the runtime, the filter implementations in
 * src/runtime/filters and the chain modules the compiler generates.
 */
import type { Exchange } from './exchange.js';
import type { Logger } from './logging.js';
import type { MimeLookup } from './mime.js';
import type { ContextStores } from './state.js';

import type { DispatcherType } from '../protocol/chain-selector.js';

export type { DispatcherType };

/** What `next` may return: nothing when the rest of the chain ran synchronously, a promise otherwise. */
export type FilterResult = void | Promise<void>;

/** Continues the chain with the next selected filter, or the downstream handler after the last one. */
export type NextFilter = () => FilterResult;

/**
 * One running filter. `doFilter` either calls `next()` (once) to continue or
 * answers the request itself. A filter that continues or answers later must
 * return a promise that settles when it has done so: when `doFilter` (or its
 * promise) returns without `next()` having been called, the chain is over and
 * the runtime completes the response, as a servlet container does.
 */
export interface RuntimeFilter {
  /** The class-like name used in logs (`ExpiresFilter`). */
  readonly name: string;
  doFilter(ex: Exchange, next: NextFilter): FilterResult;
  /** Releases timers and caches when the context stops. */
  destroy?(): void;
}

/** Settings of the web application (context) that filters may consult. */
export interface ContextSettings {
  /** `''` for the ROOT context, otherwise `/name` (no trailing slash). */
  readonly contextPath: string;
  /** web.xml `<session-timeout>` in minutes; zero or negative: sessions never time out. */
  readonly sessionTimeoutMinutes: number;
  /** web.xml `<request-character-encoding>`, used when the request names no charset. */
  readonly requestCharacterEncoding: string | null;
  /** web.xml `<response-character-encoding>`, the response charset when none was set. */
  readonly responseCharacterEncoding: string | null;
  /** Connector maxParameterCount: query plus body parameters; negative means no limit. */
  readonly maxParameterCount: number;
  /** Connector maxPostSize in bytes for form bodies; negative means no limit. */
  readonly maxPostSize: number;
  /** Connector parseBodyMethods: methods whose form bodies become parameters. */
  readonly parseBodyMethods: readonly string[];
  /** Connector URIEncoding: charset of %-decoded paths and query strings. */
  readonly uriEncoding: string;
  /** Connector useBodyEncodingForURI: decode the query string with the body charset. */
  readonly useBodyEncodingForURI: boolean;
  /** Connector enableLookups: resolve remote host names (reverse DNS). */
  readonly enableLookups: boolean;
  readonly sessionCookie: SessionCookieSettings;
  /** ServletContext.getMimeType: Tomcat's defaults with the application's mime-mappings over them. */
  readonly mimeType: MimeLookup;
}

/** How the session cookie is written (Context and CookieProcessor attributes in Tomcat). */
export interface SessionCookieSettings {
  /** Default `JSESSIONID`. */
  readonly name: string;
  /** Default: the context path (`/` for ROOT). */
  readonly path: string | null;
  readonly domain: string | null;
  /** Context useHttpOnly, default true. */
  readonly httpOnly: boolean;
  /** Always Secure; by default only when the request is secure. */
  readonly secure: boolean;
  /** CookieProcessor sameSiteCookies; default unset (no attribute). */
  readonly sameSite: 'Strict' | 'Lax' | 'None' | null;
  /** Context usePartitioned, default false. */
  readonly partitioned: boolean;
  /** Context sessionCookiePathUsesTrailingSlash, default false. */
  readonly pathUsesTrailingSlash: boolean;
}

/** What a filter factory receives besides its config. */
export interface FilterInitContext {
  /** `<filter-name>` from web.xml. */
  readonly filterName: string;
  readonly contextPath: string;
  /** Logger named by the filter class (`org.apache.catalina.filters.ExpiresFilter`). */
  readonly logger: Logger;
  readonly settings: ContextSettings;
  /** Where the context keeps its state; absent when a factory is called on its own (filters then keep theirs in memory). */
  readonly stores?: ContextStores;
}

/** Builds a running filter from its validated config (the output type of its zod schema in src/filters). */
export type RuntimeFilterFactory<Config> = (config: Config, ctx: FilterInitContext) => RuntimeFilter;

/**
 * A filter the runtime instantiates itself, so it can hand the factory its logger and settings.
 * `factory` is a method so that a declaration of any one filter's config is a `FilterDeclaration` (a list
 * holds several filters' declarations); the declaration's own `Config` ties its factory to its config.
 */
export interface FilterDeclaration<Config = unknown> {
  /** `<filter-name>`. */
  readonly filterName: string;
  /** The class name logs are named by (`org.apache.catalina.filters.CorsFilter`). */
  readonly className: string;
  factory(config: Config, ctx: FilterInitContext): RuntimeFilter;
  readonly config: Config;
}
