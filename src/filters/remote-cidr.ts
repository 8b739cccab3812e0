import { cidrList } from './values.js';
import { defineFilter, param } from './define.js';

export const spec = defineFilter({
  id: 'remote-cidr',
  simpleName: 'RemoteCIDRFilter',
  description: 'Allows or denies requests by client IP address against CIDR masks (IPv4 and IPv6); allow is checked before deny.',
  configProblemsAreFatal: true,
  params: {
    allow: param('cidr-list', cidrList('Comma-separated masks or addresses; when set, the address must match one.')),
    deny: param('cidr-list', cidrList('Comma-separated masks or addresses; a matching address is rejected.')),
  },
  toConfig: (v) => ({ allow: v.allow, deny: v.deny, denyStatus: 403 }),
});
export type RemoteCidrConfig = ReturnType<typeof spec.schema.parse>;
