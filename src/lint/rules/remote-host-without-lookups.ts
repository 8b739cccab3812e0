import type { Rule } from '../types.js';
import { filterSpan } from './util.js';

export const rule: Rule = {
  meta: {
    id: 'remote-host-without-lookups',
    description: 'RemoteHostFilter compares addresses, not names, unless the connector resolves host names.',
    defaultSeverity: 'info',
    effect: 'notes',
    reason:
      'Without enableLookups the "host name" RemoteHostFilter compares is the IP address; patterns must be written for that.',
    category: 'correctness',
  },
  visit(ctx) {
    const lookups = (ctx.base.serverXml?.services ?? []).some((s) =>
      s.connectors.some((c) => c.attributes['enableLookups']?.value.trim().toLowerCase() === 'true'),
    );
    if (lookups) return {};
    return {
      kinds: ['remote-host'],
      filter(f) {
        ctx.report({
          message:
            'No connector sets enableLookups="true", so the "host name" RemoteHostFilter sees is the IP address: its patterns must match addresses (or use RemoteAddrFilter / RemoteCIDRFilter, which say so).',
          span: filterSpan(f.def),
        });
      },
    };
  },
};
