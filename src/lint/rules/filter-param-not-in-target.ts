import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'filter-param-not-in-target',
    description: 'An init-param that is gone, or means something else, in the target Tomcat version.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: 'The target version no longer reads the parameter: logged or silently ignored there.',
    variants: [
      {
        severity: 'error',
        effect: 'refuses',
        when: 'for a filter whose unknown parameters are fatal (the context does not start)',
      },
      { severity: 'info', effect: 'notes', when: 'deprecated: still read by the target, gone in a later version' },
    ],
    category: 'compatibility',
  },
};
