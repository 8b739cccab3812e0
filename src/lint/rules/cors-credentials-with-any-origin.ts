import type { Rule } from '../types.js';

/** Reported by the CorsFilter schema (src/filters/cors.ts), where the two parameters are read together. */
export const rule: Rule = {
  meta: {
    id: 'cors-credentials-with-any-origin',
    description: 'cors.support.credentials=true with cors.allowed.origins="*": Tomcat refuses to start the filter.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      'CorsFilter\'s init throws ("It is not allowed to configure supportsCredentials=[true] when allowedOrigins=[*]") and the context does not start.',
    category: 'security',
    securitySeverity: 8.0,
  },
};
