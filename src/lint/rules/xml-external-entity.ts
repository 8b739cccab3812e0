import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'xml-external-entity',
    description: 'The DOCTYPE declares an external entity.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      'Tomcat blocks external entities (xmlBlockExternal): a reference to one makes it refuse the file (observed).',
    variants: [
      {
        severity: 'warning',
        effect: 'ignores',
        when: 'declared but never referenced: Tomcat never reads it and starts (observed)',
      },
    ],
    category: 'security',
    securitySeverity: 7.5,
  },
};
