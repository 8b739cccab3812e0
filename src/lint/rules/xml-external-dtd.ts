import type { Rule } from '../types.js';

/** Reported by the parser, which never opens the DTD; this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'xml-external-dtd',
    description: 'The DOCTYPE names an external DTD that Tomcat refuses to read: the application does not start.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      'Tomcat blocks DTDs it does not keep locally (xmlBlockExternal): "Could not resolve XML resource ... to a known, local entity" and the context does not start.',
    category: 'correctness',
    securitySeverity: 5.3,
  },
};
