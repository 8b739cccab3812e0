import { describe, expect, it } from 'vitest';
import { parse, refuses, validate } from './helpers.js';

describe('booleans (Boolean.parseBoolean)', () => {
  it('only a case-insensitive "true" is true; JSON booleans are taken as they are', () => {
    const ignore = (v: unknown) => parse('set-character-encoding', { ignore: v })['ignore'];
    expect([ignore('true'), ignore('TRUE'), ignore('True'), ignore(true)]).toEqual([true, true, true, true]);
    expect([
      ignore('false'),
      ignore('yes'),
      ignore('1'),
      ignore('on'),
      ignore(''),
      ignore(' true'),
      ignore(false),
    ]).toEqual([false, false, false, false, false, false, false]);
  });
  it('refuses a JSON value of the wrong type', () => {
    expect(refuses('set-character-encoding', { ignore: 1 })).toBe(true);
  });
});

describe('AddDefaultCharsetFilter', () => {
  it('appends the name as written and knows its canonical name; "default" and empty are ISO-8859-1', () => {
    expect(parse('add-default-charset', { encoding: 'utf8' })).toEqual({ encoding: 'utf8', charset: 'UTF-8' });
    expect(parse('add-default-charset', { encoding: 'DEFAULT' })).toEqual({
      encoding: 'ISO-8859-1',
      charset: 'ISO-8859-1',
    });
    expect(parse('add-default-charset', { encoding: '' })).toEqual({ encoding: 'ISO-8859-1', charset: 'ISO-8859-1' });
    expect(parse('add-default-charset', { encoding: 'system' })).toEqual({ encoding: 'UTF-8', charset: 'UTF-8' });
  });
  it('refuses a charset Java does not know: init throws, the application does not start', () => {
    const v = validate('AddDefaultCharsetFilter', { encoding: 'UTF_8' });
    const d = v.only('filter-param-invalid');
    expect(d.severity).toBe('error');
    expect(d.message).toContain('did you mean UTF-8?');
    expect(v.at(d)).toBe('UTF_8');
  });
  it('notes that "system" depends on the JVM', () => {
    expect(validate('AddDefaultCharsetFilter', { encoding: 'system' }).only('filter-param-invalid').severity).toBe(
      'info',
    );
  });
});

describe('SetCharacterEncodingFilter', () => {
  it("sets Java's canonical name and gives the Node decoder", () => {
    expect(parse('set-character-encoding', { encoding: 'cp1252', ignore: 'true' })).toEqual({
      encoding: 'windows-1252',
      decoder: 'windows-1252',
      supported: true,
      ignore: true,
    });
    expect(parse('set-character-encoding', { encoding: 'latin1' })).toMatchObject({
      encoding: 'ISO-8859-1',
      decoder: 'latin1',
    });
  });
  it('gives an error that does not stop the filter for an unknown charset: Tomcat starts and never applies it (observed: test/fixtures/tomcat-observed/rules.json)', () => {
    const v = validate('SetCharacterEncodingFilter', { encoding: 'klingon' });
    const d = v.only('filter-param-invalid');
    expect(d.severity).toBe('error');
    expect(d.effect).toBe('misbehaves');
    expect(d.message).toContain('never applies it');
    expect(v.config).toEqual({ encoding: 'klingon', decoder: null, supported: false, ignore: false });
  });
});

