import { describe, expect, it } from 'vitest';
import { BENCHMARKS, CATALOGUE, RELEASES } from '../../src/audit/catalogue.js';
import { RULES } from '../../src/lint/rules/index.js';

describe('the control catalogue', () => {
  it("tags each STIG release with its own CCIs and NIST references (V3's from MITRE's SV- controls, V2R1's from its v2.1.0 baseline)", () => {
    const [v3, v2] = RELEASES['stig-tomcat'];
    const of = (b: typeof v3, id: string) => b!.controls.find((c) => c.id === id)!;
    expect(of(v3, 'V-222993').cci).toEqual([
      'CCI-001953',
      'CCI-001954',
      'CCI-002009',
      'CCI-002010',
      'CCI-004046',
      'CCI-004047',
    ]);
    expect(of(v2, 'V-222993').cci).toEqual(['CCI-001953', 'CCI-001954', 'CCI-002009', 'CCI-002010']);
    expect(of(v3, 'V-222939').nist).toEqual(['AU-3 b']);
    expect(of(v2, 'V-222939').nist).toEqual(['AU-3']);
    expect(of(v3, 'V-222967').nist).toEqual(['IA-5 (2) (a) (1)', 'SC-28 (3)']);
    // Unchanged between the releases.
    expect(of(v3, 'V-222926')).toMatchObject({ cci: ['CCI-000054'], nist: ['AC-10'] });
    expect(of(v2, 'V-222926')).toMatchObject({ cci: ['CCI-000054'], nist: ['AC-10'] });
  });

  it('holds every recommendation of the CIS Apache Tomcat 10.1 Benchmark v1.0.0, in its order', () => {
    const ids = CATALOGUE['cis-tomcat-10.1'].controls.map((c) => c.id);
    expect(ids).toHaveLength(61);
    const sections = new Map<string, number>();
    for (const id of ids) sections.set(id.split('.')[0]!, (sections.get(id.split('.')[0]!) ?? 0) + 1);
    // Recommendations per section, as the benchmark numbers them.
    expect(Object.fromEntries(sections)).toEqual({
      '1': 2,
      '2': 7,
      '3': 2,
      '4': 15,
      '5': 2,
      '6': 5,
      '7': 6,
      '8': 1,
      '9': 2,
      '10': 19,
    });
    for (const [section, n] of sections) {
      expect(ids.filter((id) => id.startsWith(`${section}.`))).toEqual(
        Array.from({ length: n }, (_, i) => `${section}.${i + 1}`),
      );
    }
    expect(new Set(CATALOGUE['cis-tomcat-10.1'].controls.map((c) => c.level))).toEqual(new Set(['Level 1', 'Level 2']));
  });

  it('holds every requirement of the Tomcat STIG with its vulnerability id, rule version and category', () => {
    const controls = CATALOGUE['stig-tomcat'].controls;
    expect(controls).toHaveLength(83);
    for (const c of controls) {
      expect(c.id).toMatch(/^V-2229\d\d$|^V-2230(0\d|10)$/);
      expect(c.stigId).toMatch(/^TCAT-AS-\d{6}$/);
      expect(c.level).toMatch(/^CAT (I|II|III) \((high|medium|low)\)$/);
    }
    expect(new Set(controls.map((c) => c.id)).size).toBe(83);
    expect(new Set(controls.map((c) => c.stigId)).size).toBe(83);
    // Numbers the STIG skips.
    expect(controls.map((c) => c.id)).not.toContain('V-222972');
    expect(controls.map((c) => c.id)).not.toContain('V-222992');
    expect(controls.find((c) => c.id === 'V-222935')).toMatchObject({
      stigId: 'TCAT-AS-000100',
      title: 'Connectors must be secured.',
      level: 'CAT II (medium)',
    });
  });

  it('says for every control what to check by hand, in one line', () => {
    for (const b of BENCHMARKS) {
      for (const c of CATALOGUE[b].controls) {
        expect(c.title.length, `${b} ${c.id}`).toBeGreaterThan(5);
        expect(c.check.length, `${b} ${c.id}`).toBeGreaterThan(15);
        expect(c.check, `${b} ${c.id}`).not.toMatch(/\n/);
      }
    }
  });

  it('knows every control a rule names in its benchmarks (a misspelt id would never fail an audit)', () => {
    const known = new Set(BENCHMARKS.flatMap((b) => CATALOGUE[b].controls.map((c) => `${b}:${c.id}`)));
    const unknown = RULES.flatMap((r) =>
      (r.meta.benchmarks ?? []).filter((ref) => !known.has(ref)).map((ref) => `${r.meta.id}: ${ref}`),
    );
    expect(unknown).toEqual([]);
  });
});
