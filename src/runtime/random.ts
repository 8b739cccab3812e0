/**
 * Session ids and CSRF nonces: 128 bits from the platform's CSPRNG, as
 * upper-case hex (the form Tomcat's generators produce). Bytes are drawn from
 * a pool refilled with randomFillSync, since one randomBytes(16) call per id
 * cost 2 µs, a tenth of a whole request; every byte is used once.
 */
import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let offset = POOL_SIZE;

/** 32 upper-case hex digits of fresh randomness. */
export function randomHex128(): string {
  if (offset + 16 > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + 16).toUpperCase();
  offset += 16;
  return hex;
}
