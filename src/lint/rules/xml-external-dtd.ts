import type { Rule } from '../types.js';

/** Reported by the parser, which never opens the DTD; this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'xml-external-dtd', description: 'The DOCTYPE names an external DTD that Tomcat refuses to read: the application does not start.', defaultSeverity: 'error', category: 'correctness', securitySeverity: 5.3 },
};
