import { Ajv } from 'ajv';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { FILTER_SPECS, filterSpecById, findFilterSpec, parseExpiresRule, validateFilterDef } from '../../src/filters/index.js';
import { parseWebXml } from '../../src/parser/index.js';

function parse(id: string, params: Record<string, unknown>): unknown {
  return filterSpecById(id)!.schema.parse(params as Record<string, string>);
}

function validate(simpleClass: string, params: Record<string, string>) {
  const body = Object.entries(params).map(([k, v]) => `<init-param><param-name>${k}</param-name><param-value>${v}</param-value></init-param>`).join('');
  const text = `<web-app><filter><filter-name>f</filter-name><filter-class>org.apache.catalina.filters.${simpleClass}</filter-class>${body}</filter></web-app>`;
  const def = parseWebXml(text, 'web.xml').webXml!.filters[0]!;
  return { ...validateFilterDef(def), text };
}

describe('filter registry', () => {
  it('knows all sixteen filters under both class-name prefixes', () => {
    expect(FILTER_SPECS).toHaveLength(16);
    for (const s of FILTER_SPECS) {
      expect(findFilterSpec(`org.apache.catalina.filters.${s.simpleName}`)).toBe(s);
      expect(findFilterSpec(`org.vendor.container.filters.${s.simpleName}`)).toBe(s);
    }
  });

  it('every filter has a config with all defaults when given no parameter', () => {
    for (const s of FILTER_SPECS) expect(() => s.schema.parse({})).not.toThrow();
  });

  it('every schema becomes a draft-07 JSON Schema that ajv compiles in strict mode', () => {
    // zod writes string-or-boolean values as a type list, which strict mode wants allowed explicitly.
    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    for (const s of FILTER_SPECS) {
      const json = z.toJSONSchema(s.inputSchema, { target: 'draft-7', io: 'input', unrepresentable: 'any' });
      expect(() => ajv.compile(json), s.id).not.toThrow();
    }
  });
});

describe('defaults are Tomcat 10.1\'s', () => {
  it('CorsFilter', () => {
    expect(parse('cors', {})).toEqual({
      anyOrigin: false, allowedOrigins: [], allowedMethods: ['GET', 'POST', 'HEAD', 'OPTIONS'],
      allowedHeaders: ['origin', 'accept', 'x-requested-with', 'content-type', 'access-control-request-method', 'access-control-request-headers'],
      exposedHeaders: [], supportsCredentials: false, preflightMaxAge: 1800, decorateRequest: true,
    });
  });
  it('HttpHeaderSecurityFilter', () => {
    expect(parse('http-header-security', {})).toMatchObject({ hstsEnabled: true, hstsMaxAgeSeconds: 0, hstsHeaderValue: 'max-age=0', antiClickJackingOption: 'DENY', blockContentTypeSniffingEnabled: true, xssProtectionEnabled: true });
  });
  it('CsrfPreventionFilter', () => {
    expect(parse('csrf-prevention', {})).toMatchObject({ denyStatus: 403, nonceCacheSize: 5, enforce: true, nonceRequestParameterName: 'org.apache.catalina.filters.CSRF_NONCE', randomClass: 'java.security.SecureRandom' });
  });
  it('RemoteIpFilter', () => {
    const c = parse('remote-ip', {}) as Record<string, unknown>;
    expect(c).toMatchObject({ remoteIpHeader: 'x-forwarded-for', proxiesHeader: 'X-Forwarded-By', protocolHeader: 'x-forwarded-proto', httpServerPort: 80, httpsServerPort: 443, requestAttributesEnabled: true });
    const re = c['internalProxies'] as { source: string; flags: string };
    const rx = new RegExp(re.source, re.flags);
    for (const a of ['10.0.0.1', '192.168.1.1', '127.0.0.1', '172.16.0.1', '0:0:0:0:0:0:0:1', 'fd12:3456::1', '100.64.0.1']) expect(rx.test(a), a).toBe(true);
    for (const a of ['8.8.8.8', '172.32.0.1', '1.10.0.0.1']) expect(rx.test(a), a).toBe(false);
  });
  it('RateLimitFilter', () => {
    expect(parse('rate-limit', {})).toMatchObject({ bucketDuration: 60, bucketRequests: 300, enforce: true, statusCode: 429, statusMessage: 'Too many requests', exposeHeaders: false });
  });
  it('AddDefaultCharsetFilter maps default and unset to ISO-8859-1', () => {
    expect(parse('add-default-charset', {})).toEqual({ encoding: 'ISO-8859-1' });
    expect(parse('add-default-charset', { encoding: 'default' })).toEqual({ encoding: 'ISO-8859-1' });
    expect(parse('add-default-charset', { encoding: 'utf8' })).toEqual({ encoding: 'UTF-8' });
  });
});

