/**
 * Per-request work on values clients repeat (addresses, origins, content
 * types, charset names) is done once per value. Clients choose these values,
 * so the memory is bounded twice: at most `maxEntries` values (then it starts
 * afresh, so no early flood pins it), and values longer than `maxKeyLength`
 * are computed every time, never kept.
 */
export function boundedMemo<V>(
  compute: (key: string) => V,
  maxEntries: number,
  maxKeyLength: number,
): (key: string) => V {
  const known = new Map<string, V>();
  return (key) => {
    const hit = known.get(key);
    if (hit !== undefined || known.has(key)) return hit as V;
    const value = compute(key);
    if (key.length <= maxKeyLength) {
      if (known.size >= maxEntries) known.clear();
      known.set(key, value);
    }
    return value;
  };
}
