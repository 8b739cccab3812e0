import { describe, expect, it } from 'vitest';
import { BoundedCache, boundedMemo } from '../../src/protocol/memo.js';

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

  it('drops the eldest once full, so it never holds more than its bound', () => {
    const calls: string[] = [];
    const f = boundedMemo((k) => (calls.push(k), k), 2, 8);
    f('a');
    f('b');
    f('c'); // full: forgets a, keeps b and c
    f('c');
    f('b');
    f('a');
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });
});

describe('BoundedCache', () => {
  it('keeps at most maxEntries, dropping in the order they were kept, through any number of rounds', () => {
    const cache = new BoundedCache<number, number>(3);
    for (let i = 0; i < 10_000; i++) {
      cache.set(i, i * 2);
      expect(cache.size).toBe(Math.min(i + 1, 3));
    }
    expect([cache.get(9_997), cache.get(9_998), cache.get(9_999), cache.get(9_996)]).toEqual([
      19_994,
      19_996,
      19_998,
      undefined,
    ]);
  });

  it('replaces a kept key in place without dropping another', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3);
    expect([cache.get('a'), cache.get('b'), cache.size]).toEqual([3, 2, 2]);
  });

  it('keeps undefined and null apart from a miss through has()', () => {
    const cache = new BoundedCache<string, null | undefined>(4);
    cache.set('n', null);
    cache.set('u', undefined);
    expect([cache.get('n'), cache.has('u'), cache.has('x')]).toEqual([null, true, false]);
  });

  it('never keeps string keys over maxKeyLength, and keeps nothing with maxEntries 0', () => {
    const short = new BoundedCache<string, number>(4, 3);
    short.set('abcd', 1);
    short.set('abc', 2);
    expect([short.has('abcd'), short.get('abc')]).toEqual([false, 2]);
    const none = new BoundedCache<string, number>(0);
    none.set('a', 1);
    expect(none.size).toBe(0);
  });

  it('starts empty again after clear() and fills to its bound', () => {
    const cache = new BoundedCache<number, number>(2);
    [1, 2, 3].forEach((i) => cache.set(i, i));
    cache.clear();
    [4, 5, 6].forEach((i) => cache.set(i, i));
    expect([cache.size, cache.has(4), cache.has(5), cache.has(6)]).toEqual([2, false, true, true]);
  });
});
