import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../../src/protocol/memo.js';

describe('boundedMemo', () => {
  it('computes a value once, null and false included', () => {
    const calls: string[] = [];
    const f = boundedMemo((k) => (calls.push(k), k === 'n' ? null : k === 'f' ? false : k.length), 10, 8);
    expect([f('ab'), f('ab'), f('n'), f('n'), f('f'), f('f')]).toEqual([2, 2, null, null, false, false]);
    expect(calls).toEqual(['ab', 'n', 'f']);
  });

  it('computes keys over the length bound every time and never keeps them', () => {
    const calls: string[] = [];
    const f = boundedMemo((k) => (calls.push(k), k.length), 10, 3);
    f('abcd');
    f('abcd');
    f('abc');
    f('abc');
    expect(calls).toEqual(['abcd', 'abcd', 'abc']);
  });

  it('starts afresh once full, so it never holds more than its bound', () => {
    const calls: string[] = [];
    const f = boundedMemo((k) => (calls.push(k), k), 2, 8);
    f('a');
    f('b');
    f('c'); // full: forgets a and b, keeps c
    f('c');
    f('a');
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });
});
