import type { Located, Span } from './span.js';

export type Dispatcher = 'REQUEST' | 'FORWARD' | 'INCLUDE' | 'ERROR' | 'ASYNC';
export const DISPATCHERS: readonly Dispatcher[] = ['REQUEST', 'FORWARD', 'INCLUDE', 'ERROR', 'ASYNC'];

/** An `<init-param>` or `<context-param>`. */
export interface Param {
  name: Located<string>;
  value: Located<string>;
  span: Span;
}

export interface FilterDef {
  name: Located<string>;
  /** `<filter-class>`; null when the element is missing. */
  className: Located<string> | null;
  asyncSupported: Located<string> | null;
  initParams: Param[];
  span: Span;
}

export interface FilterMapping {
  filterName: Located<string>;
  urlPatterns: Located<string>[];
  servletNames: Located<string>[];
  /** Raw dispatcher texts; validity is checked by lint. Empty means REQUEST. */
  dispatchers: Located<string>[];
  span: Span;
}

export interface ServletDef {
  name: Located<string>;
  className: Located<string> | null;
  jspFile: Located<string> | null;
  initParams: Param[];
  span: Span;
}

export interface ServletMapping {
  servletName: Located<string>;
  urlPatterns: Located<string>[];
  span: Span;
}

export interface MimeMapping {
  extension: Located<string>;
  mimeType: Located<string>;
  span: Span;
}

/**
 * An `<error-page>`: by `<error-code>`, by `<exception-type>`, or neither (the
 * default error page, Servlet 3.0+). Raw texts; the merge decides what is usable.
 */
export interface ErrorPage {
  errorCode: Located<string> | null;
  exceptionType: Located<string> | null;
  location: Located<string> | null;
  span: Span;
}

/** A `<web-resource-collection>`: the URL patterns and the methods it constrains (none listed: every method). */
export interface WebResourceCollection {
  urlPatterns: Located<string>[];
  httpMethods: Located<string>[];
  httpMethodOmissions: Located<string>[];
  span: Span;
}

/** A `<security-constraint>`, raw texts. */
export interface SecurityConstraint {
  collections: WebResourceCollection[];
  /**
   * The `<auth-constraint>`'s role names; null when there is none (no authentication asked),
   * empty for an `<auth-constraint/>` without roles (nobody gets in).
   */
  authRoles: Located<string>[] | null;
  /** `<user-data-constraint><transport-guarantee>` (NONE, INTEGRAL, CONFIDENTIAL). */
  transportGuarantee: Located<string> | null;
  span: Span;
}

/** `<session-config><cookie-config>`: the flags it sets, raw texts. */
export interface SessionCookieConfig {
  httpOnly: Located<string> | null;
  secure: Located<string> | null;
  span: Span;
}

/** The generation of a deployment descriptor, from its DOCTYPE, namespace and version attribute. */
export type WebXmlGeneration =
  '2.2' | '2.3' | '2.4' | '2.5' | '3.0' | '3.1' | '4.0' | '5.0' | '6.0' | '6.1' | 'unknown';

/** A parsed `web.xml` (or `web-fragment.xml`, or `web.xml.default`). */
export interface WebXml {
  file: string;
  root: 'web-app' | 'web-fragment';
  generation: WebXmlGeneration;
  namespace: string | null;
  version: Located<string> | null;
  metadataComplete: Located<string> | null;
  span: Span;
  filters: FilterDef[];
  filterMappings: FilterMapping[];
  servlets: ServletDef[];
  servletMappings: ServletMapping[];
  mimeMappings: MimeMapping[];
  welcomeFiles: Located<string>[];
  /** `<session-config><session-timeout>` in minutes, raw text. */
  sessionTimeout: Located<string> | null;
  contextParams: Param[];
  /** `<login-config><realm-name>`, when present. */
  realmName: Located<string> | null;
  /** `<request-character-encoding>` (Servlet 4.0+). */
  requestCharacterEncoding: Located<string> | null;
  /** `<error-page>` elements in document order (absent on descriptors built by older code). */
  errorPages?: ErrorPage[];
  /** `<security-constraint>` elements in document order (absent on descriptors built by older code). */
  securityConstraints?: SecurityConstraint[];
  /** `<login-config>` with its `<auth-method>`, when the descriptor has one. */
  loginConfig?: { authMethod: Located<string> | null; span: Span } | null;
  /** `<security-role><role-name>` values. */
  securityRoles?: Located<string>[];
  /** `<session-config><cookie-config>`, when present. */
  sessionCookieConfig?: SessionCookieConfig | null;
  /** `<session-config><tracking-mode>` values. */
  trackingModes?: Located<string>[];
  /** Where `<deny-uncovered-http-methods/>` is, when present. */
  denyUncoveredHttpMethods?: Span | null;
  /** The DOCTYPE declaration's text (2.2/2.3 descriptors). */
  doctype: Located<string> | null;
  /**
   * Set when the file is not well-formed XML: where reading stopped. Tomcat refuses such a
   * descriptor ("Parse error in application web.xml"), so its context fails to start
   * (observed on Tomcat 10.1.60); the elements read before this point are still listed.
   */
  malformed?: Span;
}
