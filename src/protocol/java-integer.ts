/**
 * Java's reading of decimal integers, shared by lint and runtime: Character.digit(c, 10) and
 * Integer.parseInt / Long.parseLong (which accept any Unicode decimal digit, as Java does).
 */

/** Character.digit(c, 10) for one UTF-16 unit: any Unicode decimal digit of the BMP counts. */
export function javaDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0xd800 && code <= 0xdfff) return -1;
  if (!/\p{Nd}/u.test(String.fromCharCode(code))) return -1;
  let zero = code;
  while (zero > 0 && /\p{Nd}/u.test(String.fromCharCode(zero - 1))) zero--;
  return (code - zero) % 10;
}

const LIMITS = { 32: [-(2n ** 31n), 2n ** 31n - 1n], 64: [-(2n ** 63n), 2n ** 63n - 1n] } as const;

/**
 * Integer.parseInt (bits 32) or Long.parseLong (bits 64): an optional sign and
 * at least one decimal digit, no blanks, in range. Null when Java would throw
 * NumberFormatException. Longs beyond 2^53 lose precision as JS numbers.
 */
export function parseJavaInteger(text: string, bits: 32 | 64 = 32): number | null {
  let i = 0;
  let negative = false;
  if (text[0] === '-' || text[0] === '+') {
    negative = text[0] === '-';
    i = 1;
  }
  if (i >= text.length) return null;
  const [min, max] = LIMITS[bits];
  let value = 0n;
  for (; i < text.length; i++) {
    const d = javaDigit(text.charCodeAt(i));
    if (d < 0) return null;
    // Past the range the digits are only checked: growing a BigInt digit by digit made a
    // 100,000-digit value take 0.4 s (found by test/fuzz).
    if (value <= max + 1n) value = value * 10n + BigInt(d);
  }
  if (negative) value = -value;
  return value < min || value > max ? null : Number(value);
}
