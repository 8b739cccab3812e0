import { defineFilter } from './define.js';

export const spec = defineFilter({
  id: 'failed-request',
  simpleName: 'FailedRequestFilter',
  description: 'Rejects with 400 a request whose parameters could not all be parsed (bad encoding, too many).',
  configProblemsAreFatal: true,
  params: {},
  removedIn: '11.0',
  toConfig: () => ({}),
});
export type FailedRequestConfig = ReturnType<typeof spec.schema.parse>;
