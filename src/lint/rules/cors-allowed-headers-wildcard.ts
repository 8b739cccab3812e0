import type { Rule } from '../types.js';
import { paramOf } from './util.js';

const LISTS = ['cors.allowed.headers', 'cors.allowed.methods', 'cors.exposed.headers'];

export const rule: Rule = {
  meta: { id: 'cors-allowed-headers-wildcard', description: '"*" in cors.allowed.headers is taken literally by Tomcat, not as a wildcard.', defaultSeverity: 'error', category: 'correctness' },
  visit: (ctx) => ({
    kinds: ['cors'],
    filter(f) {
      for (const name of LISTS) {
        const p = paramOf(f.def, name);
        // An entry that trims to "*" needs a "*" in the value: most values have none and are not split.
        if (!p || !p.value.value.includes('*') || !p.value.value.split(',').some((s) => s.trim() === '*')) continue;
        ctx.report({
          severity: name === 'cors.allowed.headers' ? 'error' : 'warning',
          message: `${name}="*" is not a wildcard for Tomcat's CorsFilter (it is Jetty's CrossOriginFilter syntax): the value is taken literally${name === 'cors.allowed.headers' ? ', so every pre-flight that announces a request header (e.g. Content-Type) is refused with 403' : ''}. List the names.`,
          span: p.value.span,
        });
      }
    },
  }),
};
