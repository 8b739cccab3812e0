import { defineFilter } from './define.js';

export const spec = defineFilter({
  id: 'request-dumper',
  simpleName: 'RequestDumperFilter',
  description: 'Logs request and response details for debugging (includes every parameter: never in production).',
  configProblemsAreFatal: false,
  unknownParams: 'ignored',
  params: {},
  toConfig: () => ({}),
});
export type RequestDumperConfig = ReturnType<typeof spec.schema.parse>;
