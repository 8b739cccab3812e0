import { describe, expect, it } from 'vitest';
import { FILTER_SPECS, plannedFilter } from '../../../src/filters/index.js';
import { createContextRuntime, FILTER_FACTORIES, filterDeclaration, isFilterId } from '../../../src/runtime/index.js';

describe('FILTER_FACTORIES', () => {
  it("has a factory for every filter schema, under the schema's id, and nothing else", () => {
    // This is what makes plannedFilter's pairing of a spec's id with its config a PlannedFilter.
    expect(Object.keys(FILTER_FACTORIES).sort()).toEqual(FILTER_SPECS.map((s) => s.id).sort());
    expect(FILTER_SPECS.filter((s) => !isFilterId(s.id))).toEqual([]);
    expect(isFilterId('toString')).toBe(false);
  });

  it('builds every filter from its default config (as the compiler would wire it)', () => {
    for (const spec of FILTER_SPECS) {
      const declared = filterDeclaration(
        plannedFilter(spec.simpleName, spec.classNames[0]!, spec, spec.schema.parse({})),
      );
      expect(declared.factory).toBe(FILTER_FACTORIES[spec.id as keyof typeof FILTER_FACTORIES]);
      const mw = createContextRuntime({ filters: [declared] });
      expect(mw.filters[0]!.name, spec.id).toBe(spec.simpleName);
      mw.destroy();
    }
  });
});
