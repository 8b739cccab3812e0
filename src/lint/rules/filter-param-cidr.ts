import type { Rule } from '../types.js';

/** Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs. */
export const rule: Rule = {
  meta: {
    id: 'filter-param-cidr',
    description: 'A RemoteCIDRFilter entry that is not a valid address or mask.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason: "NetMask refuses the entry and RemoteCIDRFilter's init fails, so the context does not start.",
    variants: [
      {
        severity: 'error',
        effect: 'misbehaves',
        when: 'an entry Java reads as another address (10.1.2/24 is 10.1.0.2/24, an empty entry is 127.0.0.1): the filter starts and matches other clients',
      },
      {
        severity: 'warning',
        effect: 'ignores',
        when: 'a host name, which Tomcat resolves in DNS at start-up and tollgate does not',
      },
    ],
    category: 'correctness',
  },
};
