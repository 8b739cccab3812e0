import { defineFilter } from './define.js';
import { requestFilterParams } from './request-filter.js';

export const spec = defineFilter({
  id: 'remote-addr',
  simpleName: 'RemoteAddrFilter',
  description: 'Allows or denies requests by client IP address, with Java regexes matched against the whole address.',
  configProblemsAreFatal: true,
  params: requestFilterParams('client IP address'),
  toConfig: (v) => ({ allow: v.allow, deny: v.deny, denyStatus: v.denyStatus }),
});
export type RemoteAddrConfig = ReturnType<typeof spec.schema.parse>;
