/**
 * Lint agrees with Tomcat (issue 6): every directory of fixtures/lint but
 * conf/ is one web application with one filter configuration. All of them are
 * deployed side by side on one real Tomcat 10.1 (one JVM boot judges them
 * all), and the same base is linted with tollgate's engine:
 *
 * - a context Tomcat refuses to start gets an error from tollgate inside the
 *   declaration that causes it (the <filter>, or the <filter-mapping> for
 *   mapping mistakes), in that application's web.xml;
 * - a context Tomcat starts gets no error-severity finding, except the few
 *   configurations tollgate deliberately reports as errors although Tomcat
 *   starts them (docs/divergences.md, "Lint errors on some configurations
 *   Tomcat starts"), asserted here as such.
 *
 * The table also says what each case is expected to do on Tomcat, so a case
 * that stops exercising what it claims (Tomcat starts what it refused) fails.
 * Each step also holds the plan (src/plan, which serve and compile run) to
 * Tomcat: a context is planned exactly when Tomcat starts it, except the
 * documented divergences (a value tollgate cannot run exactly). A second base (fixtures/lint/global-merge) does the
 * same for applications that redefine filters of conf/web.xml.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextsOf } from '../../src/chain/index.js';
import { planBase } from '../../src/plan/index.js';
import { lintBase } from '../../src/lint/engine.js';
import { refusesStart } from '../../src/lint/severity.js';
import { loadInput } from '../../src/lint/inputs.js';
import type { Diagnostic, Span } from '../../src/model/index.js';
import { FIXTURES, recordStep, REPO, send, startTomcatOnly, type Side } from './harness.js';

type Outcome = 'fails' | 'starts';
interface Case {
  expect: Outcome;
  /** Where the error must be: inside a <filter> (default) or a <filter-mapping>. */
  at?: 'filter' | 'mapping';
  /** Tomcat starts it, tollgate reports this rule as an error on purpose (docs/divergences.md). */
  deliberate?: string;
  /** Tomcat starts it, lint has no error, but serve does not run it (the docs/divergences.md heading says why). */
  notServed?: string;
}