describe('values are read as Tomcat reads them', () => {
  it('booleans: only a case-insensitive "true" is true; JSON booleans too', () => {
    expect((parse('set-character-encoding', { ignore: 'TRUE' }) as { ignore: boolean }).ignore).toBe(true);
    expect((parse('set-character-encoding', { ignore: 'yes' }) as { ignore: boolean }).ignore).toBe(false);
    expect((parse('set-character-encoding', { ignore: true }) as { ignore: boolean }).ignore).toBe(true);
  });
  it('integers: Integer.valueOf, from strings or JSON numbers', () => {
    expect((parse('csrf-prevention', { nonceCacheSize: '10' }) as { nonceCacheSize: number }).nonceCacheSize).toBe(10);
    expect((parse('csrf-prevention', { nonceCacheSize: 7 }) as { nonceCacheSize: number }).nonceCacheSize).toBe(7);
    expect(filterSpecById('csrf-prevention')!.schema.safeParse({ nonceCacheSize: '1e3' }).success).toBe(false);
    expect(filterSpecById('csrf-prevention')!.schema.safeParse({ nonceCacheSize: '99999999999' }).success).toBe(false);
  });
  it('lists: comma-separated strings or JSON arrays', () => {
    expect((parse('rest-csrf-prevention', { pathsAcceptingParams: ' /a , /b,' }) as { pathsAcceptingParams: string[] }).pathsAcceptingParams).toEqual(['/a', '/b']);
    expect((parse('rest-csrf-prevention', { pathsAcceptingParams: ['/a'] }) as { pathsAcceptingParams: string[] }).pathsAcceptingParams).toEqual(['/a']);
  });
  it('charsets: Java names and historical aliases', () => {
    for (const [given, canonical] of [['ISO-8859-1', 'ISO-8859-1'], ['latin1', 'ISO-8859-1'], ['windows-1252', 'windows-1252'], ['Cp1252', 'windows-1252'], ['EUC_JP', 'EUC-JP'], ['utf-8', 'UTF-8']]) {
      expect((parse('set-character-encoding', { encoding: given }) as { encoding: string }).encoding).toBe(canonical);
    }
    expect(filterSpecById('set-character-encoding')!.schema.safeParse({ encoding: 'klingon' }).success).toBe(false);
  });
  it('HSTS: negative max-age counts as 0; the header value is built once', () => {
    expect(parse('http-header-security', { hstsMaxAgeSeconds: '-5', hstsIncludeSubDomains: 'true', hstsPreload: 'true' })).toMatchObject({ hstsMaxAgeSeconds: 0, hstsHeaderValue: 'max-age=0;includeSubDomains;preload' });
  });
  it('X-Frame-Options: case-insensitive options; ALLOW-FROM needs a URI', () => {
    expect(parse('http-header-security', { antiClickJackingOption: 'sameorigin' })).toMatchObject({ antiClickJackingHeaderValue: 'SAMEORIGIN' });
    expect(parse('http-header-security', { antiClickJackingOption: 'allow-from', antiClickJackingUri: 'https://a.example' })).toMatchObject({ antiClickJackingHeaderValue: 'ALLOW-FROM https://a.example' });
    expect(filterSpecById('http-header-security')!.schema.safeParse({ antiClickJackingOption: 'ALLOW-FROM', antiClickJackingUri: 'not a uri' }).success).toBe(false);
    expect(filterSpecById('http-header-security')!.schema.safeParse({ antiClickJackingOption: 'NEVER' }).success).toBe(false);
  });
  it('CORS: "*" is any origin; credentials with "*" are refused; a non-numeric max age is refused', () => {
    expect(parse('cors', { 'cors.allowed.origins': ' * ' })).toMatchObject({ anyOrigin: true, allowedOrigins: [] });
    expect(filterSpecById('cors')!.schema.safeParse({ 'cors.allowed.origins': '*', 'cors.support.credentials': 'true' }).success).toBe(false);
    expect(filterSpecById('cors')!.schema.safeParse({ 'cors.preflight.maxage': 'ten' }).success).toBe(false);
    expect(parse('cors', { 'cors.preflight.maxage': '' })).toMatchObject({ preflightMaxAge: 0 });
  });
  it('RemoteCIDRFilter: masks parsed, bad entries refused', () => {
    expect(parse('remote-cidr', { allow: '10.0.0.0/8, ::1' })).toMatchObject({ allow: [{ family: 4, prefix: 8 }, { family: 6, prefix: 128 }] });
    for (const bad of ['10.0.0.0/255.0.0.0', '10.0/16', 'localhost', '10.0.0.0/33', '::1/129']) {
      expect(filterSpecById('remote-cidr')!.schema.safeParse({ allow: bad }).success, bad).toBe(false);
    }
  });
});

