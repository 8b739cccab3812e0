/**
 * A context's `<Resources>` element: how its static resource cache is sized
 * and how long what it learnt is trusted. Tomcat's digester creates a new
 * StandardRoot for every `<Resources>` it reads for the context, from
 * conf/context.xml, then the host's context.xml.default, then the context's
 * own definition (a `<Context>` of server.xml is read before the two
 * defaults), so the last one wins whole (attributes are not merged
 * across files). Values are set as IntrospectionUtils sets them: a boolean
 * is true only for "true" (any case), a number Java cannot parse is ignored
 * with a log line and the default stays.
 */
import type { CatalinaBase, ConfigElement, ContextDef, LoadedContext, LoadedHost } from '../model/index.js';

export interface ResourcesSettings {
  /** cachingAllowed, default true. */
  cachingAllowed: boolean;
  /** cacheTtl in ms, default 5000. */
  cacheTtlMs: number;
  /** cacheMaxSize (KB) in bytes, default 10240 KB. */
  cacheMaxBytes: number;
  /** cacheObjectMaxSize (KB) in bytes, default 512 KB; Tomcat lowers it to cacheMaxSize/20 at start. */
  cacheObjectMaxBytes: number;
  /** allowLinking, default false. */
  allowLinking: boolean;
}

export const DEFAULT_RESOURCES: Readonly<ResourcesSettings> = {
  cachingAllowed: true,
  cacheTtlMs: 5000,
  cacheMaxBytes: 10240 * 1024,
  cacheObjectMaxBytes: 512 * 1024,
  allowLinking: false,
};

function lastResources(def: ContextDef | null | undefined): ConfigElement | null {
  const all = (def?.children ?? []).filter((c) => c.tag === 'Resources');
  return all[all.length - 1] ?? null;
}

/** Java's Long.parseLong / Integer.parseInt: an optional sign and decimal digits, nothing else. */
function javaInteger(value: string | undefined, max: number): number | null {
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return null;
  const n = Number(value);
  return Math.abs(n) <= max ? n : null;
}

const INT_MAX = 2 ** 31 - 1;

export function resourcesOf(base: CatalinaBase, host: LoadedHost, context: LoadedContext): ResourcesSettings {
  // Latest applied first. A <Context> of server.xml is digested before ContextConfig reads the defaults.
  const order =
    context.source === 'server-xml'
      ? [host.contextDefault, base.contextXml, context.contextDef]
      : [context.contextDef, host.contextDefault, base.contextXml];
  const el = order.map(lastResources).find((e) => e !== null) ?? null;
  if (el === null) return { ...DEFAULT_RESOURCES };
  const attr = (name: string): string | undefined => el.attributes[name]?.value;
  const bool = (name: string, fallback: boolean): boolean =>
    attr(name) === undefined ? fallback : attr(name)!.toLowerCase() === 'true';
  const ttl = javaInteger(attr('cacheTtl'), Number.MAX_SAFE_INTEGER);
  const maxKb = javaInteger(attr('cacheMaxSize'), Number.MAX_SAFE_INTEGER);
  const objectKb = javaInteger(attr('cacheObjectMaxSize'), INT_MAX);
  return {
    cachingAllowed: bool('cachingAllowed', DEFAULT_RESOURCES.cachingAllowed),
    cacheTtlMs: ttl ?? DEFAULT_RESOURCES.cacheTtlMs,
    cacheMaxBytes: maxKb === null ? DEFAULT_RESOURCES.cacheMaxBytes : maxKb * 1024,
    // Cache.setObjectMaxSize: kilobytes times 1024 that exceed an int are capped.
    cacheObjectMaxBytes: objectKb === null ? DEFAULT_RESOURCES.cacheObjectMaxBytes : Math.min(objectKb * 1024, INT_MAX),
    allowLinking: bool('allowLinking', DEFAULT_RESOURCES.allowLinking),
  };
}

function lastManager(def: ContextDef | null | undefined): ConfigElement | null {
  const all = (def?.children ?? []).filter((c) => c.tag === 'Manager');
  return all[all.length - 1] ?? null;
}

/**
 * The context's `<Manager maxActiveSessions>` (ManagerBase, any Manager class): -1, Tomcat's default, for
 * no limit. As with `<Resources>`, the digester makes a new Manager for each element it reads, in the same
 * order, so the last one wins whole; a value Integer.parseInt refuses is ignored (the default stays).
 */
export function maxActiveSessionsOf(base: CatalinaBase, host: LoadedHost, context: LoadedContext): number {
  const order =
    context.source === 'server-xml'
      ? [host.contextDefault, base.contextXml, context.contextDef]
      : [context.contextDef, host.contextDefault, base.contextXml];
  const el = order.map(lastManager).find((e) => e !== null) ?? null;
  return javaInteger(el?.attributes['maxActiveSessions']?.value, INT_MAX) ?? -1;
}
