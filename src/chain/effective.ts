/**
 * The filters that run for one request, in the order Tomcat's
 * ApplicationFilterFactory builds the chain.
 */
import type { Dispatcher, Span } from '../model/index.js';
import { dispatcherBit } from './descriptor.js';
import { resolveServlet, type FileExists, type ServletMatch } from './mapper.js';
import { matchesFilterPattern } from './patterns.js';
import type { MergedFilter, MergedFilterMapping, MergedWebApp } from './types.js';

export interface ChainEntry {
  filter: MergedFilter;
  /** The mapping that put the filter in the chain (its first match). */
  mapping: MergedFilterMapping;
  /** What matched: the url-pattern (as Tomcat read it) or the servlet name, and where it is written. */
  matchedBy: { kind: 'url-pattern' | 'servlet-name'; value: string; span: Span };
}

export interface EffectiveChain {
  /** The servlet at the end of the chain; null when none matches (Tomcat then answers 404 and runs no filter). */
  servlet: ServletMatch | null;
  entries: ChainEntry[];
}

function add(
  entries: ChainEntry[],
  app: MergedWebApp,
  mapping: MergedFilterMapping,
  kind: 'url-pattern' | 'servlet-name',
  value: string,
  span: Span,
): void {
  const filter = app.filters.get(mapping.filterName);
  if (!filter) return;
  // A filter mapped more than once runs once, at its first place (ApplicationFilterChain.addFilter).
  for (const e of entries) if (e.filter === filter) return;
  entries.push({ filter, mapping, matchedBy: { kind, value, span } });
}

function servletNameSpan(m: MergedFilterMapping, name: string): Span {
  return (m.mapping.servletNames.find((s) => s.value === name) ?? m.mapping).span;
}

/**
 * The chain for a context-relative, decoded path and a dispatcher type: every
 * mapping whose url-pattern matches (in mapping order), then every mapping
 * whose servlet-name matches the selected servlet, "*" included (in mapping
 * order); a mapping applies only to its dispatchers (REQUEST when none is
 * listed). url-patterns are matched against the path Tomcat mapped, which is
 * the welcome resource for a path ending in "/" (see resolveServlet; `exists`
 * tells which welcome files exist).
 */
export function effectiveChain(
  app: MergedWebApp,
  path: string,
  dispatcher: Dispatcher = 'REQUEST',
  exists?: FileExists,
): EffectiveChain {
  const servlet = resolveServlet(app, path, exists);
  const entries: ChainEntry[] = [];
  if (!servlet) return { servlet, entries };
  const bit = dispatcherBit(dispatcher);
  const requestPath = servlet.requestPath;
  for (const m of app.filterMappings) {
    if ((m.dispatcherMask & bit) === 0) continue;
    for (const p of m.urlPatterns) {
      if (matchesFilterPattern(p, requestPath)) {
        add(entries, app, m, 'url-pattern', p.pattern, p.source.span);
        break;
      }
    }
  }
  const name = servlet.servletName;
  for (const m of app.filterMappings) {
    if ((m.dispatcherMask & bit) === 0) continue;
    if (m.allServlets) add(entries, app, m, 'servlet-name', '*', servletNameSpan(m, '*'));
    else if (m.servletNames.includes(name)) add(entries, app, m, 'servlet-name', name, servletNameSpan(m, name));
  }
  return { servlet, entries };
}
