import type * as z from 'zod';
import { defineFilter } from './define.js';

export const spec = defineFilter({
  id: 'session-initializer',
  simpleName: 'SessionInitializerFilter',
  description:
    'Creates the HTTP session before the request is processed (e.g. for WebSocket handshakes that need one).',
  configProblemsAreFatal: false,
  unknownParams: 'ignored',
  names: 'exact',
  params: {},
  toConfig: () => ({}),
});
export type SessionInitializerConfig = z.output<typeof spec.schema>;
