import type * as z from 'zod';
import { commaList, statusCode } from './values.js';
import { defineFilter, param } from './define.js';
import { randomClassParam } from './csrf-prevention.js';

export const spec = defineFilter({
  id: 'rest-csrf-prevention',
  simpleName: 'RestCsrfPreventionFilter',
  description:
    'REST CSRF protection: modifying requests (not GET, HEAD, OPTIONS) must send the session nonce, fetched with "X-CSRF-Token: Fetch", in the X-CSRF-Token header.',
  configProblemsAreFatal: true,
  names: 'bean',
  params: {
    denyStatus: param(
      'status',
      statusCode(403, 'Status sent (with X-CSRF-Token: Required) when a modifying request has no valid nonce.'),
    ),
    pathsAcceptingParams: param(
      'list',
      commaList(
        [],
        'Paths that also accept the nonce as the X-CSRF-Token request parameter (for clients that cannot set headers).',
        { examples: ['/upload,/legacy/form'] },
      ),
    ),
    randomClass: randomClassParam(),
  },
  toConfig: (v) => ({
    denyStatus: v.denyStatus,
    pathsAcceptingParams: v.pathsAcceptingParams,
    randomClass: v.randomClass,
  }),
});
export type RestCsrfPreventionConfig = z.output<typeof spec.schema>;
