import { javaBoolean, javaInt, optionalText, statusCode, text } from './values.js';
import { defineFilter, param } from './define.js';

export const spec = defineFilter({
  id: 'rate-limit',
  simpleName: 'RateLimitFilter',
  description: 'Limits requests per client IP address in fixed time windows.',
  configProblemsAreFatal: true,
  params: {
    bucketDuration: param('integer', javaInt(60, 'Length of a window in seconds.', { min: 1 })),
    bucketRequests: param('integer', javaInt(300, 'Requests allowed per address and window.', { min: 1 })),
    enforce: param('boolean', javaBoolean(true, 'When false, requests over the limit are only logged.')),
    statusCode: param('status', statusCode(429, 'Status sent when the limit is exceeded.')),
    statusMessage: param('string', text('Too many requests', 'Reason phrase sent with statusCode.')),
    exposeHeaders: param('boolean', javaBoolean(false, 'Send the RateLimit-Policy and RateLimit headers.')),
    policyName: param('string', optionalText('Policy name in the RateLimit-Policy header (default: fixed-<duration>).')),
    rateLimitClassName: param('string', text('org.apache.catalina.util.FastRateLimiter', 'Implementation of the window (FastRateLimiter rounds the duration to a power of two).')),
  },
  toConfig: (v) => ({
    bucketDuration: v.bucketDuration,
    bucketRequests: v.bucketRequests,
    enforce: v.enforce,
    statusCode: v.statusCode,
    statusMessage: v.statusMessage,
    exposeHeaders: v.exposeHeaders,
    policyName: v.policyName,
    rateLimitClassName: v.rateLimitClassName,
  }),
});
export type RateLimitConfig = ReturnType<typeof spec.schema.parse>;
