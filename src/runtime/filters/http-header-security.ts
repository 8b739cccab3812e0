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
        throw new Error('Unable to add HTTP headers since response is already committed on entry to the HTTP header security Filter');
      }
      if (hsts !== null && ex.request.secure) res.setHeader('Strict-Transport-Security', hsts);
      if (frameOptions !== null) res.setHeader('X-Frame-Options', frameOptions);
      if (noSniff) res.setHeader('X-Content-Type-Options', 'nosniff');
      if (xss) res.setHeader('X-XSS-Protection', '1; mode=block');
      return next();
    },
  };
};
