/**
 * tollgate/runtime: what generated chain modules and user servers import.
 * Node built-ins only; nothing here may import zod, the XML parser, yargs or
 * the compiler (test/runtime/imports.test.ts checks it).
 */
export {
  compilePattern,
  matchesFilterPattern,
  matchesFilterUrlPattern,
  type CompiledPattern,
  type PatternKind,
} from '../protocol/url-pattern.js';

export type {
  ContextSettings,
  DispatcherType,
  FilterDeclaration,
  FilterInitContext,
  FilterResult,
  NextFilter,
  RuntimeFilter,
  RuntimeFilterFactory,
  SessionCookieSettings,
} from './types.js';
export { Exchange, exchangeOf, type ContextState } from './exchange.js';
export {
  ExchangeRequest,
  DISPATCHER_TYPE_ATTR,
  PARAMETER_PARSE_FAILED_ATTR,
  PARAMETER_PARSE_FAILED_REASON_ATTR,
} from './request.js';
export { ExchangeResponse, type CommitHook, type ContentTypeWrapper, type UrlEncoder } from './response.js';
export type { ParameterFailReason } from './parameters.js';
export {
  createContextRuntime,
  ERROR_ATTRIBUTES,
  EXCEPTION_ATTRIBUTES,
  FORWARD_ATTRIBUTES,
  INCLUDE_ATTRIBUTES,
  type ContextMiddleware,
  type ContextRuntimeOptions,
  type ErrorPageEntry,
} from './context.js';
export { forward, include, sendError, sendException, type Servlet } from './dispatch.js';
export {
  createMimeLookup,
  mimeMappingsAgainstDefaults,
  tomcatMimeLookup,
  type MimeLookup,
  type MimeLookupOptions,
  type MimeMappings,
} from './mime.js';
export {
  toNodeListener,
  mountContexts,
  fastifyOnRequest,
  fastifyFormBodyParser,
  type ChainRunner,
  type FastifyReplyLike,
  type FastifyRequestLike,
} from './adapters.js';
export { HttpSession, MemorySessionStore, newSessionRecord, type MemorySessionStoreOptions } from './session.js';
export {
  isExpired,
  isPromise,
  type Awaitable,
  type ContextStores,
  type LockoutPolicy,
  type LockoutRecord,
  type LockoutStore,
  type RateLimitStore,
  type SessionRecord,
  type SessionStore,
  TooManyActiveSessionsError,
  type ContextStoreOptions,
  type StateBackend,
} from './state.js';
export {
  MemoryLockoutStore,
  MemoryRateLimitStore,
  MemoryStateBackend,
  memoryContextStores,
  type MemoryLockoutStoreOptions,
} from './memory-state.js';
export { SessionManager, generateSessionId } from './session-manager.js';
export { getLogger, setLogLevel, setLogSink, Logger, type LogLevel, type LogRecord, type LogSink } from './logging.js';
export {
  createErrorReportRenderer,
  defaultErrorPage,
  escapeHtmlContent,
  reasonPhrase,
  sendErrorReport,
  SERVER_INFO,
  type ErrorRenderer,
  type ErrorReport,
  type ErrorReportOptions,
} from './error-page.js';
export { charsetDecoder, isSupportedCharset, type ByteDecoder } from '../protocol/charset.js';
export { parseContentType, type ParsedContentType } from './media-type.js';
export { toTomcatRemoteAddr } from '../protocol/net.js';
export {
  createChainSelector,
  dispatcherBits,
  type ChainSelector,
  type SelectorTable,
  type Selection,
  type SelectedEntry,
  type ServletMatch,
} from '../protocol/chain-selector.js';
export { FILTER_FACTORIES } from './filters/index.js';
export {
  filterDeclaration,
  isFilterId,
  runtimeOptionsOf,
  type PlanRuntimeOptions,
  type RuntimePlan,
} from './plan-options.js';
