/**
 * Content types by file extension, as a Tomcat context answers
 * `getMimeType`: the text after the last dot, looked up case-insensitively
 * in the context's mime-mappings (conf/web.xml's, then the application's).
 */
import type { MimeMapping } from '../model/index.js';
import { TOMCAT_MIME_TYPES } from '../protocol/mime-table.js';

/** The content type for a file name, or null when its extension is not mapped. */
export type MimeLookup = (fileName: string) => string | null;

/** Extra mappings: web.xml `<mime-mapping>` elements, [extension, type] pairs, or an object. */
export type MimeMappings = readonly MimeMapping[] | Iterable<readonly [string, string]> | Readonly<Record<string, string>>;

/**
 * Builds a lookup over `base` (Tomcat's stock table unless given) overridden
 * by `mappings`, as the application's web.xml overrides conf/web.xml.
 */
export function createMimeLookup(mappings?: MimeMappings, base: ReadonlyMap<string, string> = TOMCAT_MIME_TYPES): MimeLookup {
  let table = base;
  const extra = mappings === undefined ? [] : toPairs(mappings);
  if (extra.length > 0) {
    const merged = new Map(base);
    for (const [ext, type] of extra) merged.set(ext.toLowerCase(), type);
    table = merged;
  }
  return (fileName) => {
    const dot = fileName.lastIndexOf('.');
    if (dot < 0 || dot === fileName.length - 1) return null;
    return table.get(fileName.slice(dot + 1).toLowerCase()) ?? null;
  };
}

function toPairs(m: MimeMappings): [string, string][] {
  if (Symbol.iterator in m) {
    const out: [string, string][] = [];
    for (const item of m as Iterable<MimeMapping | readonly [string, string]>) {
      if (Array.isArray(item)) out.push([String(item[0]), String(item[1])]);
      else {
        const mm = item as MimeMapping;
        out.push([mm.extension.value.trim(), mm.mimeType.value.trim()]);
      }
    }
    return out;
  }
  return Object.entries(m as Record<string, string>);
}
