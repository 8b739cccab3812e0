/**
 * tollgate/runtime: what generated chain modules and user servers import.
 * Node built-ins only; nothing here may import zod, the XML parser, yargs or
 * the compiler (test/runtime/imports.test.ts checks it).
 */
export { compilePattern, matchesFilterPattern, matchesFilterUrlPattern, type CompiledPattern, type PatternKind } from './url-pattern.js';
