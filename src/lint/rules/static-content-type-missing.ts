import { entriesInScope, scopeOf } from '../../parser/files.js';
import { fileStartSpan, type FileScope } from '../../model/index.js';
import type { MergedWebApp } from '../../chain/index.js';
import { TOMCAT_MIME_TYPES } from '../../protocol/mime-table.js';
import type { Rule } from '../types.js';
import { DEFAULT_SERVLET_CLASSES, javaBoolean, rootSpan } from './webapp.js';

const HEADER_SECURITY = 'org.apache.catalina.filters.HttpHeaderSecurityFilter';

/**
 * The types a browser cannot do without under nosniff (Fetch's nosniff check and navigation): a page
 * with no type is shown as text, a script or style sheet with none is blocked. The rule names the
 * extensions Tomcat's stock table gives one of these types; a file of any other extension (an .xsd,
 * a .war) goes out untyped too, but is a download either way.
 */
const BROWSER_TYPES: ReadonlySet<string> = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/css',
  'text/javascript',
  'application/javascript',
  'application/ecmascript',
]);

/** How many entries of one application are looked at, at most: an application of more files is judged on these. */
const MAX_ENTRIES = 20_000;
/** How deep folders are followed. */
const MAX_DEPTH = 32;
/** How many extensions a finding names. */
const NAMED = 12;

/** The name of the first mapped HttpHeaderSecurityFilter that sends `X-Content-Type-Options: nosniff`, if any. */
function nosniffFilter(m: MergedWebApp): string | null {
  for (const f of m.filters.values()) {
    if (f.className?.value !== HEADER_SECURITY) continue;
    // blockContentTypeSniffingEnabled: true by default, Boolean.parseBoolean otherwise.
    const p = f.initParams.find((x) => x.name.value === 'blockContentTypeSniffingEnabled');
    if (p !== undefined && !javaBoolean(p.value.value.trim())) continue;
    if (m.filterMappings.some((fm) => fm.filterName === f.name)) return f.name;
  }
  return null;
}

/** Whether Tomcat's DefaultServlet (or WebdavServlet) serves the application's files at "/". */
function servesStatic(m: MergedWebApp): boolean {
  const mapping = m.servletMappings.get('/');
  if (mapping === undefined) return false;
  const cls = m.servlets.get(mapping.servletName)?.className?.value;
  return cls !== undefined && DEFAULT_SERVLET_CLASSES.has(cls);
}

/**
 * The extensions (lower case) of the files the default servlet would serve that have no MIME type,
 * with how many files have each; WEB-INF and META-INF are never served.
 */
function untypedExtensions(
  docBase: string,
  scope: FileScope,
  types: ReadonlyMap<string, string>,
  extensionServlets: ReadonlySet<string>,
): Map<string, number> {
  const found = new Map<string, number>();
  let seen = 0;
  const visit = (dir: string, depth: number): void => {
    for (const e of entriesInScope(dir, scope)) {
      if (++seen > MAX_ENTRIES) return;
      if (depth === 0 && /^(WEB-INF|META-INF)$/i.test(e.name)) continue;
      if (e.isDirectory()) {
        if (depth < MAX_DEPTH) visit(`${dir}/${e.name}`, depth + 1);
        continue;
      }
      if (!e.isFile()) continue;
      // ServletContext.getMimeType: the text after the last '.', looked up lower case; no '.' gives none.
      const dot = e.name.lastIndexOf('.');
      if (dot < 0) continue;
      const ext = e.name.slice(dot + 1).toLowerCase();
      // A file an extension mapping sends to another servlet (*.jsp) is not the default servlet's.
      if (types.has(ext) || extensionServlets.has(e.name.slice(dot + 1))) continue;
      if (!BROWSER_TYPES.has(TOMCAT_MIME_TYPES.get(ext) ?? '')) continue;
      found.set(ext, (found.get(ext) ?? 0) + 1);
    }
  };
  visit(docBase, 0);
  return found;
}

export const rule: Rule = {
  meta: {
    id: 'static-content-type-missing',
    description:
      'An application serves pages, scripts or style sheets whose extensions have no mime-mapping in conf/web.xml or its web.xml, while HttpHeaderSecurityFilter sends X-Content-Type-Options: nosniff.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason:
      'Tomcat sends those files without a Content-Type (its MIME table comes from conf/web.xml only) and with nosniff, so browsers do not guess one: an HTML page shows as text, a script or style sheet is blocked.',
    category: 'correctness',
  },
  visit: (ctx) => {
    let scope: FileScope | null = null;
    return {
      context(c) {
        const m = c.merged;
        const docBase = c.context.docBase;
        // A packed WAR is not read (war-not-read says so); its files are unknown.
        if (docBase.toLowerCase().endsWith('.war') || !servesStatic(m)) return;
        const filter = nosniffFilter(m);
        if (filter === null) return;
        scope ??= scopeOf(ctx.base);
        const extensionServlets = new Set(
          [...m.servletMappings.keys()].filter((p) => p.startsWith('*.')).map((p) => p.slice(2)),
        );
        const missing = untypedExtensions(docBase, scope, m.mimeMappings, extensionServlets);
        if (missing.size === 0) return;
        const list = [...missing.keys()].sort();
        const named = list
          .slice(0, NAMED)
          .map((e) => `.${e} (${missing.get(e)} file${missing.get(e) === 1 ? '' : 's'})`)
          .join(', ');
        const more = list.length > NAMED ? ` and ${list.length - NAMED} more` : '';
        const where = c.context.webXml ?? ctx.base.globalWebXml;
        const app = c.context.path === '' ? '/ (ROOT)' : c.context.path;
        ctx.report({
          message: `The application ${app} has pages, scripts or style sheets with no MIME type in conf/web.xml or its web.xml: ${named}${more}. Tomcat sends them without Content-Type while HttpHeaderSecurityFilter "${filter}" sends X-Content-Type-Options: nosniff, so browsers do not guess the type (an HTML page shows as text, a script or style sheet is blocked). Add <mime-mapping> entries, e.g. Tomcat's stock table in conf/web.xml.`,
          span: where ? rootSpan(where) : fileStartSpan(docBase),
        });
      },
    };
  },
};
