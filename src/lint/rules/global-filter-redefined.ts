import type { FilterDef, FilterMapping, WebXml } from '../../model/index.js';
import type { Rule } from '../types.js';

const where = (m: FilterMapping): string =>
  [...m.urlPatterns, ...m.servletNames].map((v) => v.value).join(', ') || '(nothing)';
const list = (ms: readonly FilterMapping[]): string => ms.map(where).join('; ');

export const rule: Rule = {
  meta: {
    id: 'global-filter-redefined',
    description:
      'An application defines a filter of another class under a name conf/web.xml or web.xml.default already uses: Tomcat merges the two instead of running both.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason:
      "Tomcat merges the application's definition with the global one of the same name: the global filter does not run for that application.",
    category: 'correctness',
  },
  visit: (ctx) => ({
    context(c) {
      const defaults: [string, WebXml][] = [];
      if (ctx.base.globalWebXml) defaults.push(['conf/web.xml', ctx.base.globalWebXml]);
      if (c.host.webXmlDefault) defaults.push([`${c.host.name}'s web.xml.default`, c.host.webXmlDefault]);
      if (defaults.length === 0) return;
      for (const m of c.merged.filters.values()) {
        if (m.origin !== 'app' && m.origin !== 'tomcat-web') continue;
        for (const [label, webXml] of defaults) {
          const g: FilterDef | undefined = webXml.filters.find((f) => f.name.value === m.name);
          if (!g) continue;
          const own = m.def;
          // Redefining a global filter with its own class (or none, inheriting it) is how one application
          // changes the global filter's settings, and header-filter-overridden recommends it: only another
          // class is a different filter that happens to share the name.
          if (!own.className || !g.className || own.className.value === g.className.value) continue;
          const gClass = g.className.value;
          const parts: string[] = [`Its class ${own.className.value} replaces ${gClass} for this application.`];
          const inherited = m.initParams.filter((p) => !own.initParams.includes(p)).map((p) => p.name.value);
          if (inherited.length > 0)
            parts.push(
              `It also runs with the init-params it does not set itself: ${inherited.join(', ')} (observed: Tomcat 10.1 logs "The property [...] is not defined" when they do not fit the class).`,
            );
          const globalMappings = webXml.filterMappings.filter((fm) => fm.filterName.value === m.name);
          const mapsItself = c.merged.filterMappings.some(
            (fm) => fm.filterName === m.name && (fm.origin === 'app' || fm.origin === 'tomcat-web'),
          );
          if (globalMappings.length > 0) {
            parts.push(
              mapsItself
                ? `Because the application maps the name itself, ${label}'s mappings of it (${list(globalMappings)}) are dropped for this application: the global filter no longer runs there.`
                : `${label}'s mappings of it (${list(globalMappings)}) now apply this definition.`,
            );
          }
          ctx.report({
            message: `Filter "${m.name}" is also defined in ${label}: Tomcat merges the two definitions for this application instead of running both. ${parts.join(' ')} Give this filter a name of its own to run it beside the global one.`,
            span: own.name.span,
            related: [{ message: `"${m.name}" is defined in ${label} here`, span: g.name.span }],
          });
        }
      }
    },
  }),
};
