import type { Rule } from '../types.js';
import { paramOf } from './util.js';

export const rule: Rule = {
  meta: { id: 'csrf-insecure-random', description: 'CSRF nonces from a predictable random generator.', defaultSeverity: 'warning', category: 'security', securitySeverity: 6.0 },
  visit: (ctx) => ({
    kinds: ['csrf-prevention', 'rest-csrf-prevention'],
    filter(f) {
      const p = paramOf(f.def, 'randomClass');
      if (p && p.value.value.trim() !== 'java.security.SecureRandom') {
        ctx.report({ message: `randomClass=${p.value.value.trim()}: nonces from anything but java.security.SecureRandom can be predicted, which defeats CSRF protection. Remove the parameter (tollgate's runtime always uses the platform's secure generator).`, span: p.value.span });
      }
    },
  }),
};
