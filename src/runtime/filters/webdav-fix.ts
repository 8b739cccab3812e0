/**
 * WebdavFixFilter: Microsoft's WebDAV Mini-Redirector sends requests Tomcat's
 * WebDAV servlet cannot serve unless the URL names an explicit port, so its
 * requests are redirected (302) to scheme://host:port/uri. The XP x64 SP2
 * client (5.2.3790) is known not to work either way: it is logged and let through.
 */
import type { WebdavFixConfig } from '../../filters/webdav-fix.js';
import type { RuntimeFilterFactory } from '../types.js';

const MINI_REDIR = 'Microsoft-WebDAV-MiniRedir';
const XP_32_SP3 = 'Microsoft-WebDAV-MiniRedir/5.1.2600';
const XP_64_SP2 = 'Microsoft-WebDAV-MiniRedir/5.2.3790';

export const create: RuntimeFilterFactory<WebdavFixConfig> = (_config, ctx) => {
  const logger = ctx.logger;
  return {
    name: 'WebdavFixFilter',
    doFilter(ex, next) {
      const req = ex.request;
      const ua = req.getHeader('user-agent');
      if (ua === null || !ua.startsWith(MINI_REDIR)) return next();
      if (!ua.startsWith(XP_32_SP3) && ua.startsWith(XP_64_SP2)) {
        if (req.contextPath !== '')
          logger.info('WebdavFixFilter: the XP-x64-SP2 client will only work with the root context');
        logger.info('WebdavFixFilter: the XP-x64-SP2 client is known not to work with WebDAV Servlet');
        return next();
      }
      // Always with the port, even the default one: that is what makes the client use the working code path.
      ex.response.sendRedirect(`${req.scheme}://${req.serverName}:${req.serverPort}${req.requestURI}`);
      return undefined;
    },
  };
};
