import type * as z from 'zod';
import { defineFilter } from './define.js';
import { deniesEverything, requestFilterParams } from './request-filter.js';

export const spec = defineFilter({
  id: 'remote-addr',
  simpleName: 'RemoteAddrFilter',
  description:
    'Allows or denies requests by client IP address, with Java regexes matched against the whole address (IPv6 in the full form 0:0:0:0:0:0:0:1).',
  configProblemsAreFatal: true,
  names: 'bean',
  params: requestFilterParams('client IP address', '127\\.\\d+\\.\\d+\\.\\d+|0:0:0:0:0:0:0:1|::1'),
  toConfig: (v) => ({ allow: v.allow, deny: v.deny, denyStatus: v.denyStatus }),
  notes: (raw) => deniesEverything(raw, 'RemoteAddrFilter'),
});
export type RemoteAddrConfig = z.output<typeof spec.schema>;
