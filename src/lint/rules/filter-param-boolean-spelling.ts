import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'filter-param-boolean-spelling',
    description: 'A boolean init-param written as something other than true or false.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      'Boolean.parseBoolean reads "yes", "on", "1" as false: Tomcat starts with the switch the other way round from what it says.',
    variants: [
      {
        severity: 'warning',
        effect: 'ignores',
        when: 'a value that reads as false and does not look like yes ("", "maybe")',
      },
      { severity: 'info', effect: 'notes', when: '"no", "off", "0" or TRUE/False: Tomcat reads it as meant' },
    ],
    category: 'correctness',
    fixable: true,
  },
};
