import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: { id: 'file-unreadable', description: 'A configuration file exists but cannot be read.', defaultSeverity: 'error', effect: 'refuses', reason: 'The file cannot be read; Tomcat cannot read it either and refuses what depends on it.', category: 'correctness' },
};