const REGEX_DIVERGENCE = 'A Java regex JavaScript cannot run exactly leaves its context unstarted';
const DNS_DIVERGENCE = 'A host name in RemoteCIDRFilter leaves its context unstarted';
const F: Outcome = 'fails';
const S: Outcome = 'starts';
/** What Tomcat 10.1.60 did with each fixture (observed), and where tollgate must report it. */
const CASES: Record<string, Case> = {
  // RemoteCIDRFilter: NetMask refuses the value; unknown parameters are fatal (FilterBase, isConfigProblemFatal).
  'cidr-prefix-too-long': { expect: F },
  'cidr-prefix-v6-too-long': { expect: F },
  'cidr-bad-address': { expect: F },
  'cidr-unknown-param': { expect: F },
  'cidr-no-prefix': { expect: S },
  'cidr-clean': { expect: S },
  // RemoteAddrFilter / RemoteHostFilter: java.util.regex syntax, int setters, unknown parameters fatal.
  'addr-bad-regex': { expect: F },
  'addr-java-bad-repeat': { expect: F },
  'addr-unknown-param': { expect: F },
  'addr-deny-status-nan': { expect: F },
  'addr-possessive': { expect: S, notServed: REGEX_DIVERGENCE },
  'addr-posix-class': { expect: S },
  'addr-empty-allow': { expect: S },
  'addr-clean': { expect: S },
  'addr-ipv6-condensed-only': { expect: S, deliberate: 'remote-addr-ipv6-form' },
  'host-bad-regex': { expect: F },
  'host-clean': { expect: S },
  // CorsFilter: '*' with credentials and a non-numeric max age stop it; unknown parameters are ignored silently.
  'cors-any-origin-credentials': { expect: F },
  'cors-any-origin-credentials-upper': { expect: F },
  'cors-any-origin-credentials-padded': { expect: F },
  'cors-preflight-maxage-nan': { expect: F },
  'cors-any-origin': { expect: S },
  'cors-origin-not-url': { expect: S },
  'cors-unknown-param': { expect: S },
  'cors-credentials-yes': { expect: S },
  'cors-request-decorate-nan': { expect: S },
  'cors-maxage-negative': { expect: S },
  'cors-clean': { expect: S },
  'cors-allowed-headers-star': { expect: S, deliberate: 'cors-allowed-headers-wildcard' },
  'cors-no-origins': { expect: S, deliberate: 'cors-no-allowed-origins' },
  // ExpiresFilter: the rule language and status codes are parsed in init; unknown parameters are logged.
  'expires-bad-syntax': { expect: F },
  'expires-unknown-unit': { expect: F },
  'expires-bad-base': { expect: F },
  'expires-missing-amount': { expect: F },
  'expires-excluded-status-nan': { expect: F },
  'expires-unknown-param': { expect: S },
  'expires-clean': { expect: S },
  // HttpHeaderSecurityFilter: option names, ALLOW-FROM needs a valid URI, ints; booleans as Boolean.parseBoolean.
  'hhs-allow-from-no-uri': { expect: F },
  'hhs-allow-from-bad-uri': { expect: F },
  'hhs-bad-option': { expect: F },
  'hhs-max-age-nan': { expect: F },
  'hhs-unknown-param': { expect: F },
  'hhs-allow-from-uri': { expect: S },
  'hhs-option-lowercase': { expect: S },
  'hhs-boolean-yes': { expect: S },
  'hhs-max-age-negative': { expect: S },
  'hhs-clean': { expect: S },
  // Charsets: AddDefaultCharsetFilter checks its charset in init, SetCharacterEncodingFilter only per request.
  'adc-unknown-charset': { expect: F },
  'adc-system': { expect: S },
  'adc-java-alias': { expect: S },
  'setenc-unknown-charset': { expect: S },
  'setenc-unknown-param': { expect: S },
  'setenc-ignore-yes': { expect: S },
  'setenc-clean': { expect: S },
  // CSRF filters: randomClass, ints, unknown parameters fatal.
  'csrf-unknown-param': { expect: F },
  'csrf-random-not-random': { expect: F },
  'csrf-cache-size-nan': { expect: F },
  'csrf-deny-status-nan': { expect: F },
  'csrf-clean': { expect: S },
  'restcsrf-unknown-param': { expect: F },
  'restcsrf-random-missing': { expect: F },
  'restcsrf-clean': { expect: S },
  // RemoteIpFilter: regexes and ports read in init; unknown parameters ignored.
  'remoteip-bad-regex': { expect: F },
  'remoteip-trusted-bad-regex': { expect: F },
  'remoteip-port-nan': { expect: F },
  'remoteip-unknown-param': { expect: S },
  'remoteip-boolean-yes': { expect: S },
  'remoteip-clean': { expect: S },
  'remoteip-after-addr-filter': { expect: S, at: 'mapping', deliberate: 'remote-ip-after-address-filter' },
  // RateLimitFilter, FailedRequestFilter: fatal config problems.
  'ratelimit-requests-nan': { expect: F },
  'ratelimit-status-nan': { expect: F },
  'ratelimit-unknown-param': { expect: F },
  'ratelimit-clean': { expect: S },
  'failedrequest-unknown-param': { expect: F },
  'failedrequest-clean': { expect: S },
  // Filters without parameters, or logging the ones they do not know.
  'requestdumper-param': { expect: S },
  'sessioninit-clean': { expect: S },
  'webdavfix-clean': { expect: S },
  // Classes.
  'unknown-filter-class': { expect: F },
  'class-wrong-package': { expect: F },
  'filter-without-class': { expect: F },
  // Declarations and mappings.
  'duplicate-filter-name': { expect: F },
  'unmapped-bad-filter': { expect: F },
  'filter-param-duplicate': { expect: S },
  'async-supported-maybe': { expect: S },
  'mapping-undefined-filter': { expect: F, at: 'mapping' },
  'mapping-bad-url-pattern': { expect: F, at: 'mapping' },
  'mapping-unknown-dispatcher': { expect: S },
  // Edge values: empty strings, overflowing numbers, zero statuses, Java-only regex constructs, host names.
  'expires-by-type-empty': { expect: F },
  'expires-excluded-status-empty': { expect: S },
  'expires-bare-type-prefix': { expect: S },
  'cidr-allow-and-deny': { expect: S },
  'cidr-empty-entry': { expect: S },
  'cidr-hostname': { expect: S, notServed: DNS_DIVERGENCE },
  'hhs-xss-enabled': { expect: S },
  'hhs-allow-from-relative-uri': { expect: S },
  'hhs-max-age-overflow': { expect: F },
  'ratelimit-expose-yes': { expect: S },
  'ratelimit-duration-zero': { expect: F },
  'ratelimit-status-message': { expect: S },
  'cors-methods-empty': { expect: S },
  'cors-origins-spaces': { expect: S },
  'cors-maxage-overflow': { expect: S },
  'setenc-empty-encoding': { expect: S },
  'adc-empty-encoding': { expect: S },
  'remoteip-empty-header': { expect: S },
  'remoteip-port-negative': { expect: S },
  'remoteip-proxies-empty': { expect: S },
  'csrf-param-name-empty': { expect: S },
  'csrf-no-nonce-patterns': { expect: F },
  'csrf-enforce-maybe': { expect: S },
  'restcsrf-deny-status-zero': { expect: S },
  'addr-deny-status-zero': { expect: S },
  'addr-invalid-auth-status': { expect: F },
  'addr-atomic-group': { expect: S, notServed: REGEX_DIVERGENCE },
  'addr-inline-flag': { expect: S },
  'host-addr-lookups': { expect: F },
  'failedrequest-param': { expect: F },
};

