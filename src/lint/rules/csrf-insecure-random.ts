import type { Rule } from '../types.js';
import { paramOf } from './util.js';

/** java.util.Random and the JDK's subclasses of it that are not SecureRandom: a linear congruential generator, predictable from its output. */
const INSECURE = new Set(['java.util.Random', 'java.util.concurrent.ThreadLocalRandom']);

export const rule: Rule = {
  meta: {
    id: 'csrf-insecure-random',
    description: 'CSRF nonces from a predictable random generator.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      'Tomcat starts and draws nonces from java.util.Random, whose output can be predicted: the CSRF protection can be bypassed.',
    variants: [
      {
        severity: 'warning',
        effect: 'weakens',
        when: 'a class tollgate cannot judge (not java.util.Random): check that it is a secure generator',
      },
    ],
    category: 'security',
    securitySeverity: 6.0,
  },
  visit: (ctx) => ({
    kinds: ['csrf-prevention', 'rest-csrf-prevention'],
    filter(f) {
      const p = paramOf(f.def, 'randomClass');
      const cls = p?.value.value.trim();
      if (!p || cls === 'java.security.SecureRandom') return;
      if (cls !== undefined && INSECURE.has(cls)) {
        ctx.report({
          message: `randomClass=${cls}: Tomcat starts and draws every nonce from ${cls}, whose next outputs can be computed from a few earlier ones, so an attacker can forge a valid nonce and CSRF protection is defeated. Remove the parameter (Tomcat then uses java.security.SecureRandom; tollgate's runtime always uses the platform's secure generator).`,
          span: p.value.span,
        });
        return;
      }
      ctx.report({
        severity: 'warning',
        message: `randomClass=${cls}: nonces must come from a cryptographically secure generator, and tollgate cannot tell whether this class is one. Remove the parameter unless it is (Tomcat's default is java.security.SecureRandom).`,
        span: p.value.span,
      });
    },
  }),
};
