import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'filter-param-unknown',
    description: 'An init-param name the filter does not have.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason:
      'FilterBase filters log "The property ... is not defined" and go on; CorsFilter and RemoteIpFilter ignore it silently.',
    variants: [
      {
        severity: 'error',
        effect: 'refuses',
        when: 'for filters whose config problems are fatal (CSRF, header security, address, rate limit): the context does not start',
      },
    ],
    category: 'correctness',
    fixable: true,
  },
};
