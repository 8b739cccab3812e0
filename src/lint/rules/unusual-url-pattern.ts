import { unusualUrlPattern } from '../../chain/index.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'unusual-url-pattern',
    description: 'A url-pattern Tomcat accepts but that rarely means what it looks like, or that only Tomcat accepts.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: 'Tomcat accepts the pattern but it matches other paths than it seems to (or only Tomcat accepts it).',
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
          if (why) ctx.report({ message: why + '.', span: u.span });
        }
      }
    },
  }),
};
