import type * as z from 'zod';
import { defineFilter } from './define.js';

export const spec = defineFilter({
  id: 'request-dumper',
  simpleName: 'RequestDumperFilter',
  description: 'Logs request and response details for debugging (every parameter and header: never in production).',
  configProblemsAreFatal: false,
  unknownParams: 'ignored',
  names: 'exact',
  params: {},
  toConfig: () => ({}),
});
export type RequestDumperConfig = z.output<typeof spec.schema>;
