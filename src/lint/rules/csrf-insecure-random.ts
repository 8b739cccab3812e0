import type { Rule } from '../types.js';
import { filtersOf, paramOf } from './util.js';

export const rule: Rule = {
  meta: { id: 'csrf-insecure-random', description: 'CSRF nonces from a predictable random generator.', defaultSeverity: 'warning', category: 'security', securitySeverity: 6.0 },
  check(ctx) {
    for (const f of [...filtersOf(ctx, 'csrf-prevention'), ...filtersOf(ctx, 'rest-csrf-prevention')]) {
      const p = paramOf(f.def, 'randomClass');
      if (p && p.value.value.trim() !== 'java.security.SecureRandom') {
        ctx.report({ message: `randomClass=${p.value.value.trim()}: nonces from anything but java.security.SecureRandom can be predicted, which defeats CSRF protection. Remove the parameter (tollgate's runtime always uses the platform's secure generator).`, span: p.value.span });
      }
    }
  },
};
