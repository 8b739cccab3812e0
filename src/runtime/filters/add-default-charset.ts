/**
 * AddDefaultCharsetFilter: a text/* content type set without "charset="
 * gets ";charset=<encoding>" (the name as configured). As in Tomcat, this
 * happens when the content type is set (the filter wraps setContentType for
 * what runs after it), so getContentType() answers with the charset at once
 * and a type set before the filter ran, or by the container's error report,
 * is left alone. A Content-Type header written directly (res.setHeader,
 * res.writeHead) is caught just before the headers go out instead, as if it
 * had been set through the API. "system" is UTF-8 here: Node has no platform
 * charset.
 */
import type { AddDefaultCharsetConfig } from '../../filters/add-default-charset.js';
import type { Exchange } from '../exchange.js';
import { boundedMemo } from '../../protocol/memo.js';
import { parseContentType } from '../media-type.js';
import type { RuntimeFilterFactory } from '../types.js';

interface Charsets {
  readonly encoding: string;
  /** The wrapper's answer per content type, worked out once. */
  readonly wrapped: (ct: string) => string;
  /** What goes on the wire for a header written directly, or null to leave it. */
  readonly direct: (ct: string) => string | null;
}

export const create: RuntimeFilterFactory<AddDefaultCharsetConfig> = (config) => {
  const encoding = config.encoding;
  const suffix = `;charset=${encoding}`;
  // Responses repeat a few content types: each one's answer is worked out, and its new value built, once.
  const state: Charsets = {
    encoding,
    wrapped: boundedMemo((ct) => (needsCharset(ct) ? ct + suffix : ct), CONTENT_TYPES_KEPT, 128),
    direct: boundedMemo((ct) => (needsCharset(ct) ? asResponseSetsIt(ct + suffix) : null), CONTENT_TYPES_KEPT, 128),
  };
  return {
    name: 'AddDefaultCharsetFilter',
    doFilter(ex, next) {
      ex.response.wrapContentType(wrap, state);
      ex.response.onBeforeCommit(addCharsetToDirect, state);
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

/**
 * ResponseWrapper.setContentType. After setCharacterEncoding (or a type with
 * "charset=") the wrapper appends that charset instead of the configured one.
 */
function wrap(type: string, charsetSet: string | null, state: Charsets): string {
  if (charsetSet === null || charsetSet === state.encoding || !needsCharset(type)) return state.wrapped(type);
  return `${type};charset=${charsetSet}`;
}

/**
 * What Tomcat's Response.setContentType puts on the wire for a type with a
 * charset: the type without its charset parameters (a name in any case, the
 * last one winning), then ";charset=" and that charset.
 */
function asResponseSetsIt(type: string): string {
  const p = parseContentType(type);
  return p === null || p.charset === null ? type : `${p.withoutCharset};charset=${p.charset}`;
}

function addCharsetToDirect(ex: Exchange, state: Charsets): void {
  if (!ex.response.contentTypeWrittenDirectly) return;
  const ct = ex.response.headers.get('content-type');
  if (typeof ct !== 'string') return;
  const value = state.direct(ct);
  if (value !== null) ex.res.setHeader('content-type', value);
}
