/**
 * AddDefaultCharsetFilter: a text/* response whose content type names no
 * charset gets ";charset=<encoding>" (the name as configured), just before
 * the headers go out. Tomcat wraps setContentType for the same effect; doing
 * it at commit also covers content types written with res.setHeader or
 * res.writeHead. "system" is UTF-8 here: Node has no platform charset.
 */
import type { AddDefaultCharsetConfig } from '../../filters/add-default-charset.js';
import type { Exchange } from '../exchange.js';
import type { RuntimeFilterFactory } from '../types.js';

export const create: RuntimeFilterFactory<AddDefaultCharsetConfig> = (config) => {
  const suffix = `;charset=${config.encoding}`;
  return {
    name: 'AddDefaultCharsetFilter',
    doFilter(ex, next) {
      ex.response.onBeforeCommit(addCharset, suffix);
      return next();
    },
  };
};

/** Tomcat's test is textual: starts with "text/" and does not contain "charset=" (both case-sensitive). */
function addCharset(ex: Exchange, suffix: string): void {
  const res = ex.res;
  const ct = res.getHeader('content-type');
  if (typeof ct !== 'string' || !ct.startsWith('text/') || ct.includes('charset=')) return;
  res.setHeader('content-type', ct + suffix);
}