const LINT_FIXTURES = join(FIXTURES, 'lint');
const DIVERGENCES = readFileSync(join(FIXTURES, '..', '..', '..', 'docs', 'divergences.md'), 'utf8');
const DELIBERATE_HEADING = '### Lint errors on some configurations Tomcat starts';

let base: string;
let tomcat: Side & { stop(): Promise<void> };
let diagnostics: Diagnostic[];
/** Context paths `tollgate serve` and compile run (planBase). */
let served: Set<string>;
const observed = new Map<string, { status: number; refused: boolean }>();
/** Per case: its web.xml and the spans of its <filter> and <filter-mapping> elements. */
const declarations = new Map<string, { file: string; filters: Span[]; mappings: Span[] }>();

describe('lint agrees with what Tomcat 10.1 starts and refuses', () => {
  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'tollgate-conf-lint-'));
    cpSync(join(LINT_FIXTURES, 'conf'), join(base, 'conf'), { recursive: true });
    mkdirSync(join(base, 'webapps'));
    for (const id of Object.keys(CASES))
      cpSync(join(LINT_FIXTURES, id), join(base, 'webapps', id), { recursive: true });

    tomcat = await startTomcatOnly(base);
    const log = tomcat.log();
    for (const id of Object.keys(CASES)) {
      const r = await send(tomcat, { path: `/${id}/index.html` });
      // A context whose filters fail to start logs this; one whose descriptor is refused fails to deploy.
      const refused =
        log.includes(`Context [/${id}] startup failed due to previous errors`) ||
        log.includes(`StandardContext[/${id}]]`);
      observed.set(id, { status: r.status, refused });
    }

    const loaded = loadInput(base);
    diagnostics = lintBase(loaded).diagnostics;
    served = new Set(planBase(loaded).plans.map((p) => p.contextPath));
    for (const { context } of contextsOf(loaded)) {
      const id = context.path.slice(1);
      if (!context.webXml) continue;
      declarations.set(id, {
        file: context.webXml.file,
        filters: context.webXml.filters.map((f) => f.span),
        mappings: context.webXml.filterMappings.map((m) => m.span),
      });
    }
  });

  afterAll(async () => {
    await tomcat?.stop();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('every fixture directory is in the table, and the table covers at least 30 cases each way', () => {
    const dirs = readdirSync(LINT_FIXTURES).filter((d) => d !== 'conf' && d !== 'global-merge');
    expect(dirs.sort()).toEqual(Object.keys(CASES).sort());
    const outcomes = Object.values(CASES).map((c) => c.expect);
    expect(outcomes.filter((o) => o === 'fails').length).toBeGreaterThanOrEqual(30);
    expect(outcomes.filter((o) => o === 'starts').length).toBeGreaterThanOrEqual(30);
  });

  it('the built CLI (tollgate lint --format json) reports the same errors as the engine', () => {
    const r = spawnSync(
      process.execPath,
      [join(REPO, 'bin', 'tollgate.js'), 'lint', '--format', 'json', '--quiet', base],
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    expect(r.status, r.stderr).toBe(1);
    const results = JSON.parse(r.stdout) as {
      filePath: string;
      messages: { ruleId: string; severity: number; line: number }[];
    }[];
    const cli = results.flatMap((f) =>
      f.messages.filter((m) => m.severity === 2).map((m) => `${f.filePath}:${m.line} ${m.ruleId}`),
    );
    const api = diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.span.file}:${d.span.line} ${d.ruleId}`);
    expect(cli.sort()).toEqual(api.sort());
  });

  it.each(Object.entries(CASES))('%s', (id, c) => {
    recordStep('lint-agreement', id);
    const o = observed.get(id)!;
    // What Tomcat did: started (the context answers, nothing logged) or refused (404 and a failure logged).
    // A started context may still refuse the request itself (a CSRF filter answers 403 without a nonce).
    const tomcatOutcome: Outcome | 'inconsistent' =
      o.status !== 404 && !o.refused ? 'starts' : o.status === 404 && o.refused ? 'fails' : 'inconsistent';
    expect(tomcatOutcome, `Tomcat answered ${o.status}, failure logged: ${o.refused}`).toBe(c.expect);

    const decl = declarations.get(id);
    expect(decl, `tollgate found no web.xml for /${id}`).toBeDefined();
    const errors = diagnostics.filter((d) => d.severity === 'error' && d.span.file === decl!.file);
    // Errors are of two kinds (docs/severity.md): Tomcat refuses to start, or starts and misbehaves. Only the first kind must agree with Tomcat's refusal.
    const refusals = errors.filter((d) => refusesStart(d));
    const show = (ds: Diagnostic[]) => ds.map((d) => `${d.ruleId}@${d.span.line}: ${d.message}`).join('\n') || '(none)';
    const inside = (d: Diagnostic, spans: Span[]) =>
      spans.some((s) => d.span.line >= s.line && d.span.endLine <= s.endLine);
    const where = c.at === 'mapping' ? decl!.mappings : decl!.filters;

    // serve and compile: run exactly what Tomcat starts (lint errors do not stop them), but for the documented divergences.
    const notServed = c.notServed;
    if (notServed) expect(DIVERGENCES).toContain(`### ${notServed}\n`);
    expect(served.has(`/${id}`), `tollgate serve ${served.has(`/${id}`) ? 'runs' : 'does not run'} /${id}`).toBe(
      c.expect === 'starts' && notServed === undefined,
    );

    if (c.expect === 'fails') {
      expect(
        refusals.filter((d) => inside(d, where)).length,
        `Tomcat refused /${id}; tollgate's refusals:\n${show(errors)}`,
      ).toBeGreaterThan(0);
    } else if (c.deliberate) {
      // Tomcat starts it; tollgate reports it as an error on purpose, and says so in docs/divergences.md.
      expect(errors.map((d) => d.ruleId)).toEqual([c.deliberate]);
      expect(errors.every((d) => inside(d, where))).toBe(true);
      const section = DIVERGENCES.slice(DIVERGENCES.indexOf(DELIBERATE_HEADING));
      expect(DIVERGENCES).toContain(DELIBERATE_HEADING);
      expect(section.slice(0, section.indexOf('\n## ') === -1 ? undefined : section.indexOf('\n## '))).toContain(
        `\`${c.deliberate}\``,
      );
    } else {
      expect(refusals, `Tomcat started /${id}; tollgate says it refuses:\n${show(refusals)}`).toEqual([]);
    }
  });
});

