import { findFilterSpec } from '../filters/index.js';
import type { WebXml } from '../model/index.js';
import { CHAIN_SCHEMA_URL } from './urls.js';

type Json = string | number | boolean | string[];

/** A web.xml value in its natural JSON type, when Tomcat would read it that way. */
function typedValue(kind: string | undefined, text: string): Json {
  const t = text.trim();
  if (kind === 'boolean' && /^(true|false)$/i.test(t)) return t.toLowerCase() === 'true';
  if ((kind === 'integer' || kind === 'status') && /^-?\d+$/.test(t) && Number.isSafeInteger(Number(t)))
    return Number(t);
  if (kind === 'list' && t !== '' && t !== '*')
    return t
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  return text;
}

/** The JSON chain document equivalent to one web.xml (as the context at `path`). */
export function webXmlToChainDocument(webXml: WebXml, path: string): Record<string, unknown> {
  const filters = webXml.filters.map((f) => {
    const spec = f.className ? findFilterSpec(f.className.value) : undefined;
    const params: Record<string, Json> = {};
    for (const p of f.initParams)
      if (!(p.name.value in params)) params[p.name.value] = typedValue(spec?.paramKinds[p.name.value], p.value.value);
    return {
      name: f.name.value,
      class: f.className?.value ?? '',
      ...(Object.keys(params).length ? { params } : {}),
      ...(f.asyncSupported ? { asyncSupported: f.asyncSupported.value.trim().toLowerCase() === 'true' } : {}),
    };
  });
  const mappings = webXml.filterMappings.map((m) => ({
    filter: m.filterName.value,
    ...(m.urlPatterns.length ? { urlPatterns: m.urlPatterns.map((u) => u.value) } : {}),
    ...(m.servletNames.length ? { servletNames: m.servletNames.map((s) => s.value) } : {}),
    ...(m.dispatchers.length ? { dispatchers: m.dispatchers.map((d) => d.value.toUpperCase()) } : {}),
  }));
  const servletMappings: Record<string, string> = {};
  for (const m of webXml.servletMappings) for (const u of m.urlPatterns) servletMappings[u.value] = m.servletName.value;
  return {
    $schema: CHAIN_SCHEMA_URL,
    version: 1,
    contexts: [
      {
        path,
        filters,
        mappings,
        ...(webXml.sessionTimeout ? { sessionTimeoutMinutes: Number(webXml.sessionTimeout.value) } : {}),
        ...(Object.keys(servletMappings).length ? { servletMappings } : {}),
        ...(webXml.welcomeFiles.length ? { welcomeFiles: webXml.welcomeFiles.map((w) => w.value) } : {}),
      },
    ],
  };
}
