/**
 * `tollgate/schema`: the JSON Schemas `tollgate schema` writes (one per filter, tollgate.chain.json,
 * tollgate.config.json), the zod schemas they are generated from, and web.xml to tollgate.chain.json
 * conversion (`tollgate convert`). The CLI's schema and convert commands are thin shells over this.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseWebXml } from '../parser/index.js';
import { webXmlToChainDocument } from '../schema/convert.js';
import { generateSchemas, schemaText } from '../schema/generate.js';
import { TollgateInputError } from './errors.js';

export { TollgateInputError };
export { chainDocumentSchema } from '../schema/chain-document.js';
export { configFileSchema, type ConfigFile } from '../schema/config-document.js';

/** Every JSON Schema, by its file name under schemas/ (e.g. `filters/cors.schema.json`). */
export function jsonSchemas(): Map<string, Record<string, unknown>> {
  return generateSchemas();
}

/** The text `tollgate schema` writes for a schema: stable, the same input gives the same bytes. */
export { schemaText };

/** Writes every JSON Schema under `outDir`; returns the paths written. */
export function writeSchemas(outDir: string): string[] {
  return [...generateSchemas()].map(([file, schema]) => {
    const path = join(resolve(outDir), file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, schemaText(schema));
    return path;
  });
}

export interface ConvertOptions {
  /** The context path (default: the application directory's name, `/` for ROOT, as Tomcat deploys it). */
  contextPath?: string;
  /** Resolves a relative `file` (default process.cwd()). */
  cwd?: string;
}

/** The tollgate.chain.json document equivalent to a WEB-INF/web.xml; throws TollgateInputError when the file is not one. */
export function convertWebXml(file: string, options: ConvertOptions = {}): Record<string, unknown> {
  const path = resolve(options.cwd ?? process.cwd(), file);
  if (!existsSync(path)) throw new TollgateInputError(`${file}: no such file`);
  const { webXml, diagnostics } = parseWebXml(readFileSync(path), path);
  if (!webXml) throw new TollgateInputError(`${file}: ${diagnostics[0]?.message ?? 'not a web.xml'}`);
  const app = basename(dirname(dirname(path)));
  return webXmlToChainDocument(webXml, options.contextPath ?? (app === 'ROOT' ? '/' : `/${app}`));
}
