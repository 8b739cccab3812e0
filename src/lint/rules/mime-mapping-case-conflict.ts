import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'mime-mapping-case-conflict',
    description: 'Two mime-mapping extensions differ only in case.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: 'Tomcat keeps one of the two mappings by hash order and ignores the other.',
    category: 'correctness',
  },
};
