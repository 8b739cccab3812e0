import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'xml-entity-expansion',
    description: 'The file declares or uses DOCTYPE entities, which tollgate never expands.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      "Past the JDK's entity limits (or with an undefined or recursive entity) the parser refuses the file and the context does not start.",
    variants: [
      {
        severity: 'info',
        effect: 'notes',
        when: 'entities declared within the limits, which Tomcat expands as written',
      },
      { severity: 'warning', effect: 'ignores', when: 'a declared bomb nothing references: Tomcat starts' },
    ],
    category: 'security',
    securitySeverity: 5.0,
  },
};
