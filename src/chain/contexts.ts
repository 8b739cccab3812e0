/**
 * From a loaded CATALINA_BASE to merged applications, and from a request
 * (Host header and URI) to the context that serves it, as Tomcat's Mapper
 * picks them.
 */
import type { CatalinaBase, LoadedContext, LoadedHost } from '../model/index.js';
import { mergeWebApp } from './merge.js';
import type { MergedWebApp } from './types.js';

export interface ResolvedContext {
  host: LoadedHost;
  context: LoadedContext;
  merged: MergedWebApp;
}

/** A context chosen for a request, with the request path relative to it ("" when the URI is the context path itself). */
export interface ContextMatch extends ResolvedContext {
  path: string;
  /** Longer matching contexts passed over because Tomcat does not start them (startup 'fails'). */
  notStarted: ResolvedContext[];
}

const cache = new WeakMap<LoadedContext, MergedWebApp>();

/** The merged configuration of one context (computed once per loaded context). */
export function mergedOf(base: CatalinaBase, host: LoadedHost, context: LoadedContext): MergedWebApp {
  let m = cache.get(context);
  if (!m) {
    m = mergeWebApp(base.globalWebXml, host.webXmlDefault, context.webXml, context.tomcatWebXml ?? null);
    cache.set(context, m);
  }
  return m;
}

/** Every context of every host, with its merged configuration. */
export function contextsOf(base: CatalinaBase): ResolvedContext[] {
  const out: ResolvedContext[] = [];
  for (const host of base.hosts) {
    for (const context of host.contexts) out.push({ host, context, merged: mergedOf(base, host, context) });
  }
  return out;
}

function namedHost(base: CatalinaBase, name: string): LoadedHost | null {
  for (const h of base.hosts) {
    if (h.name.toLowerCase() === name) return h;
    for (const a of h.aliases) if (a.toLowerCase() === name) return h;
  }
  return null;
}

/**
 * The host for a Host header value (port ignored): by name or alias, case-insensitive;
 * then a wildcard name or alias "*.example.com" for "a.example.com"; else the Engine's defaultHost.
 */
export function findHost(base: CatalinaBase, hostName: string | undefined): LoadedHost | null {
  let wanted = (hostName ?? '').toLowerCase();
  if (!wanted.startsWith('[')) wanted = wanted.replace(/:\d*$/, '');
  const exact = wanted ? namedHost(base, wanted) : null;
  if (exact) return exact;
  const dot = wanted.indexOf('.');
  const wildcard = dot >= 0 ? namedHost(base, '*' + wanted.slice(dot)) : null;
  return wildcard ?? namedHost(base, base.defaultHost.toLowerCase());
}

function longestContext(contexts: readonly LoadedContext[], uri: string): LoadedContext | null {
  let best: LoadedContext | null = null;
  for (const c of contexts) {
    if (c.path === '' || uri === c.path || uri.startsWith(c.path + '/')) {
      if (!best || c.path.length > best.path.length) best = c;
    }
  }
  return best;
}

/**
 * The context that serves a request: the host by name, alias or default
 * (findHost), then the longest context path that is the URI or a prefix of
 * it ending at a "/", passing over contexts Tomcat refuses to start (they are
 * never mapped, so their requests reach the next match, often ROOT). Null
 * when none does (Tomcat answers 404).
 */
export function findContext(base: CatalinaBase, hostName: string | undefined, uri: string): ContextMatch | null;
/** The context of one host whose path matches a URI best, whether or not it starts. */
export function findContext(host: LoadedHost, uri: string): LoadedContext | null;
export function findContext(
  first: CatalinaBase | LoadedHost,
  second: string | undefined,
  third?: string,
): ContextMatch | LoadedContext | null {
  if (!('hosts' in first)) return longestContext(first.contexts, second ?? '');
  const host = findHost(first, second);
  if (!host) return null;
  const uri = third ?? '';
  const notStarted: ResolvedContext[] = [];
  let candidates = host.contexts;
  for (;;) {
    const context = longestContext(candidates, uri);
    if (!context) return null;
    const merged = mergedOf(first, host, context);
    if (merged.startup !== 'fails') return { host, context, merged, path: uri.slice(context.path.length), notStarted };
    notStarted.push({ host, context, merged });
    candidates = candidates.filter((c) => c !== context);
  }
}
