/**
 * Small pieces several filters share: whole-string regexes from the config,
 * Tomcat's view of request headers, and the Vary and comma-list rules of
 * Tomcat's ResponseUtil and StringUtils.
 */
import type { Exchange } from '../exchange.js';
import type { ExchangeResponse } from '../response.js';
import type { MimeLookup } from '../mime.js';
import type { FilterInitContext } from '../types.js';

export type { MimeLookup };

/** The context's MIME lookup (ServletContext.getMimeType). */
export function mimeLookupOf(ctx: FilterInitContext): MimeLookup {
  return ctx.settings.mimeType;
}

/** A regex as the filter schemas emit it (already anchored for a whole-string match). */
export interface RegexConfig {
  readonly source: string;
  readonly flags: string;
}

/** Builds the RegExp once, at filter start; null stays null (no pattern). */
export function toRegExp(config: RegexConfig | null | undefined): RegExp | null {
  if (config === null || config === undefined || config.source === '') return null;
  // A global or sticky flag would make test() stateful across requests.
  return new RegExp(config.source, config.flags.replace(/[gy]/g, ''));
}

/**
 * The first line of a request header, as Tomcat's getHeader returns it
 * (Node joins repeated lines with ", ", so only a value with a comma needs
 * the per-line view). `name` must be lower-cased (the filters pass literals and names lower-cased at start-up).
 */
export function firstHeader(ex: Exchange, name: string): string | null {
  const v = ex.request.headerLowerCased(name);
  if (v === null || v.indexOf(',') < 0) return v;
  const lines = ex.request.getHeaders(name);
  return lines.length === 0 ? null : lines[0]!;
}

/** StringUtils.splitCommaSeparated: split on ',', trim each piece, trailing empty pieces dropped as String.split does. */
export function splitCommaSeparated(text: string): string[] {
  if (text === '') return [];
  const parts = text.split(',');
  let end = parts.length;
  while (end > 0 && parts[end - 1] === '') end--;
  const out = new Array<string>(end);
  for (let i = 0; i < end; i++) out[i] = parts[i]!.trim();
  return out;
}

/**
 * ExchangeResponse.addHeader for a header other than Content-Type whose
 * lower-cased name is a literal: the store finds an existing line by that
 * name without lower-casing the mixed-case one per request.
 */
export function addHeaderNamed(res: ExchangeResponse, name: string, lowerCased: string, value: string): void {
  res.addHeaderNamed(name, lowerCased, value);
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * ResponseUtil.addVaryFieldName: adds a field name to Vary. The first name
 * goes in as given; once there are several, the existing ones are re-read as
 * lower-cased tokens and the header is rewritten as one comma-joined line.
 */
export function addVaryFieldName(res: ExchangeResponse, name: string): void {
  // Most responses have no Vary yet: the name then goes in as given, with no list to read.
  if (!res.headers.has('vary')) {
    res.setHeaderNamed('vary', 'vary', name);
    return;
  }
  const existing = res.getHeaders('vary');
  if (existing.length === 1 && existing[0]!.trim() === '*') return;
  if (existing.length === 0) {
    res.addHeader('vary', name);
    return;
  }
  if (name.trim() === '*') {
    res.setHeader('vary', '*');
    return;
  }
  const names = new Set<string>();
  for (const line of existing) {
    for (const piece of line.split(',')) {
      const t = piece.trim();
      if (TOKEN.test(t)) names.add(t.toLowerCase());
    }
  }
  if (names.has('*')) {
    res.setHeader('vary', '*');
    return;
  }
  names.add(name);
  res.setHeader('vary', [...names].join(','));
}
