/**
 * HttpHeaderSecurityFilter: sets (replacing any) Strict-Transport-Security
 * on secure requests, X-Frame-Options, X-Content-Type-Options and the
 * deprecated X-XSS-Protection, with values the schema built once.
 */
import type { HttpHeaderSecurityConfig } from '../../filters/http-header-security.js';
import type { RuntimeFilterFactory } from '../types.js';

export const create: RuntimeFilterFactory<HttpHeaderSecurityConfig> = (config) => {
  const hsts = config.hstsEnabled ? config.hstsHeaderValue : null;
  const frameOptions = config.antiClickJackingEnabled ? config.antiClickJackingHeaderValue : null;
  const noSniff = config.blockContentTypeSniffingEnabled;
  const xss = config.xssProtectionEnabled;
  return {
    name: 'HttpHeaderSecurityFilter',
    doFilter(ex, next) {
      const res = ex.response;
      if (res.committed) {
        // Tomcat throws a ServletException here: the headers could no longer be sent.
        throw new Error(
          'Unable to add HTTP headers since response is already committed on entry to the HTTP header security Filter',
        );
      }
      if (hsts !== null && ex.request.secure)
        res.setHeaderNamed('Strict-Transport-Security', 'strict-transport-security', hsts);
      if (frameOptions !== null) res.setHeaderNamed('X-Frame-Options', 'x-frame-options', frameOptions);
      if (noSniff) res.setHeaderNamed('X-Content-Type-Options', 'x-content-type-options', 'nosniff');
      if (xss) res.setHeaderNamed('X-XSS-Protection', 'x-xss-protection', '1; mode=block');
      return next();
    },
  };
};
