import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'server-xml-missing',
    description: 'The base has no conf/server.xml; Tomcat defaults are assumed.',
    defaultSeverity: 'info',
    effect: 'tollgate',
    reason: "tollgate assumes Tomcat's default server.xml (Tomcat itself needs one to start).",
    category: 'correctness',
  },
};
