import { Ajv } from 'ajv';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { FILTER_SPECS, filterSpecById, findFilterSpec } from '../../src/filters/index.js';
import { DEFAULT_INTERNAL_PROXIES } from '../../src/filters/remote-ip.js';

describe('filter registry', () => {
  it('knows the fifteen filters of the spec plus RateLimitFilter, under both class-name prefixes', () => {
    expect(FILTER_SPECS.map((s) => s.id).sort()).toEqual([
      'add-default-charset',
      'cors',
      'csrf-prevention',
      'expires',
      'failed-request',
      'http-header-security',
      'rate-limit',
      'remote-addr',
      'remote-cidr',
      'remote-host',
      'remote-ip',
      'request-dumper',
      'rest-csrf-prevention',
      'session-initializer',
      'set-character-encoding',
      'webdav-fix',
    ]);
    for (const s of FILTER_SPECS) {
      expect(findFilterSpec(`org.apache.catalina.filters.${s.simpleName}`)).toBe(s);
      expect(findFilterSpec(`org.vendor.container.filters.${s.simpleName}`)).toBe(s);
      expect(filterSpecById(s.id)).toBe(s);
    }
  });

  it('finds nothing for classes that are not container filters, or with a different case', () => {
    expect(findFilterSpec('com.example.MyFilter')).toBeUndefined();
    expect(findFilterSpec('org.apache.catalina.filters.corsfilter')).toBeUndefined();
    expect(findFilterSpec('  org.apache.catalina.filters.CorsFilter ')).toBe(filterSpecById('cors'));
  });

  it('records the version facts --target needs', () => {
    expect(filterSpecById('failed-request')!.removedIn).toBe('11.0');
    expect(filterSpecById('webdav-fix')!.removedIn).toBe('11.0');
    expect(filterSpecById('http-header-security')!.params['xssProtectionEnabled']!.removedIn).toBe('11.0');
    expect(filterSpecById('rate-limit')!.addedIn).toBeUndefined();
  });

  it('says which filters refuse to start on an unknown parameter (FilterBase.isConfigProblemFatal)', () => {
    const by = Object.fromEntries(FILTER_SPECS.map((s) => [s.id, s.unknownParams]));
    expect(by).toEqual({
      'add-default-charset': 'logged',
      cors: 'ignored',
      'csrf-prevention': 'fatal',
      'rest-csrf-prevention': 'fatal',
      expires: 'logged',
      'failed-request': 'fatal',
      'http-header-security': 'fatal',
      'remote-addr': 'fatal',
      'remote-host': 'fatal',
      'remote-cidr': 'fatal',
      'remote-ip': 'ignored',
      'request-dumper': 'ignored',
      'session-initializer': 'ignored',
      'set-character-encoding': 'logged',
      'webdav-fix': 'ignored',
      'rate-limit': 'fatal',
    });
  });
});

