/**
 * RequestFilter, the logic RemoteAddrFilter and RemoteHostFilter share: a
 * deny match rejects; an allow match accepts; anything else is accepted only
 * when deny is set and allow is not. Rejection is sendError(denyStatus).
 */
import type { Exchange } from '../exchange.js';
import type { Logger } from '../logging.js';
import type { FilterResult, NextFilter } from '../types.js';
import { toRegExp, type RegexConfig } from './support.js';

/** The shape shared by RemoteAddrConfig and RemoteHostConfig. */
export interface RequestFilterConfig {
  readonly allow: RegexConfig | null;
  readonly deny: RegexConfig | null;
  readonly denyStatus: number;
}

/** A compiled allow/deny decision over one request property. */
export class RequestRule {
  private readonly allow: RegExp | null;
  private readonly deny: RegExp | null;
  private readonly denyStatus: number;
  private readonly logger: Logger;

  constructor(config: RequestFilterConfig, logger: Logger) {
    this.allow = toRegExp(config.allow);
    this.deny = toRegExp(config.deny);
    this.denyStatus = config.denyStatus;
    this.logger = logger;
  }

  /** Whether the property passes (the regexes match the whole string: the schema anchors them). */
  isAllowed(property: string): boolean {
    if (this.deny !== null && this.deny.test(property)) return false;
    if (this.allow !== null && this.allow.test(property)) return true;
    return this.deny !== null && this.allow === null;
  }

  /** Continues the chain or answers with denyStatus. */
  process(property: string, ex: Exchange, next: NextFilter): FilterResult {
    if (this.isAllowed(property)) return next();
    if (this.logger.isLoggable('FINE'))
      this.logger.fine(`Denied request for [${ex.request.requestURI}] based on property [${property}]`);
    ex.response.sendError(this.denyStatus);
    return undefined;
  }
}
