import { describe, expect, it } from 'vitest';
import { BENCHMARKS, CATALOGUE, RELEASES } from '../../src/audit/catalogue.js';
import { RULES } from '../../src/lint/rules/index.js';

/**
 * STIG V3's CCIs and NIST SP 800-53 references of every control compared with MITRE's Apache Tomcat 9
 * STIG baseline (its V3 profile 3.2.0, SV- controls; the same sets, each NIST reference once). V-222978
 * is not in that profile, so it is not here.
 */
const V3_TAGS: Record<string, [cci: string[], nist: string[]]> = {
  'V-222926': [['CCI-000054'], ['AC-10']],
  'V-222927': [['CCI-000068'], ['AC-17 (2)']],
  'V-222928': [['CCI-001453'], ['AC-17 (2)']],
  'V-222929': [
    ['CCI-000197', 'CCI-001453', 'CCI-002418'],
    ['AC-17 (2)', 'IA-5 (1) (c)', 'SC-8'],
  ],
  'V-222930': [
    ['CCI-000067', 'CCI-000130', 'CCI-000133', 'CCI-000134', 'CCI-000166', 'CCI-000169', 'CCI-000172'],
    ['AC-17 (1)', 'AU-3 a', 'AU-3 d', 'AU-3 e', 'AU-10', 'AU-12 a', 'AU-12 c'],
  ],
  'V-222931': [
    ['CCI-000186', 'CCI-000213'],
    ['IA-5 (2) (a) (1)', 'AC-3'],
  ],
  'V-222932': [['CCI-000213'], ['AC-3']],
  'V-222933': [['CCI-000213'], ['AC-3']],
  'V-222934': [['CCI-000213'], ['AC-3']],
  'V-222935': [['CCI-000213'], ['AC-3']],
  'V-222936': [['CCI-000213'], ['AC-3']],
  'V-222937': [['CCI-000169'], ['AU-12 a']],
  'V-222938': [
    ['CCI-000130', 'CCI-000135', 'CCI-000171', 'CCI-000172', 'CCI-001487'],
    ['AU-3 a', 'AU-3 (1)', 'AU-12 b', 'AU-12 c', 'AU-3 f'],
  ],
  'V-222939': [['CCI-000131'], ['AU-3 b']],
  'V-222940': [['CCI-000132'], ['AU-3 c']],
  'V-222941': [['CCI-000132'], ['AU-3 c']],
  'V-222942': [['CCI-000132'], ['AU-3 c']],
  'V-222943': [['CCI-000162'], ['AU-9 a']],
  'V-222944': [['CCI-000162'], ['AU-9 a']],
  'V-222945': [
    ['CCI-000163', 'CCI-001813'],
    ['AU-9 a', 'CM-5 (1) (a)'],
  ],
  'V-222946': [
    ['CCI-000163', 'CCI-001813'],
    ['AU-9 a', 'CM-5 (1) (a)'],
  ],
  'V-222947': [['CCI-000164'], ['AU-9 a']],
  'V-222948': [
    ['CCI-001493', 'CCI-001494', 'CCI-001495', 'CCI-002235'],
    ['AU-9 a', 'AU-9', 'AC-6 (10)'],
  ],
  'V-222949': [['CCI-001499'], ['CM-5 (6)']],
  'V-222950': [['CCI-000381'], ['CM-7 a']],
  'V-222951': [['CCI-000381'], ['CM-7 a']],
  'V-222952': [['CCI-000381'], ['CM-7 a']],
  'V-222953': [['CCI-000381'], ['CM-7 a']],
  'V-222954': [['CCI-000381'], ['CM-7 a']],
  'V-222955': [['CCI-000381'], ['CM-7 a']],
  'V-222956': [['CCI-000381'], ['CM-7 a']],
  'V-222957': [['CCI-000381'], ['CM-7 a']],
  'V-222958': [['CCI-000381'], ['CM-7 a']],
  'V-222959': [['CCI-000381'], ['CM-7 a']],
  'V-222960': [['CCI-000381'], ['CM-7 a']],
  'V-222961': [['CCI-000382'], ['CM-7 b']],
  'V-222962': [['CCI-000764'], ['IA-2']],
  'V-222963': [['CCI-000765'], ['IA-2 (1)']],
  'V-222964': [['CCI-000770', 'CCI-004045'], ['IA-2 (5)']],
  'V-222965': [['CCI-000197'], ['IA-5 (1) (c)']],
  'V-222966': [
    ['CCI-000185', 'CCI-004909'],
    ['IA-5 (2) (b) (1)', 'SC-17 b'],
  ],
  'V-222967': [
    ['CCI-000186', 'CCI-004910'],
    ['IA-5 (2) (a) (1)', 'SC-28 (3)'],
  ],
  'V-222968': [
    ['CCI-000803', 'CCI-001188', 'CCI-002418', 'CCI-002421', 'CCI-002475', 'CCI-002476'],
    ['IA-7', 'SC-8', 'SC-8 (1)', 'SC-23 (3)', 'SC-28 (1)'],
  ],
  'V-222969': [['CCI-001082'], ['SC-2']],
  'V-222970': [['CCI-001082'], ['SC-2']],
  'V-222971': [['CCI-001184'], ['SC-23']],
  'V-222973': [['CCI-001664'], ['SC-23 (3)']],
  'V-222974': [['CCI-001190'], ['SC-24']],
  'V-222975': [['CCI-001312'], ['SI-11 a']],
  'V-222976': [['CCI-001314'], ['SI-11 b']],
  'V-222977': [['CCI-001314'], ['SI-11 b']],
  'V-222979': [
    ['CCI-002038', 'CCI-002361', 'CCI-004895'],
    ['SC-11 b', 'AC-12', 'IA-11'],
  ],
  'V-222980': [['CCI-002314'], ['AC-17 (1)']],
  'V-222981': [['CCI-002322'], ['AC-17 (9)']],
  'V-222982': [['CCI-002322'], ['AC-17 (9)']],
  'V-222983': [['CCI-002235'], ['AC-6 (10)']],
  'V-222984': [['CCI-002235'], ['AC-6 (10)']],
  'V-222985': [['CCI-002234'], ['AC-6 (9)']],
  'V-222986': [['CCI-001813'], ['CM-5 (1) (a)']],
  'V-222987': [['CCI-001813'], ['CM-5 (1) (a)']],
  'V-222988': [['CCI-001813'], ['CM-5 (1) (a)']],
  'V-222989': [['CCI-001813'], ['CM-5 (1) (a)']],
  'V-222990': [['CCI-001813'], ['CM-5 (1) (a)']],
  'V-222991': [['CCI-001813'], ['CM-5 (1) (a)']],
  'V-222993': [
    ['CCI-001953', 'CCI-001954', 'CCI-002009', 'CCI-002010', 'CCI-004046', 'CCI-004047'],
    ['IA-2 (12)', 'IA-8 (1)', 'IA-2 (6) (a)', 'IA-2 (6) (b)'],
  ],
  'V-222994': [['CCI-002470'], ['SC-23 (5)']],
  'V-222995': [['CCI-002385'], ['SC-5 a']],
  'V-222996': [
    ['CCI-002385', 'CCI-002605'],
    ['SC-5 a', 'SI-2 c'],
  ],
  'V-222997': [
    ['CCI-000172', 'CCI-001814', 'CCI-003938'],
    ['AU-12 c', 'CM-5 (1) (b)', 'CM-5 (1)'],
  ],
  'V-222998': [['CCI-000172'], ['AU-12 c']],
  'V-222999': [['CCI-000172'], ['AU-12 c']],
  'V-223000': [['CCI-000172'], ['AU-12 c']],
  'V-223001': [['CCI-002450'], ['SC-13 b']],
  'V-223002': [['CCI-000366'], ['CM-6 b']],
  'V-223003': [['CCI-000366'], ['CM-6 b']],
  'V-223004': [['CCI-000366'], ['CM-6 b']],
  'V-223005': [['CCI-000366'], ['CM-6 b']],
  'V-223006': [['CCI-000366'], ['CM-6 b']],
  'V-223007': [['CCI-000366'], ['CM-6 b']],
  'V-223008': [['CCI-000366'], ['CM-6 b']],
  'V-223009': [['CCI-000366'], ['CM-6 b']],
  'V-223010': [
    ['CCI-000139', 'CCI-003831'],
    ['AU-5 a', 'AU-9 b'],
  ],
};

