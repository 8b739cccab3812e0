import { describe, expect, it } from 'vitest';
import { filterSpecById, suggestParam, validateFilterDef } from '../../src/filters/index.js';
import { parseWebXml } from '../../src/parser/index.js';
import { filterXml, validate } from './helpers.js';

describe('validateFilterDef: what it returns', () => {
  it('gives the typed config and no diagnostic for a clean definition', () => {
    const v = validate('RemoteAddrFilter', { allow: '127\\.0\\.0\\.1', denyStatus: '404' });
    expect(v.diagnostics).toEqual([]);
    expect(v.spec?.id).toBe('remote-addr');
    expect(v.config).toMatchObject({ denyStatus: 404, allow: { java: '127\\.0\\.0\\.1' } });
  });

  it('has nothing to say about classes that are not container filters', () => {
    const def = parseWebXml(
      '<web-app><filter><filter-name>x</filter-name><filter-class>com.example.Mine</filter-class><init-param><param-name>a</param-name><param-value>b</param-value></init-param></filter></web-app>',
      'w',
    ).webXml!.filters[0]!;
    expect(validateFilterDef(def)).toEqual({ spec: null, config: null, diagnostics: [], refusals: [] });
    const noClass = parseWebXml('<web-app><filter><filter-name>x</filter-name></filter></web-app>', 'w').webXml!
      .filters[0]!;
    expect(validateFilterDef(noClass)).toEqual({ spec: null, config: null, diagnostics: [], refusals: [] });
  });

  it('has no config when any problem stops Tomcat, even an unknown parameter', () => {
    const v = validate('HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '31536000', hstsMaxAge: '1' });
    expect(v.only('filter-param-unknown').severity).toBe('error');
    expect(v.config).toBeNull();
  });
});

describe('unknown parameter names', () => {
  it('suggests the closest name and offers a rename when there is one clear match', () => {
    const v = validate('CorsFilter', { 'cors.allowed.origin': 'https://a.example' });
    const d = v.only('filter-param-unknown');
    expect(d.severity).toBe('warning');
    expect(d.message).toBe(
      'CorsFilter has no parameter "cors.allowed.origin": CorsFilter ignores it silently. Did you mean "cors.allowed.origins"?',
    );
    expect(v.at(d)).toBe('cors.allowed.origin');
    expect(d.fix).toEqual([
      { file: d.span.file, offset: d.span.offset, endOffset: d.span.endOffset, text: 'cors.allowed.origins' },
    ]);
  });

  it('matches case-insensitively first, then by edit distance, then a truncated name', () => {
    expect(suggestParam('HSTSENABLED', ['hstsEnabled', 'hstsPreload'])).toEqual(['hstsEnabled']);
    expect(suggestParam('hstsPreloda', ['hstsEnabled', 'hstsPreload'])).toEqual(['hstsPreload']);
    expect(suggestParam('hstsMaxAge', ['hstsMaxAgeSeconds', 'hstsEnabled'])).toEqual(['hstsMaxAgeSeconds']);
    expect(suggestParam('cors.allowed', ['cors.allowed.origins', 'cors.allowed.methods'])).toEqual([]);
    expect(suggestParam('zzz', ['allow', 'deny'])).toEqual([]);
  });

  it('offers no fix when two names are equally close', () => {
    const v = validate('RemoteIpFilter', { httpxServerPort: '80' });
    const d = v.only('filter-param-unknown');
    expect(d.message).toContain('Did you mean "httpServerPort" or "httpsServerPort"?');
    expect(d.fix).toBeUndefined();
  });

  it('is an error for FilterBase filters whose isConfigProblemFatal is true, a warning where Tomcat logs or ignores it', () => {
    expect(validate('HttpHeaderSecurityFilter', { hstsMaxAgeSecond: '1' }).only('filter-param-unknown').severity).toBe(
      'error',
    );
    expect(
      validate('RemoteCIDRFilter', { allow: '::1', denyStatus: '404' }).only('filter-param-unknown').severity,
    ).toBe('error');
    expect(validate('FailedRequestFilter', { anything: 'x' }).only('filter-param-unknown').severity).toBe('error');
    expect(validate('SetCharacterEncodingFilter', { encodng: 'UTF-8' }).only('filter-param-unknown').message).toContain(
      'Tomcat ignores it with a warning in the log',
    );
    expect(validate('RemoteIpFilter', { remoteIPHeader: 'x' }).only('filter-param-unknown').severity).toBe('warning');
  });

  it('accepts a FilterBase name whose first letter has the other case, as IntrospectionUtils does', () => {
    const v = validate('HttpHeaderSecurityFilter', { HstsMaxAgeSeconds: '31536000' });
    expect(v.diagnostics).toEqual([]);
    expect(v.config).toMatchObject({ hstsMaxAgeSeconds: 31536000 });
    expect(validate('HttpHeaderSecurityFilter', { hstsmaxageseconds: '1' }).only('filter-param-unknown').severity).toBe(
      'error',
    );
    // CorsFilter and RemoteIpFilter ask for exact names.
    expect(validate('RemoteIpFilter', { RemoteIpHeader: 'x' }).only('filter-param-unknown').fix?.[0]?.text).toBe(
      'remoteIpHeader',
    );
  });

  it('recognises spellings from old samples that Tomcat never reads (remoteIpProxiesHeader, allowedInternalProxies)', () => {
    for (const [given, meant] of [
      ['remoteIpProxiesHeader', 'proxiesHeader'],
      ['allowedInternalProxies', 'internalProxies'],
    ]) {
      const d = validate('RemoteIpFilter', { [given!]: 'x' }).only('filter-param-unknown');
      expect(d.message).toContain('old documentation samples');
      expect(d.fix?.[0]?.text).toBe(meant);
    }
  });

  it('says that RemoteIpFilter never reads requestAttributesEnabled, and keeps the attributes on', () => {
    const v = validate('RemoteIpFilter', { requestAttributesEnabled: 'false' });
    expect(v.only('filter-param-unknown').message).toMatch(/never reads requestAttributesEnabled/);
    expect(v.config).toMatchObject({ requestAttributesEnabled: true });
  });
});

describe('duplicates', () => {
  it('keeps the first of two init-params with the same name (FilterDef.addInitParameter) and warns on the second', () => {
    const v = validate('RemoteAddrFilter', [
      ['allow', 'a'],
      ['allow', 'b'],
    ]);
    const d = v.only('filter-param-duplicate');
    expect(d.severity).toBe('warning');
    expect(v.at(d)).toBe('allow');
    expect(d.span.offset).toBe(v.text.lastIndexOf('allow'));
    expect(v.text.slice(d.related![0]!.span.offset, d.related![0]!.span.endOffset)).toBe('a');
    expect(v.config).toMatchObject({ allow: { java: 'a' } });
  });

  it('warns when two spellings set the same property (order then depends on a hash map)', () => {
    const v = validate('HttpHeaderSecurityFilter', [
      ['hstsEnabled', 'true'],
      ['HstsEnabled', 'false'],
    ]);
    expect(v.only('filter-param-duplicate').message).toContain('hash order');
  });
});

describe('spans point inside the value', () => {
  it('at the bad CIDR entry', () => {
    const v = validate('RemoteCIDRFilter', { allow: '10.0.0.0/8, 192.168.0.0/33' });
    const d = v.only('filter-param-cidr');
    expect(d.severity).toBe('error');
    expect(v.at(d)).toBe('192.168.0.0/33');
  });

  it('at the regex construct', () => {
    const v = validate('RemoteAddrFilter', { allow: '127\\.0\\.0\\.1|(?>x)' });
    const d = v.only('filter-param-regex');
    expect(v.at(d)).toBe('(?>');
    expect(d.severity).toBe('warning');
    expect(d.message).toContain('Tomcat accepts the pattern, but tollgate cannot run it');
    expect(v.config).toBeNull();
  });

  it('at a Java syntax error, as an error', () => {
    const v = validate('RemoteIpFilter', { internalProxies: '10\\.0\\.0\\.1|(192' });
    const d = v.only('filter-param-regex');
    expect(d.severity).toBe('error');
    expect(d.span.offset).toBeGreaterThan(v.text.indexOf('10\\.0'));
  });

  it('on the right line of a value that spans lines', () => {
    const text =
      '<web-app><filter><filter-name>c</filter-name><filter-class>org.apache.catalina.filters.RemoteCIDRFilter</filter-class>\n<init-param><param-name>allow</param-name><param-value>10.0.0.0/8,\n  ::1,\n  300.1.1.1</param-value></init-param></filter></web-app>';
    const def = parseWebXml(text, 'w').webXml!.filters[0]!;
    const d = validateFilterDef(def).diagnostics.find((x) => x.ruleId === 'filter-param-cidr')!;
    expect(text.slice(d.span.offset, d.span.endOffset)).toBe('300.1.1.1');
    expect([d.span.line, d.span.column, d.span.endLine, d.span.endColumn]).toEqual([4, 3, 4, 12]);
  });

  it("on the whole value when it was written with entities (the text is no longer the file's)", () => {
    const text =
      '<web-app><filter><filter-name>c</filter-name><filter-class>org.apache.catalina.filters.RemoteAddrFilter</filter-class><init-param><param-name>allow</param-name><param-value>&#40;x</param-value></init-param></filter></web-app>';
    const def = parseWebXml(text, 'w').webXml!.filters[0]!;
    const d = validateFilterDef(def).diagnostics.find((x) => x.ruleId === 'filter-param-regex')!;
    expect(text.slice(d.span.offset, d.span.endOffset)).toBe('&#40;x');
  });

  it("at a cross-parameter problem's deciding parameter", () => {
    const v = validate('CorsFilter', { 'cors.allowed.origins': '*', 'cors.support.credentials': 'true' });
    const d = v.only('cors-credentials-with-any-origin');
    expect(d.severity).toBe('error');
    expect(v.at(d)).toBe('true');
  });

  it('at the filter class when the problem is a missing parameter', () => {
    const v = validate('RemoteAddrFilter', {});
    const d = v.only('filter-denies-everything');
    expect(v.at(d)).toBe('org.apache.catalina.filters.RemoteAddrFilter');
  });
});

describe('boolean spellings', () => {
  it('reports that "yes" is false as an error Tomcat starts with, and offers no automatic fix (it would change what Tomcat runs)', () => {
    const v = validate('SetCharacterEncodingFilter', { encoding: 'UTF-8', ignore: 'yes' });
    const d = v.only('filter-param-boolean-spelling');
    expect(d).toMatchObject({ severity: 'error', effect: 'misbehaves' });
    expect(d.message).toContain('Tomcat reads "yes" as false');
    expect(d.fix).toBeUndefined();
    expect(v.config).toMatchObject({ ignore: false });
  });

  it('only notes "off" (false, as meant), with a fix that keeps the meaning; warns about a value that says neither', () => {
    const off = validate('SetCharacterEncodingFilter', { encoding: 'UTF-8', ignore: 'off' }).only(
      'filter-param-boolean-spelling',
    );
    expect(off.severity).toBe('info');
    expect(off.fix?.[0]?.text).toBe('false');
    expect(
      validate('SetCharacterEncodingFilter', { encoding: 'UTF-8', ignore: 'maybe' }).only(
        'filter-param-boolean-spelling',
      ).severity,
    ).toBe('warning');
  });

  it('normalises the case of TRUE/False with a fix that keeps the meaning', () => {
    const v = validate('SetCharacterEncodingFilter', { encoding: 'UTF-8', ignore: 'TRUE' });
    const d = v.only('filter-param-boolean-spelling');
    expect(d.severity).toBe('info');
    expect(d.fix?.[0]?.text).toBe('true');
    expect(v.at(d)).toBe('TRUE');
    expect(v.config).toMatchObject({ ignore: true });
  });

  it('says nothing about true and false', () => {
    expect(validate('SetCharacterEncodingFilter', { encoding: 'UTF-8', ignore: 'false' }).diagnostics).toEqual([]);
  });
});

describe('--target', () => {
  it('reports filters that do not exist in the target', () => {
    for (const cls of ['FailedRequestFilter', 'WebdavFixFilter']) {
      expect(validate(cls, {}, '11.0').only('filter-not-in-target').severity).toBe('error');
      expect(validate(cls, {}, '10.1').diagnostics).toEqual([]);
      expect(validate(cls, {}, '9.0').diagnostics).toEqual([]);
    }
  });

  it('treats a parameter gone in the target like an unknown one of that filter', () => {
    const on11 = validate('HttpHeaderSecurityFilter', { xssProtectionEnabled: 'true' }, '11.0');
    expect(on11.only('filter-param-not-in-target').severity).toBe('error');
    expect(on11.config).toBeNull();
    const on10 = validate('HttpHeaderSecurityFilter', { xssProtectionEnabled: 'true' }, '10.1');
    expect(on10.only('filter-param-not-in-target').severity).toBe('info');
    expect(on10.config).toMatchObject({ xssProtectionEnabled: true });
  });

  it('notes that Tomcat 11 reads a proxies value with "/" as CIDR masks, and that 10.1 reads masks as a regex matching nothing', () => {
    expect(
      validate('RemoteIpFilter', { internalProxies: '10.0.0.0/8, 192.168.0.0/16' }, '11.0').only(
        'filter-param-not-in-target',
      ).severity,
    ).toBe('warning');
    const on10 = validate('RemoteIpFilter', { internalProxies: '10.0.0.0/8, 192.168.0.0/16' });
    expect(on10.only('filter-param-no-effect').message).toContain('matches no address');
  });
});

describe('the same config from web.xml strings and from JSON', () => {
  it('a FilterDef and the schema agree', () => {
    const { def } = filterXml('CorsFilter', {
      'cors.allowed.origins': 'https://a.example, https://b.example',
      'cors.support.credentials': 'true',
      'cors.preflight.maxage': '600',
    });
    const fromXml = validateFilterDef(def).config;
    const fromJson = filterSpecById('cors')!.schema.parse({
      'cors.allowed.origins': ['https://a.example', 'https://b.example'],
      'cors.support.credentials': true,
      'cors.preflight.maxage': 600,
    });
    expect(fromJson).toEqual(fromXml);
  });
});

describe('many findings in one value', () => {
  it('lists the first 50 of a rule in a parameter and counts the rest in one more, at the worst severity', () => {
    const { diagnostics, config } = validate('CsrfPreventionFilter', {
      noNonceURLPatterns: Array.from({ length: 200 }, () => 'a').join(','),
    });
    const invalid = diagnostics.filter((d) => d.ruleId === 'filter-param-invalid');
    expect(invalid).toHaveLength(51);
    expect(invalid.slice(0, 50).every((d) => d.message.includes('"a" is not a pattern'))).toBe(true);
    expect(invalid[50]!.message).toMatch(/^noNonceURLPatterns: 150 more problems like the 50 above in this value/);
    expect(invalid[50]!.severity).toBe('error');
    expect(config).toBeNull();
  });

  it('lists every finding up to 50', () => {
    const { diagnostics } = validate('CsrfPreventionFilter', {
      noNonceURLPatterns: Array.from({ length: 50 }, () => 'a').join(','),
    });
    expect(diagnostics.filter((d) => d.ruleId === 'filter-param-invalid')).toHaveLength(50);
  });
});