describe("with no parameter every filter has Tomcat 10.1's defaults", () => {
  const defaults: Record<string, unknown> = {
    'add-default-charset': { encoding: 'ISO-8859-1', charset: 'ISO-8859-1' },
    cors: {
      anyOrigin: false,
      allowedOrigins: [],
      allowedMethods: ['GET', 'POST', 'HEAD', 'OPTIONS'],
      allowedHeaders: [
        'origin',
        'accept',
        'x-requested-with',
        'content-type',
        'access-control-request-method',
        'access-control-request-headers',
      ],
      exposedHeaders: [],
      supportsCredentials: false,
      preflightMaxAge: 1800,
      decorateRequest: true,
    },
    'csrf-prevention': {
      denyStatus: 403,
      entryPoints: [],
      nonceCacheSize: 5,
      nonceRequestParameterName: 'org.apache.catalina.filters.CSRF_NONCE',
      randomClass: 'java.security.SecureRandom',
      enforce: true,
      noNonceUrlPatterns: ['.css', '.js', '.gif', '.png', '.jpg', '.svg', '.ico', '.jpeg', '.mjs'].map((value) => ({
        kind: 'suffix',
        value,
        regex: null,
        mime: false,
      })),
    },
    'rest-csrf-prevention': { denyStatus: 403, pathsAcceptingParams: [], randomClass: 'java.security.SecureRandom' },
    expires: { excludedStatusCodes: [304], defaultRule: null, byType: {} },
    'failed-request': {},
    'http-header-security': {
      hstsEnabled: true,
      hstsMaxAgeSeconds: 0,
      hstsIncludeSubDomains: false,
      hstsPreload: false,
      hstsHeaderValue: 'max-age=0',
      antiClickJackingEnabled: true,
      antiClickJackingOption: 'DENY',
      antiClickJackingUri: null,
      antiClickJackingHeaderValue: 'DENY',
      blockContentTypeSniffingEnabled: true,
      xssProtectionEnabled: false,
    },
    'remote-addr': { allow: null, deny: null, denyStatus: 403 },
    'remote-host': { allow: null, deny: null, denyStatus: 403 },
    'remote-cidr': { allow: [], deny: [], denyStatus: 403 },
    'request-dumper': {},
    'session-initializer': {},
    'set-character-encoding': { encoding: null, decoder: null, supported: true, ignore: false },
    'webdav-fix': {},
    'rate-limit': {
      bucketDuration: 60,
      bucketRequests: 300,
      enforce: true,
      statusCode: 429,
      statusMessage: 'Too many requests',
      exposeHeaders: false,
      policyName: null,
      rateLimitClassName: 'org.apache.catalina.util.FastRateLimiter',
      limiter: 'fast',
    },
  };
  for (const s of FILTER_SPECS.filter((x) => x.id !== 'remote-ip')) {
    it(s.simpleName, () => expect(s.schema.parse({})).toEqual(defaults[s.id]));
  }
  it('RemoteIpFilter, with the default internal proxies matched as Tomcat matches them', () => {
    const c = filterSpecById('remote-ip')!.schema.parse({}) as Record<string, unknown>;
    expect(c).toMatchObject({
      remoteIpHeader: 'x-forwarded-for',
      proxiesHeader: 'X-Forwarded-By',
      trustedProxies: null,
      protocolHeader: 'x-forwarded-proto',
      protocolHeaderHttpsValue: 'https',
      portHeader: null,
      hostHeader: null,
      httpServerPort: 80,
      httpsServerPort: 443,
      changeLocalPort: false,
      changeLocalName: false,
      requestAttributesEnabled: true,
      enableLookups: false,
    });
    const re = c['internalProxies'] as { java: string; source: string; flags: string };
    expect(re.java).toBe(DEFAULT_INTERNAL_PROXIES);
    const rx = new RegExp(re.source, re.flags);
    for (const a of [
      '10.0.0.1',
      '192.168.1.1',
      '169.254.0.1',
      '127.0.0.1',
      '100.64.0.1',
      '100.127.255.1',
      '172.16.0.1',
      '172.31.0.1',
      '0:0:0:0:0:0:0:1',
      '::1',
      'fe80:0:0:0:0:0:0:1',
      'fd12:3456:0:0:0:0:0:1',
    ]) {
      expect(rx.test(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '1.10.0.0.1', '110.0.0.1', '2001:db8:0:0:0:0:0:1'])
      expect(rx.test(a), a).toBe(false);
  });

  it('each config is plain JSON: it survives a JSON round trip unchanged', () => {
    for (const s of FILTER_SPECS) {
      const c = s.schema.parse({});
      expect(JSON.parse(JSON.stringify(c)), s.id).toEqual(c);
    }
  });

  it('hands out a fresh default each time, so a runtime that changes one config does not change another', () => {
    const a = filterSpecById('cors')!.schema.parse({}) as { allowedMethods: string[] };
    a.allowedMethods.push('PATCH');
    expect((filterSpecById('cors')!.schema.parse({}) as { allowedMethods: string[] }).allowedMethods).toEqual([
      'GET',
      'POST',
      'HEAD',
      'OPTIONS',
    ]);
  });
});

describe('JSON Schema from every filter schema', () => {
  // zod's JSON Schema output, walked by key as JSON Schema names them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Json = Record<string, any>;
  const jsonOf = (id: string) => z.toJSONSchema(filterSpecById(id)!.schema, { target: 'draft-7', io: 'input' }) as Json;

  for (const s of FILTER_SPECS) {
    it(`${s.simpleName}: draft-07 that ajv compiles in strict mode, with every parameter described`, () => {
      const json = z.toJSONSchema(s.schema, { target: 'draft-7', io: 'input' }) as Json;
      expect(json['$schema']).toBe('http://json-schema.org/draft-07/schema#');
      expect(json['title']).toBe(s.simpleName);
      const validate = new Ajv({ strict: true }).compile(json);
      expect(validate({})).toBe(true);
      expect(Object.keys(json['properties'] ?? {}).sort()).toEqual(Object.keys(s.params).sort());
      for (const [name, p] of Object.entries<Record<string, unknown>>(json['properties'] ?? {})) {
        expect(p['description'], name).toBe(s.params[name]!.description);
        expect(p['description'], name).not.toBe('');
      }
      // The same JSON Schema comes from the params object alone.
      expect(z.toJSONSchema(s.inputSchema, { target: 'draft-7', io: 'input' })).toEqual(json);
    });
  }

  it('gives defaults in their natural JSON type, and examples', () => {
    const p = jsonOf('cors')['properties'];
    expect(p['cors.support.credentials']).toMatchObject({ default: false, examples: ['true', 'false'] });
    expect(p['cors.preflight.maxage']).toMatchObject({ default: 1800 });
    expect(p['cors.allowed.methods']).toMatchObject({ default: ['GET', 'POST', 'HEAD', 'OPTIONS'] });
    expect(jsonOf('remote-ip')['properties']['internalProxies']['default']).toBe(DEFAULT_INTERNAL_PROXIES);
  });

  it('offers the X-Frame-Options values as an enum while accepting any case', () => {
    const option = jsonOf('http-header-security')['properties']['antiClickJackingOption'];
    expect(option.anyOf[0].enum).toEqual(['DENY', 'SAMEORIGIN', 'ALLOW-FROM']);
    const validate = new Ajv({ strict: true }).compile(jsonOf('http-header-security'));
    expect(validate({ antiClickJackingOption: 'sameOrigin' })).toBe(true);
    expect(validate({ antiClickJackingOption: 'NEVER' })).toBe(false);
  });

  it('accepts both the web.xml strings and the natural JSON types, and rejects what no filter could read', () => {
    const validate = new Ajv({ strict: true }).compile(jsonOf('http-header-security'));
    expect(validate({ hstsEnabled: 'true', hstsMaxAgeSeconds: '31536000' })).toBe(true);
    expect(validate({ hstsEnabled: true, hstsMaxAgeSeconds: 31536000 })).toBe(true);
    expect(validate({ hstsMaxAgeSeconds: 'a year' })).toBe(false);
    expect(validate({ hstsMaxAgeSeconds: 2147483648 })).toBe(false);
    expect(validate({ hstsEnabled: [true] })).toBe(false);
    const cors = new Ajv({ strict: true }).compile(jsonOf('cors'));
    expect(cors({ 'cors.allowed.origins': ['https://a.example'], 'cors.allowed.methods': 'GET,POST' })).toBe(true);
    expect(cors({ 'cors.preflight.maxage': '' })).toBe(true);
  });

  it('describes ExpiresByType <type> parameters with a pattern', () => {
    const json = jsonOf('expires');
    expect(Object.keys(json['patternProperties'])).toEqual(['^ExpiresByType']);
    const validate = new Ajv({ strict: true }).compile(json);
    expect(
      validate({
        'ExpiresByType image/png': 'access plus 1 month',
        ExpiresDefault: 'A60',
        ExpiresExcludedResponseStatusCodes: [304, '302'],
      }),
    ).toBe(true);
    expect(validate({ 'ExpiresByType image/png': 5 })).toBe(false);
  });

  it('documents every parameter for docs and editors (ParamDoc)', () => {
    for (const s of FILTER_SPECS) {
      for (const [name, doc] of Object.entries(s.params)) {
        expect(doc.description.length, `${s.id}.${name}`).toBeGreaterThan(10);
        expect(s.paramKinds[name], `${s.id}.${name}`).toBeTruthy();
      }
    }
    expect(filterSpecById('remote-ip')!.params['proxiesHeader']!.seenAs).toEqual(['remoteIpProxiesHeader']);
    expect(filterSpecById('remote-ip')!.params['requestAttributesEnabled']!.ignoredByTomcat).toMatch(/never reads/);
    expect(filterSpecById('http-header-security')!.params['hstsMaxAgeSeconds']!.default).toBe('0');
  });
});
