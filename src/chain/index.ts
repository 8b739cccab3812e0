export { mergeWebApp, type MergedWebApp, type MergedFilter, type MergedFilterMapping, type MergedServlet, type MergedServletMapping, type Origin } from './merge.js';
export { validateUrlPattern, unusualUrlPattern, compilePattern, matchesFilterPattern, matchesFilterUrlPattern, type CompiledPattern, type PatternKind } from './patterns.js';
export { effectiveChain, resolveServlet, selectorTableOf, dispatcherBits, type ChainEntry, type ServletMatch } from './effective.js';
export { contextsOf, mergedOf, findHost, findContext, type ResolvedContext } from './contexts.js';
