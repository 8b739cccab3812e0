/**
 * Bounded caches: the eviction policies tollgate's hand-rolled caches used (empty the map when full; drop the
 * eldest entry), against lru-cache, on three key streams. CPU time per lookup (process.cpuUsage, median of 5)
 * and the hit ratio. Usage: npx tsx bench/bounded-cache.ts [--lru-cache <path to lru-cache's dist/esm/index.js>]
 * (lru-cache is not a dependency; install it in a temporary folder to compare).
 */
import { BoundedCache } from '../src/protocol/memo.js';

interface Cache {
  get(key: string): number | undefined;
  set(key: string, value: number): void;
}

class ClearWhenFull implements Cache {
  private readonly map = new Map<string, number>();
  constructor(private readonly max: number) {}
  get(key: string): number | undefined {
    return this.map.get(key);
  }
  set(key: string, value: number): void {
    if (this.map.size >= this.max) this.map.clear();
    this.map.set(key, value);
  }
}

const SIZE = 1024;
const LOOKUPS = 1_000_000;

/** Three streams: a few hot keys; every key new (a client sending distinct values); 90% of 800 hot keys + 10% new. */
function streams(): Record<string, string[]> {
  const hot = Array.from({ length: 100 }, (_, i) => `application/x-type-${i}`);
  const warm = Array.from({ length: 800 }, (_, i) => `https://origin-${i}.example`);
  let seed = 42;
  const rand = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  return {
    'hot (100 keys)': Array.from({ length: LOOKUPS }, () => hot[Math.floor(rand() * hot.length)]!),
    'hostile (all new)': Array.from({ length: LOOKUPS }, (_, i) => `x-${i}`),
    'mixed (90% of 800, 10% new)': Array.from({ length: LOOKUPS }, (_, i) =>
      rand() < 0.9 ? warm[Math.floor(rand() * warm.length)]! : `new-${i}`,
    ),
  };
}

function run(make: () => Cache, keys: readonly string[]): { ns: number; hits: number } {
  const samples: number[] = [];
  let hits = 0;
  for (let s = 0; s < 5; s++) {
    const cache = make();
    hits = 0;
    const t0 = process.cpuUsage();
    for (const k of keys) {
      const v = cache.get(k);
      if (v !== undefined) hits++;
      else cache.set(k, k.length);
    }
    const t = process.cpuUsage(t0);
    samples.push(((t.user + t.system) * 1000) / keys.length);
  }
  samples.sort((a, b) => a - b);
  return { ns: samples[2]!, hits: hits / keys.length };
}

const lruPath = process.argv.indexOf('--lru-cache');
const policies: Record<string, () => Cache> = {
  'clear when full (old copies)': () => new ClearWhenFull(SIZE),
  'BoundedCache (drop eldest)': () => new BoundedCache<string, number>(SIZE),
};
if (lruPath > 0) {
  const { LRUCache } = (await import(process.argv[lruPath + 1]!)) as {
    LRUCache: new (o: { max: number }) => Cache;
  };
  policies['lru-cache'] = () => new LRUCache({ max: SIZE });
}

const data = streams();
console.log(`| policy (${SIZE} entries) | ${Object.keys(data).join(' | ')} |`);
console.log(
  `|---|${Object.keys(data)
    .map(() => '---:')
    .join('|')}|`,
);
for (const [name, make] of Object.entries(policies)) {
  const cells = Object.values(data).map((keys) => {
    const r = run(make, keys);
    return `${r.ns.toFixed(0)} ns, ${(r.hits * 100).toFixed(1)}% hits`;
  });
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