/**
 * Applications that redefine filters of conf/web.xml (fixtures/lint/global-merge):
 * the global "headers" filter has an invalid hstsMaxAgeSeconds, "cors" allows any
 * origin. A same-named application filter replaces the global one and inherits the
 * init-params (and class) it does not set.
 */
const GLOBAL_CASES: Record<string, Outcome> = {
  '': F, // ROOT, no descriptor: the invalid global filter
  '/no-descriptor-filters': F,
  '/headers-fixed': S,
  '/headers-fixed-without-class': S, // the class is inherited
  '/headers-class-only': F, // inherits the invalid value
  '/headers-fixed-allow-from': F,
  '/cors-credentials-inherits-any-origin': F, // credentials with the inherited "*"
  '/cors-maxage-inherits-origins': S,
  '/cors-own-origins-with-credentials': S,
};

describe('lint and serve agree with Tomcat 10.1 on applications that redefine conf/web.xml filters', () => {
  const fixture = join(LINT_FIXTURES, 'global-merge');
  let side: Side & { stop(): Promise<void> };
  const status = new Map<string, { status: number; refused: boolean }>();
  let errors: Diagnostic[];
  let planned: Set<string>;
  let loaded: ReturnType<typeof loadInput>;

  beforeAll(async () => {
    side = await startTomcatOnly(fixture);
    const log = side.log();
    for (const path of Object.keys(GLOBAL_CASES)) {
      const r = await send(side, { path: `${path}/index.html` });
      status.set(path, {
        status: r.status,
        refused: log.includes(`Context [${path}] startup failed due to previous errors`),
      });
    }
    loaded = loadInput(fixture);
    errors = lintBase(loaded).diagnostics.filter((d) => d.severity === 'error');
    planned = new Set(planBase(loaded).plans.map((p) => p.contextPath));
  });
  afterAll(async () => {
    await side?.stop();
  });

  it('the table covers every application of the fixture', () => {
    expect(
      contextsOf(loaded)
        .map((c) => c.context.path)
        .sort(),
    ).toEqual(Object.keys(GLOBAL_CASES).sort());
  });

  it.each(Object.entries(GLOBAL_CASES))('%s', (path, expected) => {
    recordStep('lint-agreement', `conf/web.xml merge ${path || '/'}`);
    const o = status.get(path)!;
    const tomcatOutcome =
      o.status === 200 && !o.refused ? 'starts' : o.status === 404 && o.refused ? 'fails' : 'inconsistent';
    expect(tomcatOutcome, `Tomcat answered ${o.status}, failure logged: ${o.refused}`).toBe(expected);
    const c = contextsOf(loaded).find((x) => x.context.path === path)!;
    const own = c.context.webXml;
    // The global filters this application replaces: their own errors are not this application's.
    const replaced = (loaded.globalWebXml?.filters ?? [])
      .filter((def) => c.merged.filters.get(def.name.value)?.def !== def)
      .map((def) => def.span);
    const globalFile = loaded.globalWebXml!.file;
    const mine = errors.filter(
      (d) =>
        (own !== null && d.span.file === own.file) ||
        (d.span.file === globalFile &&
          !replaced.some((s) => d.span.offset >= s.offset && d.span.endOffset <= s.endOffset)),
    );
    const inFilter = (d: Diagnostic) =>
      [...(own?.filters ?? []), ...(loaded.globalWebXml?.filters ?? [])].some(
        (f) => d.span.file === f.span.file && d.span.line >= f.span.line && d.span.endLine <= f.span.endLine,
      );
    if (expected === 'fails')
      expect(
        mine.filter(inFilter).length,
        `Tomcat refused ${path || '/'}; no tollgate error applies to it`,
      ).toBeGreaterThan(0);
    else expect(mine.map((d) => `${d.ruleId}@${d.span.file}:${d.span.line}`)).toEqual([]);
    expect(planned.has(path), `tollgate serve ${planned.has(path) ? 'runs' : 'does not run'} ${path || '/'}`).toBe(
      expected === 'starts',
    );
  });
});
