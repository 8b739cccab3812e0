/** Small timing helpers shared by the benchmarks: warm up, then the median and spread of several runs. */
export interface Timing {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function time(fn: () => unknown, runs = 7, warmup = 2): Timing {
  for (let i = 0; i < warmup; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[samples.length >> 1]!, min: samples[0]!, max: samples[samples.length - 1]!, runs };
}

export function fmt(t: Timing): string {
  return `${t.median.toFixed(1)} ms (min ${t.min.toFixed(1)}, max ${t.max.toFixed(1)}, n=${t.runs})`;
}
