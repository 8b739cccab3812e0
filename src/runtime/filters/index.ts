/**
 * The runtime side of every container filter, keyed by the id its schema has
 * in src/filters (`cors`, `remote-ip`, ...): the compiler wires declarations
 * `{ filterName, className, factory: FILTER_FACTORIES[id], config }`.
 */
import type { RuntimeFilterFactory } from '../types.js';
import { create as cors } from './cors.js';

/** Factory by filter id. */
export const FILTER_FACTORIES: Readonly<Record<string, RuntimeFilterFactory<any>>> = {
  cors,
};

export { classifyCorsRequest, type CorsRequestType } from './cors.js';
