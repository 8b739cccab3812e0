import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'users-missing-attribute',
    description: 'A tomcat-users.xml user has no username.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: 'Tomcat ignores a <user> without a username.',
    category: 'correctness',
  },
};
