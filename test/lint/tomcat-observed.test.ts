import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextsOf } from '../../src/chain/index.js';
import { lintBase } from '../../src/lint/engine.js';
import { loadInput } from '../../src/lint/inputs.js';
import { refusesStart } from '../../src/lint/severity.js';

/**
 * What real Tomcat 10.1 did with each base of test/fixtures/ordering (which
 * contexts it refused to start, recorded in observed.json), held against the
 * errors lint reports: a context Tomcat refused must get an error that says
 * Tomcat refuses it in one of its descriptors (its own or the defaults it
 * reads), and a context Tomcat started must get none in its own descriptors
 * (an error Tomcat starts with, and runs wrongly, may be there).
 */
const root = join(import.meta.dirname, '..', 'fixtures', 'ordering');
const scenarios = readdirSync(root).filter((s) => existsSync(join(root, s, 'observed.json')));

/** Where lint and Tomcat still disagree, with the reason; the test fails when one of these starts to agree. */
const KNOWN: Record<string, string> = {};

interface Observed {
  failedContexts: { context: string; reason: string }[];
}

describe('lint errors agree with what Tomcat 10.1 refused to start', () => {
  it('has observations to compare with', () => {
    expect(scenarios.length).toBeGreaterThan(10);
  });

  for (const scenario of scenarios) {
    it(scenario, () => {
      const observed = JSON.parse(readFileSync(join(root, scenario, 'observed.json'), 'utf8')) as Observed;
      const base = loadInput(join(root, scenario));
      const errors = lintBase(base).diagnostics.filter(refusesStart);
      const failed = new Set(observed.failedContexts.map((f) => f.context));
      const disagreements: string[] = [];
      for (const { host, context } of contextsOf(base)) {
        const label = context.path === '' ? '/' : context.path;
        const own = new Set(
          [context.webXml?.file, context.tomcatWebXml?.file].filter((f): f is string => f !== undefined),
        );
        const defaults = new Set(
          [base.globalWebXml?.file, host.webXmlDefault?.file].filter((f): f is string => f !== undefined),
        );
        const ownErrors = errors.filter((d) => own.has(d.span.file));
        const key = `${scenario} ${label}`;
        if (failed.has(label) || failed.has(context.path)) {
          const any = ownErrors.length > 0 || errors.some((d) => defaults.has(d.span.file));
          if (!any) disagreements.push(`${key}: Tomcat refused it, lint reports no error`);
        } else if (ownErrors.length > 0) {
          disagreements.push(
            `${key}: Tomcat started it, lint reports ${ownErrors.map((d) => `${d.ruleId} at line ${d.span.line}`).join(', ')}`,
          );
        }
      }
      const known = Object.keys(KNOWN).filter((k) => k.startsWith(scenario + ' '));
      expect(disagreements.map((d) => d.split(':')[0])).toEqual(known);
    });
  }
});
