/**
 * RemoteCIDRFilter: allow/deny by the client address against CIDR masks.
 * Deny wins, then allow; with neither matching the request passes only when
 * deny is set and allow is empty. A remote address that is not an IP literal
 * is refused (Tomcat would try DNS; tollgate does not resolve names).
 */
import type { RemoteCidrConfig } from '../../filters/remote-cidr.js';
import { boundedMemo } from '../../protocol/memo.js';
import { parseIp, type Cidr } from '../../protocol/net.js';
import type { RuntimeFilterFactory } from '../types.js';

interface Mask {
  readonly bytes: Uint8Array;
  readonly prefix: number;
  readonly v4: boolean;
}

export const create: RuntimeFilterFactory<RemoteCidrConfig> = (config, ctx) => {
  const allow = config.allow.map(toMask);
  const deny = config.deny.map(toMask);
  const status = config.denyStatus;
  const logger = ctx.logger;
  // The verdict depends on the address alone and clients come back, so each address is judged once.
  const verdict = boundedMemo((address) => verdictFor(address, allow, deny), VERDICT_CACHE_SIZE, 64);
  return {
    name: 'RemoteCIDRFilter',
    doFilter(ex, next) {
      const allowed = verdict(ex.request.remoteAddr);
      if (allowed === true) return next();
      // Not an IP literal: refused and logged every time.
      if (allowed === null) logger.severe('Client does not have an IP address. Request denied.');
      ex.response.sendError(status);
      return undefined;
    },
  };
};

/** How many client addresses each filter remembers the verdict for. */
const VERDICT_CACHE_SIZE = 4096;

function toMask(c: Cidr): Mask {
  return { bytes: Uint8Array.from(c.bytes), prefix: c.prefix, v4: c.family === 4 };
}

/** Deny wins, then allow, then "allowed only when deny is set and allow is empty"; null when the address is not an IP literal. */
function verdictFor(address: string, allow: readonly Mask[], deny: readonly Mask[]): boolean | null {
  let ip = parseIp(address);
  if (ip === null) return null;
  // Java's InetAddress turns an IPv4-mapped IPv6 address into the IPv4 address.
  if (ip.length === 16 && isV4Mapped(ip)) ip = ip.subarray(12);
  if (matchesAny(deny, ip)) return false;
  if (matchesAny(allow, ip)) return true;
  return deny.length > 0 && allow.length === 0;
}

function isV4Mapped(b: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (b[i] !== 0) return false;
  return b[10] === 0xff && b[11] === 0xff;
}

/** NetMask.matches: same family, then the first `prefix` bits equal. */
function matchesAny(masks: readonly Mask[], ip: Uint8Array): boolean {
  const v4 = ip.length === 4;
  for (const m of masks) {
    if (m.v4 !== v4) continue;
    const whole = m.prefix >> 3;
    let equal = true;
    for (let i = 0; i < whole; i++) {
      if (m.bytes[i] !== ip[i]) {
        equal = false;
        break;
      }
    }
    if (!equal) continue;
    const rest = m.prefix & 7;
    if (rest === 0) return true;
    const bits = (0xff << (8 - rest)) & 0xff;
    if ((m.bytes[whole]! & bits) === (ip[whole]! & bits)) return true;
  }
  return false;
}
