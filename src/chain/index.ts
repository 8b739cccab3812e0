export type {
  Origin,
  MergedWebApp,
  MergedFilter,
  MergedFilterMapping,
  MergedServlet,
  MergedServletMapping,
  MappedPattern,
  Startup,
} from './types.js';
export { mergeWebApp } from './merge.js';
export { dispatcherBits, dispatcherBit } from './descriptor.js';
export {
  validateUrlPattern,
  unusualUrlPattern,
  decodeUrlPattern,
  compilePattern,
  matchesFilterPattern,
  matchesFilterUrlPattern,
  type CompiledPattern,
  type PatternKind,
  type PatternUse,
} from './patterns.js';
export { resolveServlet, type ServletMatch, type ServletMatchKind, type FileExists } from './mapper.js';
export { effectiveChain, type ChainEntry, type EffectiveChain } from './effective.js';
export { contextsOf, mergedOf, findHost, findContext, type ResolvedContext, type ContextMatch } from './contexts.js';
export { javaHashMapOrder } from './mime.js';
export { selectorTableOf } from './table.js';
