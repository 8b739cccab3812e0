import type { CatalinaBase, LoadedContext, LoadedHost } from '../model/index.js';
import { mergeWebApp, type MergedWebApp } from './merge.js';

export interface ResolvedContext {
  host: LoadedHost;
  context: LoadedContext;
  merged: MergedWebApp;
}

const cache = new WeakMap<LoadedContext, MergedWebApp>();

/** The merged configuration of one context (computed once per loaded context). */
export function mergedOf(base: CatalinaBase, host: LoadedHost, context: LoadedContext): MergedWebApp {
  let m = cache.get(context);
  if (!m) {
    m = mergeWebApp(base.globalWebXml, host.webXmlDefault, context.webXml);
    cache.set(context, m);
  }
  return m;
}

/** Every context of every host with its merged configuration. */
export function contextsOf(base: CatalinaBase): ResolvedContext[] {
  const out: ResolvedContext[] = [];
  for (const host of base.hosts) {
    for (const context of host.contexts) out.push({ host, context, merged: mergedOf(base, host, context) });
  }
  return out;
}

/** The host for a Host header value: by name or alias (case-insensitive), else the Engine's default host. */
export function findHost(base: CatalinaBase, hostName: string | undefined): LoadedHost | null {
  const wanted = (hostName ?? '').replace(/:\d+$/, '').toLowerCase();
  const byName = base.hosts.find((h) => h.name.toLowerCase() === wanted || h.aliases.some((a) => a.toLowerCase() === wanted));
  return byName ?? base.hosts.find((h) => h.name.toLowerCase() === base.defaultHost.toLowerCase()) ?? null;
}

/** The context serving a request path: the longest context path that is a prefix at a "/" boundary. */
export function findContext(host: LoadedHost, requestUri: string): LoadedContext | null {
  let best: LoadedContext | null = null;
  for (const c of host.contexts) {
    if (c.path === '' || requestUri === c.path || requestUri.startsWith(c.path + '/')) {
      if (!best || c.path.length > best.path.length) best = c;
    }
  }
  return best;
}