describe('CorsFilter', () => {
  it('reads lists from strings (trimmed, deduplicated) and from JSON arrays alike', () => {
    const fromText = parse('cors', {
      'cors.allowed.origins': ' https://a.example , https://b.example,https://a.example',
      'cors.allowed.methods': 'GET, PUT',
      'cors.allowed.headers': 'Content-Type, X-Custom',
      'cors.exposed.headers': 'X-Total-Count',
      'cors.preflight.maxage': '-1',
      'cors.support.credentials': 'true',
      'cors.request.decorate': 'false',
    });
    const fromJson = parse('cors', {
      'cors.allowed.origins': ['https://a.example', 'https://b.example'],
      'cors.allowed.methods': ['GET', 'PUT'],
      'cors.allowed.headers': ['Content-Type', 'X-Custom'],
      'cors.exposed.headers': ['X-Total-Count'],
      'cors.preflight.maxage': -1,
      'cors.support.credentials': true,
      'cors.request.decorate': false,
    });
    expect(fromText).toEqual(fromJson);
    expect(fromText).toEqual({
      anyOrigin: false,
      allowedOrigins: ['https://a.example', 'https://b.example'],
      allowedMethods: ['GET', 'PUT'],
      allowedHeaders: ['content-type', 'x-custom'],
      exposedHeaders: ['X-Total-Count'],
      supportsCredentials: true,
      preflightMaxAge: -1,
      decorateRequest: false,
    });
  });
  it('reads "*" (trimmed) as any origin, and an empty max age as 0', () => {
    expect(parse('cors', { 'cors.allowed.origins': ' * ' })).toMatchObject({ anyOrigin: true, allowedOrigins: [] });
    expect(parse('cors', { 'cors.allowed.origins': ['*'] })).toMatchObject({ anyOrigin: true });
    expect(parse('cors', { 'cors.preflight.maxage': '' })).toMatchObject({ preflightMaxAge: 0 });
    expect(parse('cors', { 'cors.preflight.maxage': '9223372036854775807' })['preflightMaxAge']).toBeGreaterThan(
      2 ** 62,
    );
  });
  it('refuses a max age Long.parseLong refuses, and credentials with any origin', () => {
    expect(validate('CorsFilter', { 'cors.preflight.maxage': 'ten' }).only('filter-param-invalid').severity).toBe(
      'error',
    );
    expect(refuses('cors', { 'cors.allowed.origins': '*', 'cors.support.credentials': 'TRUE' })).toBe(true);
    expect(refuses('cors', { 'cors.allowed.origins': '*', 'cors.support.credentials': 'yes' })).toBe(false);
  });
  it('reports origins no browser ever sends, at the entry, as errors Tomcat starts with (those origins get 403)', () => {
    const v = validate('CorsFilter', {
      'cors.allowed.origins':
        'https://ok.example, https://App.example, https://a.example/, https://*.example, https://b.example:443, *',
    });
    const notes = v.diagnostics.filter((d) => d.ruleId === 'filter-param-no-effect');
    expect(notes.map((d) => v.at(d))).toEqual([
      'https://App.example',
      'https://a.example/',
      'https://*.example',
      'https://b.example:443',
      '*',
    ]);
    expect(notes.every((d) => d.severity === 'error' && d.effect === 'misbehaves')).toBe(true);
    expect(v.config).not.toBeNull();
    expect(validate('CorsFilter', { 'cors.allowed.origins': 'null, http://localhost:8080' }).diagnostics).toEqual([]);
  });
  it('warns that methods are case-sensitive and an empty method list refuses everything', () => {
    const v = validate('CorsFilter', { 'cors.allowed.methods': 'GET,put' });
    const d = v.only('filter-param-no-effect');
    expect(v.at(d)).toBe('put');
    expect(d.fix?.[0]?.text).toBe('PUT');
    expect(validate('CorsFilter', { 'cors.allowed.methods': '' }).only('filter-param-no-effect').message).toContain(
      'every cross-origin request is refused',
    );
  });
});

