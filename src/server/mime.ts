/**
 * The runtime's MIME lookup (src/runtime/mime.ts), also fed with web.xml
 * `<mime-mapping>` elements as the parser reads them.
 */
import type { MimeMapping } from '../model/index.js';
import {
  createMimeLookup as runtimeLookup,
  type MimeLookup,
  type MimeLookupOptions,
  type MimeMappings as RuntimeMappings,
} from '../runtime/mime.js';

export type { MimeLookup };

/** Extra mappings: web.xml `<mime-mapping>` elements, or what the runtime takes ([extension, type] pairs, a Map, an object). */
export type MimeMappings = readonly MimeMapping[] | RuntimeMappings;

/** Tomcat's stock table overridden by `mappings`, as the application's web.xml overrides conf/web.xml. */
export function createMimeLookup(mappings?: MimeMappings, options: MimeLookupOptions = {}): MimeLookup {
  if (Array.isArray(mappings)) {
    const pairs = (mappings as readonly (MimeMapping | readonly [string, string])[]).map(
      (m): readonly [string, string] =>
        Array.isArray(m)
          ? [String(m[0]), String(m[1])]
          : [(m as MimeMapping).extension.value.trim(), (m as MimeMapping).mimeType.value.trim()],
    );
    return runtimeLookup(pairs, options);
  }
  return runtimeLookup(mappings as RuntimeMappings | undefined, options);
}
