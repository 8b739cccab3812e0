/** Test inputs shared by the runtime's exhaustive comparisons. */

/** Every string of 1 to `maxLength` characters over `alphabet`, shortest first. */
export function allStrings(alphabet: readonly string[], maxLength: number): string[] {
  const out: string[] = [];
  let previous = [''];
  for (let len = 1; len <= maxLength; len++) {
    const longer: string[] = [];
    for (const p of previous) for (const c of alphabet) longer.push(p + c);
    for (const s of longer) out.push(s);
    previous = longer;
  }
  return out;
}
