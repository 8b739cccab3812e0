import { defineFilter } from './define.js';
import { requestFilterParams } from './request-filter.js';

export const spec = defineFilter({
  id: 'remote-host',
  simpleName: 'RemoteHostFilter',
  description: 'Allows or denies requests by client host name (the address unless the connector resolves names).',
  configProblemsAreFatal: true,
  params: requestFilterParams('client host name'),
  toConfig: (v) => ({ allow: v.allow, deny: v.deny, denyStatus: v.denyStatus }),
});
export type RemoteHostConfig = ReturnType<typeof spec.schema.parse>;
