import { describe, expect, it } from 'vitest';
import { FILTER_SPECS } from '../../../src/filters/index.js';
import { createContextRuntime, FILTER_FACTORIES } from '../../../src/runtime/index.js';

describe('FILTER_FACTORIES', () => {
  it("has a factory for every filter schema, under the schema's id, and nothing else", () => {
    expect(Object.keys(FILTER_FACTORIES).sort()).toEqual(FILTER_SPECS.map((s) => s.id).sort());
  });

  it('builds every filter from its default config (as the compiler would wire it)', () => {
    for (const spec of FILTER_SPECS) {
      const factory = FILTER_FACTORIES[spec.id]!;
      const mw = createContextRuntime({
        filters: [
          { filterName: spec.simpleName, className: spec.classNames[0]!, factory, config: spec.schema.parse({}) },
        ],
      });
      expect(mw.filters[0]!.name, spec.id).toBe(spec.simpleName);
      mw.destroy();
    }
  });
});
