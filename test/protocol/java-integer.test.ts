import { describe, expect, it } from 'vitest';
import { parseJavaInteger } from '../../src/protocol/java-integer.js';

// Integer.parseInt's answers, from Java 17 (java IntProbe.java over these inputs; NFE = NumberFormatException).
const JAVA: [string, number | null][] = [
  ['30', 30],
  ['+30', 30],
  ['-30', -30],
  ['٣٠', 30],
  ['３０', 30],
  ['٣0', 30],
  ['2147483647', 2147483647],
  ['2147483648', null],
  ['-2147483648', -2147483648],
  [' 30', null],
  ['30 ', null],
  ['', null],
  ['-', null],
  ['+', null],
  ['0x10', null],
  ['1_000', null],
];

describe('parseJavaInteger reads integers as Integer.parseInt does', () => {
  it.each(JAVA)('%j -> %j', (text, java) => {
    expect(parseJavaInteger(text)).toBe(java);
  });

  it('reads longs as Long.parseLong, to 64 bits', () => {
    expect(parseJavaInteger('2147483648', 64)).toBe(2147483648);
    expect(parseJavaInteger('9223372036854775808', 64)).toBeNull();
  });
});
