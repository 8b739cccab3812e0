import type { Rule } from '../types.js';
import { filterSpan } from './util.js';

export const rule: Rule = {
  meta: {
    id: 'rest-csrf-no-fetch-path',
    description: 'RestCsrfPreventionFilter is mapped only where clients cannot fetch a nonce.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason: 'Tomcat starts and no client can fetch a nonce: modifying requests the filter sees are refused.',
    category: 'correctness',
  },
  visit: (ctx) => ({
    kinds: ['rest-csrf-prevention'],
    filter(f) {
      const name = f.def.name.value;
      const uses = ctx.usesOf(f);
      if (uses.length === 0) return; // filter-never-mapped says so
      // A nonce is fetched with a non-modifying request ("X-CSRF-Token: Fetch") that the filter sees:
      // a mapping that applies to REQUEST dispatches of some URL. Only ERROR/FORWARD/INCLUDE mappings leave none.
      // dispatcherMask is dispatcherBits of the mapping's <dispatcher> texts, computed by the merge.
      const fetchable = uses.some(
        ({ mapping: m }) =>
          (m.dispatcherMask & 1) !== 0 && (m.mapping.urlPatterns.length > 0 || m.mapping.servletNames.length > 0),
      );
      if (!fetchable) {
        ctx.report({
          message: `RestCsrfPreventionFilter "${name}" never sees a plain request, so no client can fetch a nonce with "X-CSRF-Token: Fetch" and every modifying request is refused. Map it (with dispatcher REQUEST) to the protected API, including at least one GET URL.`,
          span: filterSpan(f.def),
        });
      }
    },
  }),
};
