import type * as z from 'zod';
import { classNameParam } from './class-name.js';
import { javaBoolean, javaInt, optionalText, statusCode, text } from './values.js';
import { defineFilter, param } from './define.js';

const FAST = 'org.apache.catalina.util.FastRateLimiter';
const EXACT = 'org.apache.catalina.util.ExactRateLimiter';

export const spec = defineFilter({
  id: 'rate-limit',
  simpleName: 'RateLimitFilter',
  description:
    'Limits requests per client IP address in fixed time windows; over the limit it answers statusCode (429).',
  configProblemsAreFatal: true,
  names: 'bean',
  versionNotes: ['added in 9.0.76 and 10.1.9'],
  params: {
    bucketDuration: param(
      'integer',
      javaInt(60, 'Length of a window in seconds (FastRateLimiter rounds it up to a power of two milliseconds).', {
        min: {
          value: 1,
          message:
            'a bucket duration of {n} seconds: the setter throws ("Invalid bucket duration"), it must be at least 1',
        },
        examples: ['60'],
      }),
    ),
    bucketRequests: param(
      'integer',
      javaInt(300, 'Requests allowed per address and window.', {
        min: {
          value: 1,
          message: '{n} requests per bucket: the setter throws ("Invalid numbers of requests"), it must be at least 1',
        },
        examples: ['300'],
      }),
    ),
    enforce: param('boolean', javaBoolean(true, 'When false, requests over the limit are only logged.')),
    statusCode: param('status', statusCode(429, 'Status sent when the limit is exceeded.')),
    statusMessage: param('string', text('Too many requests', 'Reason phrase sent with statusCode.')),
    exposeHeaders: param('boolean', javaBoolean(false, 'Send the RateLimit-Policy and RateLimit response headers.'), {
      versionNotes: ['added in 9.0.98, 10.1.34 and 11.0.2'],
    }),
    policyName: param(
      'string',
      optionalText('Policy name in the RateLimit-Policy header (trimmed; default: fast-<n> or exact-<n>).'),
      { versionNotes: ['added in 9.0.98, 10.1.34 and 11.0.2'] },
    ),
    rateLimitClassName: param(
      'class-name',
      classNameParam(
        FAST,
        'Implementation of the window: FastRateLimiter (power-of-two windows, cheap) or ExactRateLimiter.',
        {
          accepted: [FAST, EXACT],
          what: 'an org.apache.catalina.util.RateLimiter',
          runtimeNote:
            "tollgate's runtime implements only FastRateLimiter and ExactRateLimiter and uses FastRateLimiter's windows for any other class.",
        },
      ),
    ),
  },
  toConfig: (v) => {
    const policy = v.policyName?.trim();
    return {
      bucketDuration: v.bucketDuration,
      bucketRequests: v.bucketRequests,
      enforce: v.enforce,
      statusCode: v.statusCode,
      statusMessage: v.statusMessage,
      exposeHeaders: v.exposeHeaders,
      /** null: the limiter's generated name (fast-1, exact-1, ...). */
      policyName: policy ? policy : null,
      rateLimitClassName: v.rateLimitClassName,
      /** Which window arithmetic the runtime uses. */
      limiter: v.rateLimitClassName === EXACT ? ('exact' as const) : ('fast' as const),
    };
  },
});
export type RateLimitConfig = z.output<typeof spec.schema>;