describe('CsrfPreventionFilter and RestCsrfPreventionFilter', () => {
  it('read every parameter from strings and from JSON', () => {
    const text = parse('csrf-prevention', {
      denyStatus: '404',
      entryPoints: '/index.jsp, /login',
      nonceCacheSize: '10',
      nonceRequestParameterName: 'csrf',
      randomClass: 'java.util.Random',
      enforce: 'false',
      noNonceURLPatterns: '*.css, /static/*',
    });
    const json = parse('csrf-prevention', {
      denyStatus: 404,
      entryPoints: ['/index.jsp', '/login'],
      nonceCacheSize: 10,
      nonceRequestParameterName: 'csrf',
      randomClass: 'java.util.Random',
      enforce: false,
      noNonceURLPatterns: ['*.css', '/static/*'],
    });
    expect(text).toEqual(json);
    expect(text).toMatchObject({
      denyStatus: 404,
      entryPoints: ['/index.jsp', '/login'],
      nonceCacheSize: 10,
      enforce: false,
    });
    expect(parse('rest-csrf-prevention', { pathsAcceptingParams: ' /a , /b,' })).toMatchObject({
      pathsAcceptingParams: ['/a', '/b'],
    });
    expect(parse('rest-csrf-prevention', { pathsAcceptingParams: ['/a'] })).toMatchObject({
      pathsAcceptingParams: ['/a'],
    });
  });

  it('parse noNonceURLPatterns into suffix, prefix, regex and mime: patterns', () => {
    const p = (v: unknown) => parse('csrf-prevention', { noNonceURLPatterns: v })['noNonceUrlPatterns'];
    expect(p('*.css, /static/*, /\\.png$/, mime:image/*, ,')).toEqual([
      { kind: 'suffix', value: '.css', regex: null, mime: false },
      { kind: 'prefix', value: '/static/', regex: null, mime: false },
      { kind: 'regex', value: '\\.png$', regex: expect.objectContaining({ java: '\\.png$' }), mime: false },
      { kind: 'prefix', value: 'image/', regex: null, mime: true },
    ]);
    // A whole value /.../ is one regex, commas and all.
    expect(p('/a,b/')).toEqual([
      { kind: 'regex', value: 'a,b', regex: expect.objectContaining({ java: 'a,b' }), mime: false },
    ]);
    expect(p('')).toEqual([]);
  });

  it('refuse what CsrfPreventionFilter.init refuses, pointing at the entry', () => {
    const bad = validate('CsrfPreventionFilter', { noNonceURLPatterns: '*.css, static, *.js' });
    const d = bad.only('filter-param-invalid');
    expect(d.severity).toBe('error');
    expect(bad.at(d)).toBe('static');
    expect(
      validate('CsrfPreventionFilter', { noNonceURLPatterns: '*.css,/(/' }).only('filter-param-regex').severity,
    ).toBe('error');
    expect(refuses('csrf-prevention', { noNonceURLPatterns: '/' })).toBe(true);
    expect(refuses('csrf-prevention', { noNonceURLPatterns: 'mime: *.css' })).toBe(true);
  });

  it('refuse a randomClass the JDK has but that is not a usable java.util.Random, and warn about classes tollgate cannot see', () => {
    for (const id of ['CsrfPreventionFilter', 'RestCsrfPreventionFilter']) {
      expect(
        validate(id, { randomClass: 'java.util.concurrent.ThreadLocalRandom' }).only('filter-param-invalid').severity,
      ).toBe('error');
      expect(validate(id, { randomClass: 'java.lang.String' }).only('filter-param-invalid').severity).toBe('error');
      expect(validate(id, { randomClass: 'not a class' }).only('filter-param-invalid').severity).toBe('error');
      expect(validate(id, { randomClass: 'com.example.FastRandom' }).only('filter-param-invalid').severity).toBe(
        'warning',
      );
      expect(validate(id, { randomClass: 'java.util.Random' }).diagnostics).toEqual([]);
    }
  });

  it('report a nonce cache below 1, which keeps no nonce, as an error Tomcat starts with', () => {
    const v = validate('CsrfPreventionFilter', { nonceCacheSize: '0' });
    expect(v.only('filter-param-invalid')).toMatchObject({ severity: 'error', effect: 'misbehaves' });
    expect(v.config).not.toBeNull();
  });

  it('refuse a status that is not an int, and report one that is not an HTTP status as an error Tomcat starts with', () => {
    expect(validate('CsrfPreventionFilter', { denyStatus: 'forbidden' }).only('filter-param-invalid')).toMatchObject({
      severity: 'error',
    });
    expect(
      validate('CsrfPreventionFilter', { denyStatus: 'forbidden' }).only('filter-param-invalid').effect,
    ).toBeUndefined();
    expect(validate('RestCsrfPreventionFilter', { denyStatus: '1000' }).only('filter-param-invalid')).toMatchObject({
      severity: 'error',
      effect: 'misbehaves',
    });
  });
});

