import { defineFilter } from './define.js';

export const spec = defineFilter({
  id: 'session-initializer',
  simpleName: 'SessionInitializerFilter',
  description: 'Creates the HTTP session before the request is processed (e.g. for WebSocket handshakes).',
  configProblemsAreFatal: false,
  unknownParams: 'ignored',
  params: {},
  toConfig: () => ({}),
});
export type SessionInitializerConfig = ReturnType<typeof spec.schema.parse>;
