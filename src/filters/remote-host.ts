import type * as z from 'zod';
import { defineFilter } from './define.js';
import { deniesEverything, requestFilterParams } from './request-filter.js';

export const spec = defineFilter({
  id: 'remote-host',
  simpleName: 'RemoteHostFilter',
  description:
    'Allows or denies requests by client host name (the address itself unless the connector has enableLookups="true").',
  configProblemsAreFatal: true,
  names: 'bean',
  params: requestFilterParams('client host name', '.*\\.example\\.com'),
  toConfig: (v) => ({ allow: v.allow, deny: v.deny, denyStatus: v.denyStatus }),
  notes: (raw) => deniesEverything(raw, 'RemoteHostFilter'),
});
export type RemoteHostConfig = z.output<typeof spec.schema>;
