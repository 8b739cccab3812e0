import { unusualUrlPattern } from '../../chain/index.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'unusual-url-pattern',
    description: 'A url-pattern Tomcat accepts but that rarely means what it looks like, or that only Tomcat accepts.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: 'Tomcat accepts the pattern but it matches other paths than it seems to (or only Tomcat accepts it).',
    variants: [
      {
        severity: 'error',
        effect: 'misbehaves',
        when: 'a filter mapping whose pattern is an exact path ending in "*" ("/admin*") or an extension that never matches ("*.tar.gz"): the filter never runs on the area it was written to guard',
      },
    ],
    category: 'correctness',
  },
  visit: (ctx) => ({
    descriptor({ webXml }) {
      for (const m of webXml.filterMappings) {
        for (const u of m.urlPatterns) {
          if (u.value === '*') {
            ctx.report({
              message:
                '"*" is not a Servlet url-pattern: Tomcat alone reads it as "every URL"; other containers reject it. Write "/*".',
              span: u.span,
            });
            continue;
          }
          const why = unusualUrlPattern(u.value);
          // Each of these patterns matches one literal path or none: the filter is missing from every request it was
          // meant for (Servlet 12.2; a request for /admin/x does not pass a filter mapped to "/admin*").
          if (why)
            ctx.report({
              severity: 'error',
              message: `${why}. The filter does not run for the requests this mapping was meant to cover.`,
              span: u.span,
            });
        }
      }
    },
  }),
};
