/**
 * Content types by file name, as a Tomcat context answers
 * ServletContext.getMimeType: the text after the last dot, lower-cased, looked
 * up in the context's mime-mappings (conf/web.xml's defaults with the
 * application's `<mime-mapping>`s over them, by extension). One lookup per
 * context serves the static servlet and the filters (CsrfPreventionFilter's
 * `mime:` patterns, ExpiresFilter's by-type rules on a 304) alike.
 */
import { TOMCAT_MIME_TYPES } from '../protocol/mime-table.js';

/** The content type for a file name, or null when its extension is not mapped. */
export type MimeLookup = (fileName: string) => string | null;

/** Mappings by extension: a Map, [extension, type] pairs, or an object. */
export type MimeMappings =
  ReadonlyMap<string, string> | Iterable<readonly [string, string]> | Readonly<Record<string, string>>;

export interface MimeLookupOptions {
  /**
   * Start from Tomcat 10.1's stock conf/web.xml table (default true). false:
   * only the given mappings (a base whose conf/web.xml maps other types).
   */
  readonly defaults?: boolean;
}

function lookupIn(table: ReadonlyMap<string, string>): MimeLookup {
  return (fileName) => {
    const dot = fileName.lastIndexOf('.');
    if (dot < 0 || dot === fileName.length - 1) return null;
    const ext = fileName.slice(dot + 1);
    // Most extensions arrive lower-case already; toLowerCase would still copy a sliced string.
    return table.get(ext) ?? table.get(ext.toLowerCase()) ?? null;
  };
}

/** Tomcat's stock mappings alone. */
export const tomcatMimeLookup: MimeLookup = lookupIn(TOMCAT_MIME_TYPES);

/**
 * A context's lookup: `mappings` over Tomcat's stock table (or alone, with
 * `defaults: false`), each extension lower-cased as StandardContext.addMimeMapping
 * does, a later mapping of an extension replacing an earlier one.
 */
export function createMimeLookup(mappings?: MimeMappings | null, options: MimeLookupOptions = {}): MimeLookup {
  const defaults = options.defaults ?? true;
  if (typeof defaults !== 'boolean') throw new TypeError('mime defaults must be a boolean');
  const pairs = mappings == null ? [] : toPairs(mappings);
  if (pairs.length === 0) return defaults ? tomcatMimeLookup : () => null;
  const table = new Map<string, string>(defaults ? TOMCAT_MIME_TYPES : []);
  for (const [ext, type] of pairs) {
    if (typeof ext !== 'string' || typeof type !== 'string')
      throw new TypeError('MIME mappings must map extension strings to content type strings');
    table.set(ext.toLowerCase(), type);
  }
  return lookupIn(table);
}

function toPairs(m: MimeMappings): (readonly [string, string])[] {
  if (m instanceof Map) return [...(m as ReadonlyMap<string, string>)];
  if (Symbol.iterator in (m as object)) return [...(m as Iterable<readonly [string, string]>)];
  return Object.entries(m as Record<string, string>);
}

/**
 * A context's whole MIME map expressed against Tomcat's stock table: the
 * entries it adds or changes, over the defaults when it keeps every stock
 * extension (the usual case: no copy of the thousand defaults per context),
 * else the whole map without them.
 */
export function mimeMappingsAgainstDefaults(map: ReadonlyMap<string, string> | Readonly<Record<string, string>>): {
  mappings: Record<string, string>;
  defaults: boolean;
} {
  const entries =
    map instanceof Map ? [...(map as ReadonlyMap<string, string>)] : Object.entries(map as Record<string, string>);
  const keys = new Set<string>();
  const own: Record<string, string> = {};
  for (const [ext, type] of entries) {
    const lower = ext.toLowerCase();
    keys.add(lower);
    if (TOMCAT_MIME_TYPES.get(lower) !== type) own[lower] = type;
  }
  for (const ext of TOMCAT_MIME_TYPES.keys()) {
    if (!keys.has(ext))
      return { mappings: Object.fromEntries(entries.map(([e, t]) => [e.toLowerCase(), t])), defaults: false };
  }
  return { mappings: own, defaults: true };
}
