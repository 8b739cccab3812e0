/**
 * The one bounded cache. Per-request and per-declaration work on values that
 * clients or files repeat (addresses, origins, content types, charset names,
 * patterns, paths) is done once per value. Clients and files choose these
 * values, so the memory is bounded twice: at most `maxEntries` entries (when
 * full, the eldest is dropped, so an early flood pins nothing), and string
 * keys longer than `maxKeyLength` are never kept.
 *
 * Measured against emptying the map when full and against lru-cache in
 * bench/bounded-cache.ts (figures in bench/README.md).
 */
export class BoundedCache<K, V> {
  private readonly map = new Map<K, V>();
  /** Keys in the order they were kept: a ring, so dropping the eldest never walks the map's deleted slots. */
  private readonly order: K[] = [];
  private eldest = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxKeyLength: number = Number.POSITIVE_INFINITY,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** The value kept for `key`; undefined when none (a kept undefined reads the same: use has()). */
  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Keeps `value` unless the key is a string longer than maxKeyLength; drops the eldest entry when full. */
  set(key: K, value: V): void {
    if (typeof key === 'string' && key.length > this.maxKeyLength) return;
    if (this.maxEntries <= 0) return;
    if (this.map.has(key)) {
      this.map.set(key, value);
      return;
    }
    if (this.order.length < this.maxEntries) this.order.push(key);
    else {
      this.map.delete(this.order[this.eldest]!);
      this.order[this.eldest] = key;
      this.eldest = (this.eldest + 1) % this.maxEntries;
    }
    this.map.set(key, value);
  }

  clear(): void {
    this.map.clear();
    this.order.length = 0;
    this.eldest = 0;
  }
}

/** `compute`, remembered per key in a BoundedCache. */
export function boundedMemo<V>(
  compute: (key: string) => V,
  maxEntries: number,
  maxKeyLength: number = Number.POSITIVE_INFINITY,
): (key: string) => V {
  const known = new BoundedCache<string, V>(maxEntries, maxKeyLength);
  return (key) => {
    const hit = known.get(key);
    if (hit !== undefined || known.has(key)) return hit as V;
    const value = compute(key);
    known.set(key, value);
    return value;
  };
}
