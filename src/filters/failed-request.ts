import type * as z from 'zod';
import { defineFilter } from './define.js';

export const spec = defineFilter({
  id: 'failed-request',
  simpleName: 'FailedRequestFilter',
  description:
    'Rejects with 400 a request whose parameters could not all be parsed (bad encoding, too many). Takes no parameter: any init-param stops it from starting.',
  configProblemsAreFatal: true,
  names: 'bean',
  params: {},
  removedIn: '11.0',
  toConfig: () => ({}),
});
export type FailedRequestConfig = z.output<typeof spec.schema>;
