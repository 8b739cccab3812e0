/**
 * AddDefaultCharsetFilter: a text/* response whose content type names no
 * charset gets ";charset=<encoding>" (the name as configured), just before
 * the headers go out. Tomcat wraps setContentType for the same effect; doing
 * it at commit also covers content types written with res.setHeader or
 * res.writeHead. "system" is UTF-8 here: Node has no platform charset.
 */
import type { AddDefaultCharsetConfig } from '../../filters/add-default-charset.js';
import type { Exchange } from '../exchange.js';
import { boundedMemo } from '../../protocol/memo.js';
import type { RuntimeFilterFactory } from '../types.js';

export const create: RuntimeFilterFactory<AddDefaultCharsetConfig> = (config) => {
  const suffix = `;charset=${config.encoding}`;
  // Responses repeat a few content types: each one's answer is worked out, and its new value built, once.
  const withCharset = boundedMemo((ct) => (needsCharset(ct) ? ct + suffix : null), CONTENT_TYPES_KEPT, 128);
  return {
    name: 'AddDefaultCharsetFilter',
    doFilter(ex, next) {
      ex.response.onBeforeCommit(addCharset, withCharset);
      return next();
    },
  };
};

/** How many content types each filter remembers the answer for. */
const CONTENT_TYPES_KEPT = 256;

/** Tomcat's test is textual: starts with "text/" and does not contain "charset=" (both case-sensitive). */
function needsCharset(ct: string): boolean {
  return ct.startsWith('text/') && !ct.includes('charset=');
}

function addCharset(ex: Exchange, withCharset: (ct: string) => string | null): void {
  const res = ex.res;
  const ct = res.getHeader('content-type');
  if (typeof ct !== 'string') return;
  const value = withCharset(ct);
  if (value !== null) res.setHeader('content-type', value);
}
