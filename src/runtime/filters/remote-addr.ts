/**
 * RemoteAddrFilter: allow/deny by the client address as Tomcat reports it
 * (IPv6 uncompressed, `0:0:0:0:0:0:0:1`; after RemoteIpFilter, the forwarded one).
 */
import type { RemoteAddrConfig } from '../../filters/remote-addr.js';
import type { RuntimeFilterFactory } from '../types.js';
import { RequestRule } from './request-filter.js';

export const create: RuntimeFilterFactory<RemoteAddrConfig> = (config, ctx) => {
  const rule = new RequestRule(config, ctx.logger);
  return {
    name: 'RemoteAddrFilter',
    doFilter: (ex, next) => rule.process(ex.request.remoteAddr, ex, next),
  };
};
