/**
 * `application/x-www-form-urlencoded` parsing with Tomcat's rules
 * (org.apache.tomcat.util.http.Parameters): `+` is a space in names and
 * values, a chunk with an empty name is skipped, a malformed %-escape skips
 * its parameter, and the count limit covers query string plus body. Every
 * skip records the first failure reason, which FailedRequestFilter turns
 * into an error status.
 */
import type { ByteDecoder } from '../protocol/charset.js';

/** Tomcat's Parameters.FailReason values that tollgate can produce. */
export type ParameterFailReason =
  | 'CLIENT_DISCONNECT'
  | 'INVALID_CONTENT_TYPE'
  | 'IO_ERROR'
  | 'NO_NAME'
  | 'POST_TOO_LARGE'
  | 'TOO_MANY_PARAMETERS'
  | 'UNKNOWN'
  | 'URL_DECODING';

/** Parameters collected so far, in first-seen order, with the first failure. */
export class ParameterMap {
  readonly values = new Map<string, string[]>();
  count = 0;
  failure: ParameterFailReason | null = null;
  /** How many parameters were skipped and why (for logs and request dumps). */
  skipped = 0;
  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Records a failure; like Tomcat, only the first reason is kept. */
  fail(reason: ParameterFailReason): void {
    if (this.failure === null) this.failure = reason;
    this.skipped++;
  }

  /** Adds one value; false (and TOO_MANY_PARAMETERS) when the limit is reached. */
  add(name: string, value: string): boolean {
    if (this.limit >= 0 && this.count >= this.limit) {
      this.fail('TOO_MANY_PARAMETERS');
      return false;
    }
    this.count++;
    const list = this.values.get(name);
    if (list === undefined) this.values.set(name, [value]);
    else list.push(value);
    return true;
  }
}

const AMP = 0x26;
const EQ = 0x3d;
const PCT = 0x25;
const PLUS = 0x2b;

/** Parses url-encoded bytes into `into`, decoding names and values with `decode`. */
export function parseUrlEncoded(bytes: Buffer, decode: ByteDecoder, into: ParameterMap): void {
  const end = bytes.length;
  let pos = 0;
  while (pos < end) {
    const nameStart = pos;
    let nameEnd = -1;
    let valueStart = -1;
    let valueEnd = -1;
    let escapedName = false;
    let escapedValue = false;
    for (; pos < end; pos++) {
      const b = bytes[pos]!;
      if (b === AMP) break;
      if (b === EQ && valueStart < 0) {
        nameEnd = pos;
        valueStart = pos + 1;
      } else if (b === PCT || b === PLUS) {
        if (valueStart < 0) escapedName = true;
        else escapedValue = true;
      }
    }
    if (nameEnd < 0) nameEnd = pos;
    else valueEnd = pos;
    pos++; // past '&' (or beyond the end)
    if (nameEnd === nameStart) {
      // "&&" is silently ignored; "&=value&" is a chunk without a name.
      if (valueStart >= 0) into.fail('NO_NAME');
      continue;
    }
    const name = decodePart(bytes, nameStart, nameEnd, escapedName, decode);
    const value = valueStart < 0 ? '' : decodePart(bytes, valueStart, valueEnd, escapedValue, decode);
    if (name === null || value === null) {
      into.fail('URL_DECODING');
      continue;
    }
    // Reaching the limit stops this chunk of input; the next chunk fails on its first parameter too.
    if (!into.add(name, value)) return;
  }
}

function decodePart(bytes: Buffer, start: number, end: number, escaped: boolean, decode: ByteDecoder): string | null {
  if (!escaped) return decode(bytes.subarray(start, end));
  const out = Buffer.allocUnsafe(end - start);
  let n = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b === PLUS) {
      out[n++] = 0x20;
    } else if (b === PCT) {
      if (i + 2 >= end) return null;
      const hi = hexValue(bytes[i + 1]!);
      const lo = hexValue(bytes[i + 2]!);
      if (hi < 0 || lo < 0) return null;
      out[n++] = (hi << 4) | lo;
      i += 2;
    } else {
      out[n++] = b;
    }
  }
  return decode(out.subarray(0, n));
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}
