import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'xml-entity-expansion', description: 'The file declares or uses DOCTYPE entities, which tollgate never expands.', defaultSeverity: 'error', category: 'security', securitySeverity: 5.0 },
};
