import { afterAll, describe, expect, it } from 'vitest';
import { app, cleanup, filter, lintFiles } from './helpers.js';

afterAll(cleanup);

/**
 * The CSRF filters load randomClass from Tomcat's own class path. Tomcat 10.1.60 refused to start an application
 * with randomClass=com.example.NoSuchRandom ("Unable to create Random source", seen by
 * test/conformance/lint-agreement.conformance.test.ts); tollgate said only that it could not check.
 */
describe('randomClass outside the JDK and Tomcat', () => {
  const param = (diagnostics: ReturnType<typeof lintFiles>) =>
    diagnostics.filter((d) => d.ruleId === 'filter-param-invalid');

  it.each(['CsrfPreventionFilter', 'RestCsrfPreventionFilter'])(
    '%s: an error when the base has no lib/*.jar (one finding, not the warning beside it)',
    (cls) => {
      const found = param(lintFiles(app(filter('c', cls, { randomClass: 'com.example.NoSuchRandom' }))));
      expect(found.map((d) => d.severity)).toEqual(['error']);
      expect(found[0]!.message).toContain('not on the stock Tomcat class path');
    },
  );

  it('only the warning that tollgate cannot check when lib/ holds jars the class may come from', () => {
    const found = param(
      lintFiles({
        ...app(filter('c', 'RestCsrfPreventionFilter', { randomClass: 'com.example.FastRandom' })),
        'lib/fast-random.jar': 'PK',
      }),
    );
    expect(found.map((d) => d.severity)).toEqual(['warning']);
    expect(found[0]!.message).toContain('tollgate cannot check');
  });

  it('JDK classes are judged by validation alone: java.util.Random starts, java.lang.String does not', () => {
    expect(param(lintFiles(app(filter('c', 'CsrfPreventionFilter', { randomClass: 'java.util.Random' }))))).toEqual([]);
    expect(
      param(lintFiles(app(filter('c', 'CsrfPreventionFilter', { randomClass: 'java.lang.String' })))).map(
        (d) => d.severity,
      ),
    ).toEqual(['error']);
  });
});