describe('the ExpiresFilter rule language', () => {
  const units = ['year', 'month', 'week', 'day', 'hour', 'minute', 'second'] as const;
  for (const u of units) {
    it(`reads "${u}" and "${u}s"`, () => {
      expect(parseExpiresRule(`access plus 1 ${u}`)).toMatchObject({ ok: true, rule: { durations: [{ amount: 1, unit: u }] } });
      expect(parseExpiresRule(`access plus 2 ${u}s`)).toMatchObject({ ok: true, rule: { durations: [{ amount: 2, unit: u }] } });
    });
  }
  it('accepts now, modification, an optional "plus", several clauses and any case', () => {
    expect(parseExpiresRule('now 1 day')).toMatchObject({ ok: true, rule: { base: 'access' } });
    expect(parseExpiresRule('Modification PLUS 1 Month 2 Hours')).toMatchObject({ ok: true, rule: { base: 'modification', durations: [{ amount: 1, unit: 'month' }, { amount: 2, unit: 'hour' }] } });
  });
  it('reads the compact A<seconds> and M<seconds> forms', () => {
    expect(parseExpiresRule('A86400')).toMatchObject({ ok: true, rule: { base: 'access', durations: [{ amount: 86400, unit: 'second' }] } });
    expect(parseExpiresRule('m60')).toMatchObject({ ok: true, rule: { base: 'modification', durations: [{ amount: 60, unit: 'second' }] } });
  });
  for (const bad of ['', 'later plus 1 day', 'access', 'access plus', 'access plus one day', 'access plus 1', 'access plus 1 fortnight', 'A', 'Axyz']) {
    it(`refuses "${bad}"`, () => expect(parseExpiresRule(bad).ok).toBe(false));
  }
  it('keys ExpiresByType by lower-cased type, with ;charset and major types', () => {
    const c = parse('expires', { 'ExpiresByType text/HTML;charset=UTF-8': 'access plus 1 day', 'ExpiresByType image': 'A60', ExpiresDefault: 'access plus 1 minute', ExpiresExcludedResponseStatusCodes: '302, 500' }) as { byType: Record<string, unknown>; excludedStatusCodes: number[]; defaultRule: unknown };
    expect(Object.keys(c.byType).sort()).toEqual(['image', 'text/html;charset=utf-8']);
    expect(c.excludedStatusCodes).toEqual([302, 500]);
    expect(c.defaultRule).not.toBeNull();
  });
});

describe('validateFilterDef', () => {
  it('points an invalid value at the value\'s characters', () => {
    const { diagnostics, text } = validate('RemoteCIDRFilter', { allow: '10.0.0.0/8, 192.168/16' });
    const d = diagnostics.find((x) => x.ruleId === 'filter-param-cidr')!;
    expect(d.severity).toBe('error');
    expect(text.slice(d.span.offset, d.span.endOffset)).toBe('192.168/16');
  });
  it('points a regex problem at the construct inside the value', () => {
    const { diagnostics, text } = validate('RemoteAddrFilter', { allow: '127\\.0\\.0\\.1|(?>x)' });
    const d = diagnostics.find((x) => x.ruleId === 'filter-param-regex')!;
    expect(text.slice(d.span.offset, d.span.endOffset)).toBe('(?>');
  });
  it('suggests the closest parameter name and offers a fix when there is one clear match', () => {
    const { diagnostics } = validate('CorsFilter', { 'cors.allowed.origin': 'https://a.example' });
    const d = diagnostics.find((x) => x.ruleId === 'filter-param-unknown')!;
    expect(d.message).toContain('did you mean "cors.allowed.origins"');
    expect(d.severity).toBe('warning');
    expect(d.fix?.[0]?.text).toBe('cors.allowed.origins');
  });
  it('makes an unknown parameter an error where Tomcat refuses to start (FilterBase security filters)', () => {
    expect(validate('HttpHeaderSecurityFilter', { hstsMaxAge: '1' }).diagnostics.find((x) => x.ruleId === 'filter-param-unknown')!.severity).toBe('error');
    expect(validate('SetCharacterEncodingFilter', { encodng: 'UTF-8' }).diagnostics.find((x) => x.ruleId === 'filter-param-unknown')!.severity).toBe('warning');
  });
  it('warns that "yes" is false', () => {
    const d = validate('SetCharacterEncodingFilter', { encoding: 'UTF-8', ignore: 'yes' }).diagnostics;
    expect(d.map((x) => x.ruleId)).toEqual(['filter-param-boolean-spelling']);
  });
  it('gives the typed config when valid, and no spec for classes that are not container filters', () => {
    expect(validate('RemoteAddrFilter', { allow: '127\\.0\\.0\\.1', denyStatus: '404' }).config).toMatchObject({ denyStatus: 404, allow: { java: '127\\.0\\.0\\.1' } });
    const other = parseWebXml('<web-app><filter><filter-name>x</filter-name><filter-class>com.example.Mine</filter-class><init-param><param-name>a</param-name><param-value>b</param-value></init-param></filter></web-app>', 'w').webXml!.filters[0]!;
    expect(validateFilterDef(other)).toEqual({ spec: null, config: null, diagnostics: [] });
  });
});
