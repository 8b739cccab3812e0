import { z } from 'zod';
import { javaBoolean, commaList, numericText } from './values.js';
import { defineFilter, param } from './define.js';

const DEFAULT_HEADERS = ['Origin', 'Accept', 'X-Requested-With', 'Content-Type', 'Access-Control-Request-Method', 'Access-Control-Request-Headers'];

export const spec = defineFilter({
  id: 'cors',
  simpleName: 'CorsFilter',
  description: 'Cross-origin resource sharing: classifies requests, answers pre-flights and adds Access-Control-* headers.',
  configProblemsAreFatal: true,
  unknownParams: 'ignored',
  params: {
    'cors.allowed.origins': param(
      'list',
      z
        .union([z.array(z.string()), z.string()])
        .transform((v) => (Array.isArray(v) ? v.join(',') : v))
        .default('')
        .meta({ description: 'Allowed origins: "*" for any, or a comma-separated list (or JSON array) of origins (scheme://host[:port]). Empty: none.', default: '' }),
      { default: '', examples: ['https://app.example.com,https://admin.example.com', '*'] },
    ),
    'cors.allowed.methods': param('list', commaList(['GET', 'POST', 'HEAD', 'OPTIONS'], 'HTTP methods allowed cross-origin, also sent in Access-Control-Allow-Methods of pre-flight responses.')),
    'cors.allowed.headers': param('list', commaList(DEFAULT_HEADERS, 'Request headers allowed on the actual request, also sent in Access-Control-Allow-Headers. "*" is NOT a wildcard here.')),
    'cors.exposed.headers': param('list', commaList([], 'Non-simple response headers the browser may read (Access-Control-Expose-Headers).')),
    'cors.preflight.maxage': param('integer', numericText('1800', 'Seconds a browser may cache the pre-flight result (Access-Control-Max-Age); negative suppresses the header.'), { default: '1800' }),
    'cors.support.credentials': param('boolean', javaBoolean(false, 'Whether credentials (cookies, HTTP auth) are supported: Access-Control-Allow-Credentials.')),
    'cors.request.decorate': param('boolean', javaBoolean(true, 'Whether cors.* request attributes are set for the application.')),
  },
  toConfig: (v, raw, ctx) => {
    const origins = v['cors.allowed.origins'];
    const anyOrigin = origins.trim() === '*';
    const maxAgeText = v['cors.preflight.maxage'].trim();
    let preflightMaxAge = 0;
    if (maxAgeText !== '') {
      if (!/^[+-]?\d+$/.test(maxAgeText) || !Number.isSafeInteger(Number(maxAgeText))) {
        ctx.addIssue({ code: 'custom', path: ['cors.preflight.maxage'], message: `"${maxAgeText}" is not a whole number of seconds: Tomcat refuses to start the filter ("invalid pre-flight max age")` });
      } else preflightMaxAge = Number(maxAgeText);
    }
    if (anyOrigin && v['cors.support.credentials']) {
      ctx.addIssue({ code: 'custom', path: ['cors.support.credentials'], message: 'cors.support.credentials=true with cors.allowed.origins="*": Tomcat refuses to start the filter (any site could make credentialed requests). List the trusted origins instead.', params: { ruleId: 'cors-credentials-with-any-origin' } } as never);
    }
    void raw;
    return {
      anyOrigin,
      allowedOrigins: anyOrigin ? [] : origins.split(',').map((s) => s.trim()).filter((s) => s !== ''),
      allowedMethods: v['cors.allowed.methods'],
      allowedHeaders: v['cors.allowed.headers'].map((h) => h.toLowerCase()),
      exposedHeaders: v['cors.exposed.headers'],
      supportsCredentials: v['cors.support.credentials'],
      preflightMaxAge,
      decorateRequest: v['cors.request.decorate'],
    };
  },
});
export type CorsConfig = ReturnType<typeof spec.schema.parse>;