describe('HttpHeaderSecurityFilter', () => {
  it('reads every parameter and builds the header values once', () => {
    const c = parse('http-header-security', {
      hstsEnabled: 'true',
      hstsMaxAgeSeconds: '31536000',
      hstsIncludeSubDomains: 'true',
      hstsPreload: 'true',
      antiClickJackingEnabled: 'true',
      antiClickJackingOption: 'allow-from',
      antiClickJackingUri: 'https://a.example',
      blockContentTypeSniffingEnabled: 'false',
      xssProtectionEnabled: 'true',
    });
    expect(c).toEqual({
      hstsEnabled: true,
      hstsMaxAgeSeconds: 31536000,
      hstsIncludeSubDomains: true,
      hstsPreload: true,
      hstsHeaderValue: 'max-age=31536000;includeSubDomains;preload',
      antiClickJackingEnabled: true,
      antiClickJackingOption: 'ALLOW-FROM',
      antiClickJackingUri: 'https://a.example',
      antiClickJackingHeaderValue: 'ALLOW-FROM https://a.example',
      blockContentTypeSniffingEnabled: false,
      xssProtectionEnabled: true,
    });
    expect(
      parse('http-header-security', {
        hstsMaxAgeSeconds: 31536000,
        hstsPreload: true,
        antiClickJackingOption: 'SAMEORIGIN',
      }),
    ).toMatchObject({ hstsHeaderValue: 'max-age=31536000;preload', antiClickJackingHeaderValue: 'SAMEORIGIN' });
  });
  it("counts a negative max age as 0 (the setter does; lint's hsts-max-age-zero says what that means)", () => {
    const v = validate('HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: '-5' });
    expect(v.config).toMatchObject({ hstsMaxAgeSeconds: 0, hstsHeaderValue: 'max-age=0' });
    expect(v.diagnostics).toEqual([]);
  });
  it('refuses an unknown option, ALLOW-FROM without a URI (even when disabled) and a URI java.net.URI refuses', () => {
    expect(
      validate('HttpHeaderSecurityFilter', { antiClickJackingOption: 'NEVER' }).only('filter-param-invalid').severity,
    ).toBe('error');
    const noUri = validate('HttpHeaderSecurityFilter', {
      antiClickJackingOption: 'ALLOW-FROM',
      antiClickJackingEnabled: 'false',
    });
    expect(noUri.at(noUri.only('filter-param-invalid'))).toBe('ALLOW-FROM');
    const badUri = validate('HttpHeaderSecurityFilter', {
      antiClickJackingOption: 'ALLOW-FROM',
      antiClickJackingUri: 'https://a b.example',
    });
    expect(badUri.at(badUri.only('filter-param-invalid'))).toBe(' ');
    expect(
      parse('http-header-security', { antiClickJackingOption: 'ALLOW-FROM', antiClickJackingUri: '' }),
    ).toMatchObject({ antiClickJackingHeaderValue: 'ALLOW-FROM ' });
  });
  it('warns that a URI without ALLOW-FROM does nothing', () => {
    expect(
      validate('HttpHeaderSecurityFilter', { antiClickJackingUri: 'https://a.example' }).only('filter-param-no-effect')
        .severity,
    ).toBe('warning');
  });
});

describe('RemoteAddrFilter and RemoteHostFilter', () => {
  it('translate allow and deny for whole-string matching, from strings; empty means no rule', () => {
    const c = parse('remote-addr', {
      allow: '127\\.\\d+\\.\\d+\\.\\d+|0:0:0:0:0:0:0:1',
      deny: '',
      denyStatus: 404,
    }) as { allow: { source: string; flags: string }; deny: unknown; denyStatus: number };
    const rx = new RegExp(c.allow.source, c.allow.flags);
    expect(rx.test('127.0.0.1')).toBe(true);
    expect(rx.test('127.0.0.1x')).toBe(false);
    expect(rx.test('x0:0:0:0:0:0:0:1')).toBe(false);
    expect(c.deny).toBeNull();
    expect(c.denyStatus).toBe(404);
  });
  it('report that neither allow nor deny rejects everything as an error Tomcat starts with', () => {
    for (const cls of ['RemoteAddrFilter', 'RemoteHostFilter'])
      expect(validate(cls, {}).only('filter-denies-everything')).toMatchObject({
        severity: 'error',
        effect: 'misbehaves',
      });
    expect(validate('RemoteHostFilter', { deny: '.*\\.evil\\.example' }).diagnostics).toEqual([]);
  });
});

describe('RemoteCIDRFilter', () => {
  it('reads masks and addresses, IPv4 and IPv6, from strings and JSON lists', () => {
    const c = parse('remote-cidr', { allow: '10.0.0.0/8, ::1, [fe80::1]', deny: ['192.168.1.1/+32'] }) as {
      allow: { family: number; prefix: number; text: string }[];
      deny: { prefix: number }[];
    };
    expect(c.allow.map((x) => [x.family, x.prefix, x.text])).toEqual([
      [4, 8, '10.0.0.0/8'],
      [6, 128, '::1'],
      [6, 128, '[fe80::1]'],
    ]);
    expect(c.deny[0]!.prefix).toBe(32);
  });
  it('reads legacy IPv4 forms as Java does, with an error Tomcat starts with (the mask covers other addresses)', () => {
    const v = validate('RemoteCIDRFilter', { allow: '10.1/16' });
    expect(v.only('filter-param-cidr').message).toContain('10.0.0.1');
    expect(v.only('filter-param-cidr')).toMatchObject({ severity: 'error', effect: 'misbehaves' });
    expect((v.config as { allow: { bytes: number[] }[] }).allow[0]!.bytes).toEqual([10, 0, 0, 1]);
  });
  it('reads an IPv4-mapped IPv6 address as the IPv4 address, like InetAddress', () => {
    expect(
      (parse('remote-cidr', { allow: '::ffff:10.0.0.0/8' }) as { allow: { family: number; bytes: number[] }[] })
        .allow[0],
    ).toMatchObject({ family: 4, bytes: [10, 0, 0, 0] });
  });
  it('warns that an empty entry is the loopback address and a port entry never matches', () => {
    const v = validate('RemoteCIDRFilter', { allow: '10.0.0.0/8,,1.2.3.4;80' });
    expect((v.config as { allow: { text: string }[] }).allow.map((x) => x.text)).toEqual(['10.0.0.0/8', '']);
    expect(v.diagnostics.map((d) => d.ruleId).sort()).toEqual(['filter-param-cidr', 'filter-param-no-effect']);
  });
  it('refuses dotted netmasks, prefixes out of range and non-addresses, at the entry', () => {
    for (const [value, at] of [
      ['10.0.0.0/255.0.0.0', '/255.0.0.0'],
      ['10.0.0.0/33', '10.0.0.0/33'],
      ['::1/129', '::1/129'],
      ['1.2.3.256', '1.2.3.256'],
      ['10.0.0.0/-1', '/-1'],
    ]) {
      const v = validate('RemoteCIDRFilter', { allow: `127.0.0.1, ${value}` });
      const d = v.only('filter-param-cidr');
      expect(d.severity, value).toBe('error');
      expect(v.at(d), value).toBe(at);
    }
  });
  it('warns that it cannot resolve host names, which Tomcat looks up in DNS', () => {
    const v = validate('RemoteCIDRFilter', { allow: 'localhost' });
    expect(v.only('filter-param-cidr').severity).toBe('warning');
    expect(v.config).toBeNull();
  });
  it('reports that neither allow nor deny refuses everything as an error Tomcat starts with', () => {
    expect(validate('RemoteCIDRFilter', { allow: ' ' }).only('filter-denies-everything')).toMatchObject({
      severity: 'error',
      effect: 'misbehaves',
    });
  });
});

describe('RemoteIpFilter', () => {
  it('reads every parameter from strings and from JSON', () => {
    const strings = {
      remoteIpHeader: 'X-Real-IP',
      internalProxies: '10\\.0\\.0\\.1',
      proxiesHeader: 'X-Proxies',
      trustedProxies: '192\\.0\\.2\\.\\d+',
      protocolHeader: 'X-Forwarded-Proto',
      protocolHeaderHttpsValue: 'HTTPS',
      portHeader: 'X-Forwarded-Port',
      hostHeader: 'X-Forwarded-Host',
      httpServerPort: '8080',
      httpsServerPort: '8443',
      changeLocalPort: 'true',
      changeLocalName: 'true',
      enableLookups: 'true',
    };
    const c = parse('remote-ip', strings);
    expect(c).toMatchObject({
      remoteIpHeader: 'x-real-ip',
      proxiesHeader: 'X-Proxies',
      protocolHeader: 'x-forwarded-proto',
      protocolHeaderHttpsValue: 'HTTPS',
      portHeader: 'x-forwarded-port',
      hostHeader: 'x-forwarded-host',
      httpServerPort: 8080,
      httpsServerPort: 8443,
      changeLocalPort: true,
      changeLocalName: true,
      enableLookups: true,
      requestAttributesEnabled: true,
      internalProxies: { java: '10\\.0\\.0\\.1' },
      trustedProxies: { java: '192\\.0\\.2\\.\\d+' },
    });
    expect(
      parse('remote-ip', {
        ...strings,
        httpServerPort: 8080,
        httpsServerPort: 8443,
        changeLocalPort: true,
        changeLocalName: true,
        enableLookups: true,
      }),
    ).toEqual(c);
  });
  it('reads an empty internalProxies as none and an empty protocolHeader as unused', () => {
    expect(parse('remote-ip', { internalProxies: '', protocolHeader: '' })).toMatchObject({
      internalProxies: null,
      protocolHeader: null,
    });
  });
  it('refuses ports Integer.parseInt refuses and regexes Pattern.compile refuses', () => {
    expect(validate('RemoteIpFilter', { httpsServerPort: 'https' }).only('filter-param-invalid').severity).toBe(
      'error',
    );
    expect(validate('RemoteIpFilter', { trustedProxies: '[' }).only('filter-param-regex').severity).toBe('error');
  });
});

describe('RateLimitFilter', () => {
  it('reads every parameter from strings and from JSON', () => {
    const strings = {
      bucketDuration: '30',
      bucketRequests: '100',
      enforce: 'false',
      statusCode: '503',
      statusMessage: 'Slow down',
      exposeHeaders: 'true',
      policyName: ' api ',
      rateLimitClassName: 'org.apache.catalina.util.ExactRateLimiter',
    };
    const c = parse('rate-limit', strings);
    expect(c).toEqual({
      bucketDuration: 30,
      bucketRequests: 100,
      enforce: false,
      statusCode: 503,
      statusMessage: 'Slow down',
      exposeHeaders: true,
      policyName: 'api',
      rateLimitClassName: 'org.apache.catalina.util.ExactRateLimiter',
      limiter: 'exact',
    });
    expect(
      parse('rate-limit', {
        ...strings,
        bucketDuration: 30,
        bucketRequests: 100,
        enforce: false,
        statusCode: 503,
        exposeHeaders: true,
      }),
    ).toEqual(c);
  });
  it('refuses windows and limits below 1 (the setters throw)', () => {
    for (const p of [{ bucketDuration: '0' }, { bucketRequests: '-1' }] as Record<string, string>[])
      expect(validate('RateLimitFilter', p).only('filter-param-invalid').severity).toBe('error');
  });
  it('refuses limiter classes Tomcat does not have, warns about ones tollgate cannot see', () => {
    expect(
      validate('RateLimitFilter', { rateLimitClassName: 'org.apache.catalina.util.SlowRateLimiter' }).only(
        'filter-param-invalid',
      ).severity,
    ).toBe('error');
    const custom = validate('RateLimitFilter', { rateLimitClassName: 'com.example.Limiter' });
    expect(custom.only('filter-param-invalid').severity).toBe('warning');
    expect(custom.config).toMatchObject({ limiter: 'fast' });
  });
});

describe('filters without parameters', () => {
  it('FailedRequestFilter refuses any parameter; the others ignore them', () => {
    expect(validate('FailedRequestFilter', { x: 'y' }).config).toBeNull();
    for (const cls of ['RequestDumperFilter', 'SessionInitializerFilter', 'WebdavFixFilter']) {
      const v = validate(cls, { x: 'y' });
      expect(v.only('filter-param-unknown').severity).toBe('warning');
      expect(v.config).toEqual({});
    }
  });
});
