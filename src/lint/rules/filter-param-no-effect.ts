import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'filter-param-no-effect',
    description: 'An init-param value Tomcat accepts but that cannot do what it says.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      'Tomcat starts and the entry never matches (an origin with a path or upper case, a lower-case method, a CIDR with a port): the requests it was written for are refused or unprotected.',
    variants: [
      {
        severity: 'warning',
        effect: 'ignores',
        when: 'a parameter that only another setting uses (antiClickJackingUri without ALLOW-FROM)',
      },
    ],
    category: 'correctness',
    fixable: true,
  },
};
