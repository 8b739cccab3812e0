import type { Diagnostic, SourceFile, WebXml } from '../model/index.js';
import { toSource } from './source.js';
import { parseDirect } from './webxml-direct.js';
import type { WebXmlOptions } from './webxml-read.js';
import { readWebXmlTree } from './webxml-tree.js';

export type { WebXmlOptions } from './webxml-read.js';

/**
 * Parses a web.xml (or web-fragment.xml / web.xml.default) into the positioned model.
 * With `properties` (what loadBase passes: catalina.base, catalina.home, conf/catalina.properties),
 * `${name}` in values is replaced as Tomcat 10.1 does for every descriptor; without, values stay as written.
 */
export function parseWebXml(
  input: string | Uint8Array,
  file: string,
  properties?: Record<string, string>,
  options: WebXmlOptions = {},
): { webXml: WebXml | null; source: SourceFile; diagnostics: Diagnostic[] } {
  const { source, diagnostics } = toSource(input, file);
  const direct = options.direct === false ? null : parseDirect(source, diagnostics, properties, options);
  if (direct) return { webXml: direct, source, diagnostics };
  return { webXml: readWebXmlTree(source, diagnostics, properties, options), source, diagnostics };
}
