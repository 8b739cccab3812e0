import type * as z from 'zod';
import { defineFilter } from './define.js';

export const spec = defineFilter({
  id: 'webdav-fix',
  simpleName: 'WebdavFixFilter',
  description:
    "Redirects Microsoft WebDAV mini-redirector clients to a URL form that works with Tomcat's WebDAV servlet.",
  configProblemsAreFatal: false,
  unknownParams: 'ignored',
  names: 'exact',
  params: {},
  removedIn: '11.0',
  toConfig: () => ({}),
});
export type WebdavFixConfig = z.output<typeof spec.schema>;
