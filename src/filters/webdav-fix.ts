import { defineFilter } from './define.js';

export const spec = defineFilter({
  id: 'webdav-fix',
  simpleName: 'WebdavFixFilter',
  description: 'Redirects Microsoft WebDAV clients to a client implementation that works with the WebDAV servlet of Tomcat.',
  configProblemsAreFatal: false,
  unknownParams: 'ignored',
  params: {},
  removedIn: '11.0',
  toConfig: () => ({}),
});
export type WebdavFixConfig = ReturnType<typeof spec.schema.parse>;
