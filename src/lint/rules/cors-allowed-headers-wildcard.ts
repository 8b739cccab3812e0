import type { Rule } from '../types.js';
import { paramOf } from './util.js';

const LISTS = ['cors.allowed.headers', 'cors.allowed.methods', 'cors.exposed.headers'];

/** What the literal "*" does in each list. */
const CONSEQUENCE: Record<string, string> = {
  'cors.allowed.headers':
    ', so every pre-flight that announces a request header (e.g. Content-Type) is refused with 403',
  'cors.allowed.methods': ', so no method is allowed and every cross-origin request is refused with 403',
  'cors.exposed.headers':
    ' and sent as "Access-Control-Expose-Headers: *", which browsers read as a wildcard only for requests without credentials',
};

export const rule: Rule = {
  meta: {
    id: 'cors-allowed-headers-wildcard',
    description: '"*" in cors.allowed.headers is taken literally by Tomcat, not as a wildcard.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      'Tomcat compares "*" literally: every pre-flight that announces a request header (or, in cors.allowed.methods, every cross-origin request) is refused with 403.',
    variants: [
      {
        severity: 'warning',
        effect: 'ignores',
        when: 'in cors.exposed.headers, which Tomcat sends as written and browsers read as a wildcard only without credentials',
      },
    ],
    category: 'correctness',
  },
  visit: (ctx) => ({
    kinds: ['cors'],
    filter(f) {
      for (const name of LISTS) {
        const p = paramOf(f.def, name);
        // An entry that trims to "*" needs a "*" in the value: most values have none and are not split.
        if (!p || !p.value.value.includes('*') || !p.value.value.split(',').some((s) => s.trim() === '*')) continue;
        ctx.report({
          severity: name === 'cors.exposed.headers' ? 'warning' : 'error',
          message: `${name}="*" is not a wildcard for Tomcat's CorsFilter (it is Jetty's CrossOriginFilter syntax): the value is taken literally${CONSEQUENCE[name]}. List the names.`,
          span: p.value.span,
        });
      }
    },
  }),
};
