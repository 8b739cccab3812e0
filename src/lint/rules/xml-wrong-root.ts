import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'xml-wrong-root',
    description: 'The root element is not the one this file must have (web-app, Server, Context, tomcat-users).',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      "Tomcat finds no <web-app> rules to apply: the context starts without any of the file's filters and mappings.",
    category: 'correctness',
  },
};
