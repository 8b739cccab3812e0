import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'filter-param-regex',
    description: 'A Java regex init-param that is invalid or cannot be translated exactly.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason: "Pattern.compile refuses the regex and the filter's init fails, so the context does not start.",
    variants: [
      { severity: 'warning', effect: 'tollgate', when: 'a pattern Tomcat accepts that tollgate cannot run exactly' },
    ],
    category: 'correctness',
  },
};
