import { afterAll, describe, expect, it } from 'vitest';
import { app, cleanup, filter, lintFiles } from './helpers.js';

afterAll(cleanup);

const unmapped = (name: string) => filter(name, 'WebdavFixFilter', {}, false);

describe('suppression comments', () => {
  it('disable-next-line silences only the next line', () => {
    const found = lintFiles(
      app(
        `<!-- tollgate-disable-next-line filter-never-mapped :: kept for later -->\n<filter><filter-name>a</filter-name><filter-class>org.apache.catalina.filters.WebdavFixFilter</filter-class></filter>\n${unmapped('b')}`,
      ),
    );
    expect(found.filter((d) => d.ruleId === 'filter-never-mapped').map((d) => d.message)).toEqual([
      expect.stringContaining('"b"'),
    ]);
    expect(found.map((d) => d.ruleId)).not.toContain('unused-suppression');
  });

  it('enabling one of two disabled rules keeps the other disabled', () => {
    const found = lintFiles(
      app(
        `<!-- tollgate-disable filter-never-mapped, cors-no-allowed-origins -->\n${unmapped('a')}\n<!-- tollgate-enable filter-never-mapped -->\n${unmapped('b')}\n${filter('c', 'CorsFilter')}`,
      ),
    );
    const ids = found.map((d) => `${d.ruleId} ${d.message.match(/"(\w)"/)?.[1] ?? ''}`);
    expect(ids).toContain('filter-never-mapped b');
    expect(ids).not.toContain('filter-never-mapped a');
    expect(ids.filter((i) => i.startsWith('cors-no-allowed-origins'))).toEqual([]);
    expect(ids.filter((i) => i.startsWith('unused-suppression'))).toEqual([]);
  });

  it('a disable with no enable lasts to the end of the file; one with no ids silences every rule', () => {
    const found = lintFiles(app(`<!-- tollgate-disable -->\n${unmapped('a')}\n${filter('c', 'CorsFilter')}`));
    expect(found).toEqual([]);
  });

  it('reports a suppression that silences nothing, and one that names no rule', () => {
    const found = lintFiles(
      app(
        `<!-- tollgate-disable-next-line filter-never-mapped -->\n${filter('a', 'WebdavFixFilter')}\n<!-- tollgate-disable-next-line filter-never-maped -->\n${unmapped('b')}`,
      ),
    );
    const unused = found.filter((d) => d.ruleId === 'unused-suppression').map((d) => d.message);
    expect(unused).toEqual([
      expect.stringContaining('suppresses nothing'),
      expect.stringContaining('"filter-never-maped", which is not a rule'),
    ]);
  });

  it('does not call a suppression unused when its rule is turned off for the run', () => {
    const found = lintFiles(app(`<!-- tollgate-disable-next-line filter-never-mapped -->\n${unmapped('a')}`), {
      ruleLevels: { 'filter-never-mapped': 'off' },
    });
    expect(found).toEqual([]);
  });

  it('does not report suppressions in ignored files', () => {
    const found = lintFiles(
      app(`<!-- tollgate-disable-next-line filter-never-mapped -->\n${filter('a', 'WebdavFixFilter')}`),
      { includeFile: (f) => !f.endsWith('web.xml') },
    );
    expect(found).toEqual([]);
  });

  it('are ignored with inlineConfig false (--no-inline-config)', () => {
    const found = lintFiles(app(`<!-- tollgate-disable filter-never-mapped -->\n${unmapped('a')}`), {
      inlineConfig: false,
    });
    expect(found.map((d) => d.ruleId)).toEqual(['filter-never-mapped']);
  });
});
