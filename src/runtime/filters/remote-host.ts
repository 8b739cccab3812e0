/**
 * RemoteHostFilter: allow/deny by the client host name, which is the address
 * unless the context has enableLookups (then a reverse DNS lookup, once per
 * request, as getRemoteHost does in Tomcat) or a filter in front set one.
 */
import type { RemoteHostConfig } from '../../filters/remote-host.js';
import type { Exchange } from '../exchange.js';
import type { NextFilter, RuntimeFilterFactory } from '../types.js';
import { RequestRule } from './request-filter.js';

export const create: RuntimeFilterFactory<RemoteHostConfig> = (config, ctx) => {
  const rule = new RequestRule(config, ctx.logger);
  if (!ctx.settings.enableLookups) {
    return { name: 'RemoteHostFilter', doFilter: (ex, next) => rule.process(ex.request.remoteHost, ex, next) };
  }
  return { name: 'RemoteHostFilter', doFilter: (ex, next) => afterLookup(rule, ex, next) };
};

async function afterLookup(rule: RequestRule, ex: Exchange, next: NextFilter): Promise<void> {
  return rule.process(await ex.request.lookupRemoteHost(), ex, next);
}
