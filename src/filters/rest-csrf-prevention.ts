import { commaList, statusCode, text } from './values.js';
import { defineFilter, param } from './define.js';

export const spec = defineFilter({
  id: 'rest-csrf-prevention',
  simpleName: 'RestCsrfPreventionFilter',
  description: 'REST CSRF protection: modifying requests must send the session nonce fetched with "X-CSRF-Token: Fetch".',
  configProblemsAreFatal: true,
  params: {
    denyStatus: param('status', statusCode(403, 'Status sent (with X-CSRF-Token: Required) when a modifying request has no valid nonce.')),
    pathsAcceptingParams: param('list', commaList([], 'Paths that accept the nonce as the X-CSRF-Token request parameter (for clients that cannot set headers).')),
    randomClass: param('string', text('java.security.SecureRandom', 'Class generating nonces; must be a java.util.Random. Anything but SecureRandom is predictable.')),
  },
  toConfig: (v) => ({ denyStatus: v.denyStatus, pathsAcceptingParams: v.pathsAcceptingParams, randomClass: v.randomClass }),
});
export type RestCsrfPreventionConfig = ReturnType<typeof spec.schema.parse>;
