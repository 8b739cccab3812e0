import { commaList, javaBoolean, javaInt, statusCode, text } from './values.js';
import { defineFilter, param } from './define.js';

export const spec = defineFilter({
  id: 'csrf-prevention',
  simpleName: 'CsrfPreventionFilter',
  description: 'Form CSRF protection: a nonce in the session that every URL sent to the client must carry.',
  configProblemsAreFatal: true,
  params: {
    denyStatus: param('status', statusCode(403, 'Status sent when a request has no valid nonce.')),
    entryPoints: param('list', commaList([], 'URLs (GET only) not checked for a nonce, to enter the application.')),
    nonceCacheSize: param('integer', javaInt(5, 'How many recent nonces are accepted (LRU), for parallel requests and back navigation.', { min: 1 })),
    nonceRequestParameterName: param('string', text('org.apache.catalina.filters.CSRF_NONCE', 'Name of the request parameter carrying the nonce.')),
    randomClass: param('string', text('java.security.SecureRandom', 'Class generating nonces; must be a java.util.Random. Anything but SecureRandom is predictable.')),
    enforce: param('boolean', javaBoolean(true, 'When false, requests without a valid nonce are logged but let through.')),
    noNonceURLPatterns: param('list', commaList(['*.css', '*.js', '*.gif', '*.png', '*.jpg', '*.svg', '*.ico', '*.jpeg', '*.mjs'], 'URL patterns whose URLs get no nonce added (static resources); "/path", "*.ext" or "/regex/".')),
  },
  toConfig: (v) => ({
    denyStatus: v.denyStatus,
    entryPoints: v.entryPoints,
    nonceCacheSize: v.nonceCacheSize,
    nonceRequestParameterName: v.nonceRequestParameterName,
    randomClass: v.randomClass,
    enforce: v.enforce,
    noNonceUrlPatterns: v.noNonceURLPatterns,
  }),
});
export type CsrfPreventionConfig = ReturnType<typeof spec.schema.parse>;
