/**
 * The MIME map a context ends up with. Descriptors keep extensions as written
 * (case-sensitive), and the context lower-cases them as it adds them, in the
 * iteration order of a java.util.HashMap. So when "XYZ" and "xyz" are both
 * mapped, the one Java iterates last wins, not the app's. Observed on Tomcat
 * 10.1: an app's "XYZ" loses to conf/web.xml's "xyz".
 */

/** Java's String.hashCode. */
function javaHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * Simulates the capacity of a java.util.HashMap that receives `direct` puts,
 * then one putAll of `bulk` more keys (Tomcat: the app's own mappings, then the
 * merged defaults), and returns its iteration order of `keys` (insertion order).
 */
export function javaHashMapOrder(keys: readonly string[], direct: number): string[] {
  let capacity = 0;
  let threshold = 0;
  let size = 0;
  const grow = (): void => {
    if (capacity === 0) capacity = threshold > 0 ? threshold : 16;
    else capacity *= 2;
    threshold = capacity * 0.75;
  };
  const put = (): void => {
    if (capacity === 0) grow();
    if (++size > threshold) grow();
  };
  for (let i = 0; i < direct; i++) put();
  const bulk = keys.length - direct;
  if (bulk > 0) {
    if (capacity === 0) {
      const wanted = Math.floor(bulk / 0.75 + 1);
      let pow = 1;
      while (pow < wanted) pow *= 2;
      if (pow > threshold) threshold = pow;
    } else if (bulk > threshold) {
      grow();
    }
    for (let i = 0; i < bulk; i++) put();
  }
  const bucket = (k: string): number => {
    const h = javaHash(k);
    return (h ^ (h >>> 16)) & (capacity - 1);
  };
  return keys
    .map((k, i) => ({ k, i, b: bucket(k) }))
    .sort((a, b) => a.b - b.b || a.i - b.i)
    .map((e) => e.k);
}

/**
 * Lower-cases a case-sensitive extension map as StandardContext.addMimeMapping
 * does. `directCount` is how many of the first keys were put directly (the
 * rest arrived in one putAll); it only matters when two keys differ in case.
 */
export function contextMimeMap(
  entries: ReadonlyMap<string, string>,
  directCount: number,
): { map: Map<string, string>; conflicts: string[][] } {
  // Usually no two extensions differ only in case: then the map is the entries lower-cased, in order.
  const direct = new Map<string, string>();
  for (const [ext, type] of entries) {
    const lower = ext.toLowerCase();
    if (direct.has(lower)) return contextMimeMapWithConflicts(entries, directCount);
    direct.set(lower, type);
  }
  return { map: direct, conflicts: [] };
}

function contextMimeMapWithConflicts(
  entries: ReadonlyMap<string, string>,
  directCount: number,
): { map: Map<string, string>; conflicts: string[][] } {
  const byLower = new Map<string, string[]>();
  for (const ext of entries.keys()) {
    const lower = ext.toLowerCase();
    const same = byLower.get(lower);
    if (same) same.push(ext);
    else byLower.set(lower, [ext]);
  }
  const conflicts = [...byLower.values()].filter((v) => v.length > 1);
  const order = conflicts.length ? javaHashMapOrder([...entries.keys()], directCount) : [...entries.keys()];
  const map = new Map<string, string>();
  for (const ext of order) map.set(ext.toLowerCase(), entries.get(ext)!);
  return { map, conflicts };
}

/**
 * A read-only map of an application's own entries over its host's shared
 * defaults, so 10,000 applications that add one MIME type do not each copy
 * the thousand of conf/web.xml.
 */
export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  readonly size: number;

  constructor(
    private readonly own: ReadonlyMap<K, V>,
    private readonly base: ReadonlyMap<K, V>,
  ) {
    let size = base.size;
    for (const k of own.keys()) if (!base.has(k)) size++;
    this.size = size;
  }

  get(key: K): V | undefined {
    const v = this.own.get(key);
    return v !== undefined || this.own.has(key) ? v : this.base.get(key);
  }

  has(key: K): boolean {
    return this.own.has(key) || this.base.has(key);
  }

  *entries(): MapIterator<[K, V]> {
    yield* this.own.entries();
    for (const e of this.base.entries()) if (!this.own.has(e[0])) yield e;
  }

  *keys(): MapIterator<K> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}
