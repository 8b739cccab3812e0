import type { Rule } from '../types.js';
import { effectiveParamSets, filterSpan, paramOf } from './util.js';

export const rule: Rule = {
  meta: {
    id: 'cors-no-allowed-origins',
    description: 'CorsFilter without cors.allowed.origins refuses every cross-origin request.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason: 'Tomcat starts with an empty origin list and answers every cross-origin request with 403.',
    category: 'correctness',
  },
  visit: (ctx) => ({
    kinds: ['cors'],
    filter(f) {
      const p = paramOf(f.def, 'cors.allowed.origins');
      if (p && p.value.value.trim() !== '') return;
      // A definition overriding a same-named filter of conf/web.xml inherits the origins it does not set.
      if (
        !p &&
        effectiveParamSets(ctx, f.def).every(
          (params) => (params.find((x) => x.name.value === 'cors.allowed.origins')?.value.value.trim() ?? '') !== '',
        )
      )
        return;
      ctx.report({
        message:
          'CorsFilter has no cors.allowed.origins: since the CVE-2018-8014 fix the default is an empty list, so Tomcat answers every cross-origin request with 403. Configurations written for the old default "*" silently stopped working. List the allowed origins.',
        span: p ? p.value.span : filterSpan(f.def),
      });
    },
  }),
};
