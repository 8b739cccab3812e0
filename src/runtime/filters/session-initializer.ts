/** SessionInitializerFilter: creates the session (and its cookie) before the rest of the chain runs. */
import type { SessionInitializerConfig } from '../../filters/session-initializer.js';
import type { RuntimeFilterFactory } from '../types.js';

export const create: RuntimeFilterFactory<SessionInitializerConfig> = () => ({
  name: 'SessionInitializerFilter',
  doFilter(ex, next) {
    const loading = ex.request.sessionReady();
    if (loading === undefined) {
      ex.request.getSession(true);
      return next();
    }
    return loading.then(() => {
      ex.request.getSession(true);
      return next();
    });
  },
});
