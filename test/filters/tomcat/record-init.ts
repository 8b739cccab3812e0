/**
 * Records what real Tomcat does when its filters are initialised with given
 * init-params, into test/filters/fixtures/tomcat-init.json, which
 * test/filters/tomcat-init.test.ts holds tollgate's validation to.
 * Run: `npx tsx test/filters/tomcat/record-init.ts` (needs java and Debian's tomcat10).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HOME = process.env['TOLLGATE_CATALINA_HOME'] ?? '/usr/share/tomcat10';
const CLASSPATH = [
  'lib/servlet-api.jar',
  'lib/catalina.jar',
  'lib/tomcat-util.jar',
  'lib/tomcat-api.jar',
  'lib/tomcat-coyote.jar',
  'lib/tomcat-util-scan.jar',
  'bin/tomcat-juli.jar',
]
  .map((j) => join(HOME, j))
  .join(':');

type Case = [filter: string, params: Record<string, string>];

const cases: Case[] = [];
const add = (filter: string, ...params: Record<string, string>[]) => {
  for (const p of params) cases.push([filter, p]);
};

const BOOLEANS = ['true', 'TRUE', 'yes', '', '1'];
const INTS = ['5', '+5', '-1', '05', ' 5', '5 ', '1e3', 'abc', '', '2147483647', '2147483648', '\uff15'];

// FilterBase filters: unknown names, first-letter case, int and boolean setters.
add(
  'HttpHeaderSecurityFilter',
  {},
  { hstsMaxAge: '1' },
  { HstsMaxAgeSeconds: '5' },
  { hstsmaxageseconds: '5' },
  { xssProtectionEnabled: 'true' },
);
for (const v of INTS) add('HttpHeaderSecurityFilter', { hstsMaxAgeSeconds: v });
for (const v of BOOLEANS) add('HttpHeaderSecurityFilter', { hstsEnabled: v });
for (const v of ['DENY', 'sameorigin', 'Allow-From', 'NEVER', '', ' DENY'])
  add('HttpHeaderSecurityFilter', { antiClickJackingOption: v, antiClickJackingUri: 'https://a.example' });
add(
  'HttpHeaderSecurityFilter',
  { antiClickJackingOption: 'ALLOW-FROM' },
  { antiClickJackingOption: 'ALLOW-FROM', antiClickJackingEnabled: 'false' },
  { antiClickJackingOption: 'ALLOW-FROM', antiClickJackingUri: '' },
);
for (const v of [
  'https://a.example',
  'http://a b',
  '%zz',
  'x#y#z',
  'http:',
  'http://',
  '//host',
  'https://ä.example',
  'http://[::1]/',
  'http://[bad/',
  '1a:b',
  'a<b',
]) {
  add('HttpHeaderSecurityFilter', { antiClickJackingUri: v });
}

add(
  'SetCharacterEncodingFilter',
  {},
  { encoding: 'UTF-8' },
  { encoding: 'klingon' },
  { encodng: 'UTF-8' },
  { ignore: 'yes' },
  { Encoding: 'UTF-8' },
);
add(
  'AddDefaultCharsetFilter',
  {},
  { encoding: 'utf8' },
  { encoding: 'default' },
  { encoding: 'SYSTEM' },
  { encoding: 'klingon' },
  { encoding: 'bad name' },
  { encoding: '' },
  { encoding: 'Cp1252' },
  { encoding: 'x-IBM1047' },
  { foo: 'bar' },
);
add('FailedRequestFilter', {}, { x: 'y' });

for (const f of ['CsrfPreventionFilter', 'RestCsrfPreventionFilter']) {
  add(
    f,
    {},
    { randomClass: 'java.util.Random' },
    { randomClass: 'java.lang.String' },
    { randomClass: 'java.util.concurrent.ThreadLocalRandom' },
    { randomClass: 'not a class' },
    { randomClass: 'com.example.NoSuchRandom' },
  );
  for (const v of ['404', 'abc', '']) add(f, { denyStatus: v });
}
add(
  'CsrfPreventionFilter',
  { nonceCacheSize: '0' },
  { nonceCacheSize: 'x' },
  { entryPoints: '/a, /b' },
  { enforce: 'no' },
  { nonceRequestParameterName: 'csrf' },
);
for (const v of [
  '*.css, *.js',
  '/static/*',
  '/\\.css$/',
  '/(/',
  '/',
  'foo',
  'mime:image/*',
  'mime: *.css',
  'mime:',
  '*.css,,/x*',
  '',
  '/a/,/b/',
  '*.css,/',
]) {
  add('CsrfPreventionFilter', { noNonceURLPatterns: v });
}
add('RestCsrfPreventionFilter', { pathsAcceptingParams: '/a,/b' }, { entryPoints: '/a' });

for (const f of ['RemoteAddrFilter', 'RemoteHostFilter']) {
  add(
    f,
    {},
    { allow: '127\\.0\\.0\\.1' },
    { allow: '(' },
    { deny: '[a-' },
    { allow: '' },
    { allow: 'x', denyStatus: '404' },
    { allow: 'x', denyStatus: 'abc' },
    { allow: '(?>x)' },
    { allow: 'a*+' },
    { Allow: 'x' },
    { alow: 'x' },
  );
}
for (const v of [
  '10.0.0.0/8, ::1',
  '10.0.0.0/255.0.0.0',
  '10.0/16',
  '10.1/16',
  'localhost',
  '10.0.0.0/33',
  '::1/129',
  '10.0.0.0/8,,192.168.0.0/16',
  '10.0.0.0/',
  '10.0.0.0/-1',
  '10.0.0.0/+8',
  '1.2.3.4;80',
  '1.2.3.4;(',
  '::ffff:10.0.0.0/104',
  '1.2.3.256',
  '',
  '[::1]',
  'fe80::1%1',
  '010.0.0.1',
]) {
  add('RemoteCIDRFilter', { allow: v });
}
add('RemoteCIDRFilter', { deny: '10.0.0.0/8' }, { denyStatus: '404' });

add(
  'RemoteIpFilter',
  {},
  { internalProxies: '(' },
  { trustedProxies: '[' },
  { internalProxies: '' },
  { httpServerPort: 'x' },
  { httpsServerPort: ' 443' },
  { httpServerPort: '+8080' },
  { remoteIpProxiesHeader: 'x' },
  { allowedInternalProxies: 'x' },
  { requestAttributesEnabled: 'false' },
  { changeLocalPort: 'yes' },
  { protocolHeader: '' },
  { internalProxies: '(?>x)' },
  { internalProxies: '10.0.0.0/8' },
);

add(
  'CorsFilter',
  {},
  { 'cors.allowed.origins': '*', 'cors.support.credentials': 'true' },
  { 'cors.allowed.origins': ' * ', 'cors.support.credentials': 'TRUE' },
  { 'cors.allowed.origins': '*, https://a.example', 'cors.support.credentials': 'true' },
);
for (const v of ['1800', '', 'ten', '-1', '9223372036854775807', '9223372036854775808', ' 5'])
  add('CorsFilter', { 'cors.preflight.maxage': v });
add('CorsFilter', { 'cors.allowed.origin': 'x' }, { 'cors.allowed.methods': '' }, { 'cors.allowed.headers': '*' });

const rules = [
  'access plus 1 month',
  'now 1 day',
  'modification plus 2 hours 30 minutes',
  'A86400',
  'm60',
  'a-5',
  '',
  'later plus 1 day',
  'access',
  'access plus',
  'access plus one day',
  'access plus 1',
  'access plus 1 fortnight',
  'A',
  'Axyz',
  'access plus 1\tmonth',
  'ACCESS PLUS 1 YEARS',
  'access 1 year 2 months 3 weeks 4 days 5 hours 6 minutes 7 seconds',
  'access plus plus 1 day',
  'access plus 2147483648 seconds',
  'mod',
];
for (const v of rules) add('ExpiresFilter', { ExpiresDefault: v });
add(
  'ExpiresFilter',
  { 'ExpiresByType text/css': 'A60' },
  { 'ExpiresByType image': 'bad' },
  { expiresdefault: 'A60' },
  { 'expiresByType text/css': 'A60' },
  { ExpiresDefualt: 'A60' },
  { ExpiresByType: 'A60' },
);
for (const v of ['304', '', '302, 500', '302,,500', '302,', ',302', 'abc', ' 404 '])
  add('ExpiresFilter', { ExpiresExcludedResponseStatusCodes: v });

add(
  'RateLimitFilter',
  {},
  { bucketDuration: '0' },
  { bucketDuration: '-5' },
  { bucketRequests: '0' },
  { bucketDuration: 'x' },
  { statusCode: '503' },
  { rateLimitClassName: 'org.apache.catalina.util.ExactRateLimiter' },
  { rateLimitClassName: 'org.apache.catalina.util.NoSuch' },
  { rateLimitClassName: 'java.lang.String' },
  { policyName: ' p ' },
  { exposeHeaders: 'true' },
  { bucket: '1' },
);

add('RequestDumperFilter', {}, { anything: 'x' });
add('SessionInitializerFilter', {}, { anything: 'x' });
add('WebdavFixFilter', {}, { anything: 'x' });

const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n');
const unesc = (s: string) => s.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c));

const work = mkdtempSync(join(tmpdir(), 'tollgate-probe-'));
const classes = join(work, 'classes');
mkdirSync(classes);
const javac = spawnSync('javac', ['-cp', CLASSPATH, '-d', classes, join(import.meta.dirname, 'FilterInitProbe.java')], {
  encoding: 'utf8',
});
if (javac.status !== 0) throw new Error(javac.stderr);
const input = cases.map(([f, p]) => [f, ...Object.entries(p).flat()].map(esc).join('\t')).join('\n') + '\n';
const run = spawnSync('java', ['-cp', `${CLASSPATH}:${classes}`, 'probe.FilterInitProbe'], { input, encoding: 'utf8' });
if (run.status !== 0) throw new Error(run.stderr);
const lines = run.stdout.trimEnd().split('\n');
if (lines.length !== cases.length) throw new Error(`expected ${cases.length} results, got ${lines.length}`);
const results = cases.map(([filter, params], i) => {
  const [verdict, message, warnings] = lines[i]!.split('\t');
  return {
    filter,
    params,
    started: verdict === 'OK',
    message: unesc(message ?? ''),
    warnings: warnings ? unesc(warnings).split('\u001f') : [],
  };
});
const version =
  spawnSync('java', ['-cp', CLASSPATH, 'org.apache.catalina.util.ServerInfo'], { encoding: 'utf8' }).stdout.match(
    /Server number:\s*(\S+)/,
  )?.[1] ?? 'unknown';
const out = join(import.meta.dirname, '..', 'fixtures', 'tomcat-init.json');
mkdirSync(join(out, '..'), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    { tomcat: version, recorded: 'FilterInitProbe: filter.init(config) on a fresh instance per case', cases: results },
    null,
    1,
  ) + '\n',
);
console.log(`${results.length} cases, Tomcat ${version}: ${results.filter((r) => !r.started).length} refused`);