/** The controls whose V3 tags differ from V2R1's (MITRE's v2.1.0 baseline); the rest are the same. */
const CHANGED_IN_V3 = [
  'V-222930',
  'V-222931',
  'V-222938',
  'V-222939',
  'V-222940',
  'V-222941',
  'V-222942',
  'V-222943',
  'V-222944',
  'V-222945',
  'V-222946',
  'V-222947',
  'V-222948',
  'V-222964',
  'V-222966',
  'V-222967',
  'V-222979',
  'V-222986',
  'V-222987',
  'V-222988',
  'V-222989',
  'V-222990',
  'V-222991',
  'V-222993',
  'V-222995',
  'V-222996',
  'V-222997',
  'V-223001',
  'V-223010',
];

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

  it("carries V3's CCIs and NIST references, as MITRE's V3 baseline tags them, for every control but V-222978", () => {
    const [v3] = RELEASES['stig-tomcat'];
    const tags = Object.fromEntries(
      v3!.controls.filter((c) => c.id !== 'V-222978').map((c) => [c.id, [c.cci, c.nist]]),
    );
    expect(Object.keys(V3_TAGS)).toHaveLength(82);
    expect(tags).toEqual(V3_TAGS);
  });

  it("keeps V2R1's tags under --benchmark-version 2.1 exactly where V3 changed them", () => {
    const [v3, v2] = RELEASES['stig-tomcat'];
    const changed = v3!.controls
      .filter((c) => {
        const old = v2!.controls.find((o) => o.id === c.id)!;
        return JSON.stringify([old.cci, old.nist]) !== JSON.stringify([c.cci, c.nist]);
      })
      .map((c) => c.id);
    expect(changed).toEqual(CHANGED_IN_V3);
    const of = (b: typeof v3, id: string) => b!.controls.find((c) => c.id === id)!;
    expect(of(v2, 'V-222986')).toMatchObject({ cci: ['CCI-001813'], nist: ['CM-5 (1)'] });
    expect(of(v2, 'V-223010')).toMatchObject({ cci: ['CCI-000139'], nist: ['AU-5 a'] });
    expect(of(v3, 'V-222978')).toMatchObject({ cci: ['CCI-001314'], nist: ['SI-11 b'] });
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
