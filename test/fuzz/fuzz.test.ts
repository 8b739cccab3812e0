import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CPU_LIMIT_MS,
  emptySummary,
  importedModules,
  loadCorpus,
  makeInput,
  record,
  regressionFiles,
  regressionInput,
  runInput,
  TARGETS,
  targetsFor,
  Workspace,
  type Finding,
} from './fuzz-core.js';
import { hostileShapes } from './hostile.js';
import { makeLayout, runLayouts } from './layouts.js';

/**
 * A short seeded run of the fuzzer (bench/fuzz.ts runs a million): seed 1,
 * inputs 0..N-1, parse on each and the other targets on every few, plus every
 * crashing input ever found (test/fuzz/regressions) through every target.
 * A crash, or a target over CPU_LIMIT_MS of CPU time on one input (work, not wall-clock time,
 * which a loaded machine inflates), fails the test. bench/fuzz.ts reports the times.
 */
const SEED = 1;
const INPUTS = 3000;
const EVERY = { load: 3, lint: 3, chain: 3, compile: 6 };

const ws = new Workspace();
afterAll(() => ws.dispose());

const show = (f: Finding): string =>
  `${f.kind} ${f.signature}\n  ${f.input}\n  ${f.message.split('\n').slice(0, 5).join('\n  ')}`;

describe('fuzzing parse, load, lint, chain and compile', () => {
  const corpus = loadCorpus();

  it('has seeds of every kind, the real-world corpus among them', () => {
    for (const [kind, seeds] of Object.entries(corpus.byKind)) expect(seeds.length, kind).toBeGreaterThan(2);
    expect(corpus.seeds.filter((s) => s.name.startsWith('test/fuzz/seeds/real-world/')).length).toBeGreaterThan(20);
  });

  it('generates the same input from the same seed and index, and different ones otherwise', () => {
    const a = makeInput(corpus, SEED, 42);
    const b = makeInput(corpus, SEED, 42);
    expect(b).toEqual(a);
    expect(makeInput(corpus, SEED + 1, 42).data).not.toEqual(a.data);
    const slots = new Set(Array.from({ length: 300 }, (_, i) => makeInput(corpus, SEED, i).slot));
    expect(slots.size).toBeGreaterThanOrEqual(8);
  });

  it('finds a thrown error and a slow target (the oracle can fail)', async () => {
    const summary = emptySummary();
    const input = makeInput(corpus, SEED, 0);
    record(summary, input, [
      {
        target: 'lint',
        ms: 3,
        error: {
          message: 'TypeError: x is undefined',
          stack: 'TypeError: x is undefined\n    at f (/repo/src/lint/x.ts:1:1)',
        },
      },
      { target: 'parse', ms: CPU_LIMIT_MS + 1, cpuMs: CPU_LIMIT_MS + 1 },
      // Wall-clock time alone (a descheduled process) is not slowness.
      { target: 'chain', ms: CPU_LIMIT_MS * 10, cpuMs: 5 },
    ]);
    expect(summary.findings.map((f) => f.kind)).toEqual(['crash', 'slow']);
  });

  it('compiles the example /api application and imports its module, which exports a middleware', async () => {
    const data = readFileSync(
      join(import.meta.dirname, '..', '..', 'examples', 'base', 'webapps', 'api', 'WEB-INF', 'web.xml'),
    );
    const before = importedModules();
    const out = await runInput({ index: 0, slot: 'app', data, description: 'examples/base/webapps/api' }, ws, {
      importModule: true,
    });
    expect(out.map((o) => [o.target, o.error?.message])).toEqual(TARGETS.map((t) => [t, undefined]));
    // ROOT and /app: two contexts, two modules.
    expect(importedModules() - before).toBe(2);
  });

  it(
    `runs ${INPUTS} inputs of seed ${SEED} without a crash or an input over ${CPU_LIMIT_MS} ms of CPU`,
    { timeout: 300_000 },
    async () => {
      const summary = emptySummary();
      for (let i = 0; i < INPUTS; i++) {
        const input = makeInput(corpus, SEED, i);
        record(summary, input, await runInput(input, ws, { targets: targetsFor(i, EVERY), importModule: i === 0 }));
      }
      expect(summary.findings.map(show)).toEqual([]);
      expect(summary.targets.parse.runs).toBe(INPUTS);
      for (const t of TARGETS) expect(summary.targets[t].runs, t).toBeGreaterThan(INPUTS / 10);
    },
  );

  const files = regressionFiles();
  it('has regression inputs', () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(`replays ${file.split('/').pop()}`, async () => {
      const input = regressionInput(file);
      const summary = emptySummary();
      record(summary, input, await runInput(input, ws, { importModule: true }));
      expect(summary.findings.map(show)).toEqual([]);
      expect(summary.targets.compile.runs).toBe(1);
    });
  }
});

describe('the hostile parser shapes (test/fuzz/hostile.ts: deep namespace nesting, many entities, wide documents)', () => {
  for (const shape of hostileShapes()) {
    it(`runs ${shape.name} (${shape.what}) through every target without a crash or a target over ${CPU_LIMIT_MS} ms of CPU`, async () => {
      const summary = emptySummary();
      const input = {
        index: 0,
        slot: 'app' as const,
        data: Buffer.from(shape.make()),
        description: `hostile ${shape.name}`,
      };
      record(summary, input, await runInput(input, ws));
      expect(summary.findings.map(show)).toEqual([]);
      expect(summary.targets.compile.runs).toBe(1);
    });
  }
});

describe('hostile repository layouts (test/fuzz/layouts.ts: random combinations of the attacks of test/security, in every position)', () => {
  /** Seed 1's first layouts: about 2 s of CPU; bench/fuzz.ts --layouts runs thousands. */
  const LAYOUTS = 24;

  it('builds the same layout from the same seed and index', () => {
    const a = makeLayout(1, 7);
    const b = makeLayout(1, 7);
    try {
      expect(b.placed).toEqual(a.placed);
      expect(a.placed.length).toBeGreaterThan(0);
    } finally {
      a.dispose();
      b.dispose();
    }
  });

  it(
    `lints and reports ${LAYOUTS} layouts of seed 1 with no byte from outside the base, no raw control character, bounded memory, and each ends`,
    { timeout: 600_000 },
    async () => {
      const s = await runLayouts(1, 0, LAYOUTS);
      expect(s.failures).toEqual([]);
      expect(s.layouts).toBe(LAYOUTS);
      // The seeds try every kind of attack (links of every kind, FIFOs, bombs, huge, deep, control characters).
      expect(Object.keys(s.attacks).length).toBeGreaterThanOrEqual(14);
      // Peak memory over the run's start, with the collector run between layouts: the worst single layout.
      expect(s.rssGrowthMiB).toBeLessThan(200);
      // Work, not time: a layout that read /dev/zero or inflated a bomb would burn far more.
      for (const ms of s.cpuMs) expect(ms).toBeLessThan(30_000);
      expect(s.outputBytes).toBeGreaterThan(0);
    },
  );
});
