import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateFilterDef } from '../../src/filters/index.js';
import type { FilterDef, Located } from '../../src/model/index.js';

/** Recorded from real Tomcat by test/filters/tomcat/record-init.ts: filter.init() with these init-params. */
const recorded = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'tomcat-init.json'), 'utf8')) as {
  tomcat: string;
  cases: { filter: string; params: Record<string, string>; started: boolean; message: string; warnings: string[] }[];
};

/**
 * Where tollgate cannot know what Tomcat will find: a class outside the JDK
 * and Tomcat is loaded from CATALINA_HOME/lib at start-up, so tollgate warns
 * instead (the probe has no such class, so Tomcat refused).
 */
/** The probe hands values to the filter as they are (web.xml would have trimmed them): so does this FilterDef. */
function defOf(filter: string, params: Record<string, string>): FilterDef {
  const span = { file: 'probe', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, endOffset: 0 };
  const at = (value: string): Located<string> => ({ value, span });
  return {
    name: at('f'),
    className: at(`org.apache.catalina.filters.${filter}`),
    asyncSupported: null,
    span,
    initParams: Object.entries(params).map(([k, v]) => ({ name: at(k), value: at(v), span })),
  };
}

const CANNOT_KNOW = (c: { params: Record<string, string> }) => c.params['randomClass'] === 'com.example.NoSuchRandom';

describe(`validation agrees with Tomcat ${recorded.tomcat} on which configurations start`, () => {
  it('has the recorded cases', () => expect(recorded.cases.length).toBeGreaterThan(200));

  for (const c of recorded.cases) {
    const label = `${c.filter} ${JSON.stringify(c.params)}`;
    it(`${label}: ${c.started ? 'starts' : 'refused'}`, () => {
      const r = validateFilterDef(defOf(c.filter, c.params));
      // An error Tomcat starts with (a value it reads and then runs wrongly) carries effect 'misbehaves': only the others refuse.
      const errors = r.diagnostics.filter((d) => d.severity === 'error' && d.effect !== 'misbehaves');
      if (CANNOT_KNOW(c)) {
        expect(errors).toEqual([]);
        expect(r.diagnostics.map((d) => d.ruleId)).toContain('filter-param-invalid');
        return;
      }
      if (c.started) {
        expect(errors.map((d) => d.message)).toEqual([]);
        // A config exists unless tollgate said (as a warning) that it cannot run a value Tomcat accepts.
        if (r.config === null)
          expect(
            r.diagnostics.some((d) => d.severity === 'warning' && /tollgate (cannot|does not)/.test(d.message)),
          ).toBe(true);
      } else {
        expect(errors.length).toBeGreaterThan(0);
        expect(r.config).toBeNull();
      }
      // Tomcat logged an unknown parameter: tollgate warns about the same name.
      for (const w of c.warnings.filter((x) => /is not defined for filters|Unknown parameter/.test(x))) {
        const name = /\[([^\]]*)\]/.exec(w)![1]!;
        expect(
          r.diagnostics.some(
            (d) => d.ruleId === 'filter-param-unknown' && d.severity === 'warning' && d.message.includes(`"${name}"`),
          ),
          w,
        ).toBe(true);
      }
    });
  }
});
