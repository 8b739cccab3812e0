/**
 * The host-manager conformance scenario: one sequence of requests replayed in
 * the same order against real Tomcat 10.1 (its own host-manager webapp) and
 * `tollgate serve`, both on copies of fixtures/host-manager/base, plus the
 * comparison rules. Kept apart from the test so the table can be read (and
 * re-observed) on its own.
 */
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

export const TEXT = '/host-manager/text';

/** `Authorization: Basic` for user:password, encoded as ISO-8859-1 as browsers and curl do. */
export function basic(userColonPassword: string): string {
  return `Basic ${Buffer.from(userColonPassword, 'latin1').toString('base64')}`;
}

/** What one side is expected to answer where tollgate deliberately differs (docs/divergences.md, under `heading`). */
export interface Expected {
  status: number;
  /** The normalised body; omitted for HEAD. */
  body?: string;
}

export interface Step {
  id: string;
  method?: string;
  path: string;
  /** user:password for Basic, or a raw Authorization header value with `raw`. */
  auth?: string;
  raw?: string;
  host?: string;
  /** A deliberate difference: what each side answers, and the docs/divergences.md heading that explains it. */
  divergence?: { heading: string; tomcat: Expected; tollgate: Expected };
}

const A = 'admin:s3cret';
/** `auth` null: no Authorization header (or only `extra.raw`). */
const get = (id: string, path: string, auth: string | null = A, extra: Partial<Step> = {}): Step => ({
  id,
  path,
  ...(auth === null ? {} : { auth }),
  ...extra,
});
const cmd = (id: string, command: string, extra: Partial<Step> = {}): Step => get(id, `${TEXT}/${command}`, A, extra);
const ok = (s: string) => ({ status: 200, body: `${s}\n` });

/** A long enough name to need 255+ bytes as a directory name. */
export const LONG_NAME = 'a'.repeat(300);
/** Absolute appBase outside every base; the test removes it afterwards (Tomcat creates it). */
export const ABSOLUTE_APPBASE = join(tmpdir(), `tollgate-conformance-abs-${process.pid}`);

const HTML_DIVERGENCE = 'Only the text interface';
const HEAD_DIVERGENCE = 'A HEAD request never changes state';
const CASE_DIVERGENCE = 'Host names are compared case-insensitively';
const NAME_DIVERGENCE = 'Host names that can never match a Host header are refused';
const CONF_DIVERGENCE = 'An appBase that would serve conf/ is refused';
const ABS_DIVERGENCE = "An appBase outside CATALINA_BASE needs the operator's consent";

const LIST0 = 'OK - Listed hosts\n[localhost]:[]';
const LIST1 = `${LIST0}\n[one.example]:[www.one.example,one.example,x.one.example]`;

/** Steps of the main base, in order: later steps depend on the state earlier ones leave. */
export const MAIN_STEPS: Step[] = [
  // Authentication and authorisation (fresh realm: nobody has failed yet).
  get('no credentials: 401 with the Basic challenge', `${TEXT}/list`, null),
  get('wrong password: 401', `${TEXT}/list`, 'admin:wrong'),
  get('unknown user: 401', `${TEXT}/list`, 'ghost:s3cret'),
  get('admin-gui only: 403 page', `${TEXT}/list`, 'gui:s3cret'),
  get('manager-script only: 403 page', `${TEXT}/list`, 'mgr:s3cret'),
  get('user without roles: 403 page', `${TEXT}/list`, 'noroles:s3cret'),
  get('admin-gui + admin-script: list', `${TEXT}/list`, 'both:s3cret'),
  get('admin-script: list', `${TEXT}/list`),
  get('empty password: 401', `${TEXT}/list`, 'admin:'),
  get('credentials without a colon: 401', `${TEXT}/list`, 'admin'),
  get('scheme in mixed case (bAsIc): accepted', `${TEXT}/list`, null, {
    raw: `bAsIc ${Buffer.from(A).toString('base64')}`,
  }),
  get('Bearer scheme: 401', `${TEXT}/list`, null, { raw: 'Bearer abc.def.ghi' }),
  get('Digest scheme under BASIC: 401', `${TEXT}/list`, null, {
    raw: 'Digest username="admin", realm="Tomcat Host Manager Application"',
  }),
  get('malformed base64: 401', `${TEXT}/list`, null, { raw: 'Basic !!!not-base64' }),
  get('user name in another case: 401', `${TEXT}/list`, 'ADMIN:s3cret'),
  get('password containing a colon: accepted', `${TEXT}/list`, 'colon:pa:ss'),
  get('ISO-8859-1 user name and password: accepted', `${TEXT}/list`, 'jörg:grüße'),
  get('admin after failures: list (a success resets the count)', `${TEXT}/list`),
  get('POST without credentials: 401', `${TEXT}/list`, null, { method: 'POST' }),

  // Paths under the context.
  get('/host-manager redirects to /host-manager/ before authentication', '/host-manager', null),
  get('/host-manager?x=1 keeps the query in the redirect', '/host-manager?x=1', null),
  get('/text: unknown command [/text]', TEXT),
  cmd('/text/: unknown command [/]', ''),
  cmd('unknown command', 'bogus'),
  cmd('command names are case-sensitive (LIST)', 'LIST'),
  cmd('a path below a command (list/extra)', 'list/extra'),
  cmd('list ignores parameters', 'list?name=x&foo=bar'),
  get('OPTIONS without credentials: 401', `${TEXT}/list`, null, { method: 'OPTIONS' }),
  get('the HTML interface with admin-gui', '/host-manager/html/list', 'gui:s3cret', {
    divergence: { heading: HTML_DIVERGENCE, tomcat: { status: 200 }, tollgate: { status: 404 } },
  }),
  get('the HTML interface without credentials', '/host-manager/html', null, {
    divergence: { heading: HTML_DIVERGENCE, tomcat: { status: 401 }, tollgate: { status: 404 } },
  }),

  // Methods.
  cmd('POST list: 405', 'list', { method: 'POST' }),
  cmd('PUT list: 405', 'list', { method: 'PUT' }),
  cmd('DELETE list: 405', 'list', { method: 'DELETE' }),
  cmd('PATCH list: 501', 'list', { method: 'PATCH' }),
  cmd('OPTIONS list: Allow GET, HEAD, OPTIONS', 'list', { method: 'OPTIONS' }),
  cmd('HEAD list: the GET headers, no body', 'list', { method: 'HEAD' }),
  get('TRACE: 405 from the connector, before authentication', `${TEXT}/list`, null, { method: 'TRACE' }),
  cmd('POST add: 405, nothing added', 'add?name=post.example', { method: 'POST' }),
  cmd('list after the POST add: unchanged', 'list'),

  // add and its refusals.
  cmd('add without name', 'add'),
  cmd('add with an empty name', 'add?name='),
  cmd('add the default host again', 'add?name=localhost'),
  cmd(
    'add with aliases (blank, empty and mixed-case entries)',
    'add?name=one.example&aliases=www.one.example,%20One.Example,,x.one.example',
  ),
  cmd('list after add', 'list'),
  get('the new host serves its ROOT application', '/', A, { host: 'one.example' }),
  get('the new host answers to its alias, port and case ignored', '/', A, { host: 'WWW.ONE.example:8080' }),
  get('an unknown Host falls back to the default host', '/', A, { host: 'unknown.example' }),
  cmd('add an existing host', 'add?name=one.example'),
  // A host named like another host's alias is added (the Engine's children are unique by name only), but Tomcat's
  // Mapper keeps the name routed to the alias's owner and does not map the newcomer or its aliases.
  cmd('add a host named like an alias of one.example', 'add?name=www.one.example&aliases=only.www.example'),
  cmd('list shows the host named like an alias', 'list'),
  get("that name still routes to the alias's owner", '/', A, { host: 'www.one.example' }),
  get("the newcomer's own alias is not mapped either: the default host answers", '/', A, { host: 'only.www.example' }),
  cmd('remove the host named like an alias', 'remove?name=www.one.example'),
  get('after its removal the alias still routes to its owner', '/', A, { host: 'www.one.example' }),
  cmd(
    'add with every parameter (text-mode booleans)',
    'add?name=two.example&appBase=apps2&autoDeploy=false&deployOnStartup=false&deployXML=false&unpackWARs=false&copyXML=true&manager=false',
  ),
  cmd('list with two added hosts', 'list'),
  cmd('appBase ../outside climbs out of the base', 'add?name=out.example&appBase=../outside'),
  cmd('appBase webapps/../../x climbs out of the base', 'add?name=o2.example&appBase=webapps%2F..%2F..%2Fx'),
  cmd('name .. (default appBase) climbs out of the base', 'add?name=..'),
  cmd('name ../../etc climbs out of the base', 'add?name=..%2F..%2Fetc'),
  cmd('NUL in the name: path check error', 'add?name=a%00b'),
  cmd('NUL in appBase: path check error', 'add?name=nul.example&appBase=a%00b'),
  cmd('NUL in the name with an appBase: configBase check fails', 'add?name=x%00y&appBase=xy'),
  cmd('a 300-character name: appBase cannot be created', `add?name=${LONG_NAME}`),
  cmd('a 5000-character name: path check error', `add?name=${'b'.repeat(5000)}`),
  cmd('a repeated name parameter: the first one counts', 'remove?name=nope1.example&name=one.example'),
  cmd('list after the refusals: unchanged', 'list'),

  // Deliberate differences on add, each followed by the request that undoes it on Tomcat.
  cmd('name with a slash', 'add?name=a%2Fb', {
    divergence: {
      heading: NAME_DIVERGENCE,
      tomcat: ok('OK - Host [a/b] added'),
      tollgate: ok('FAIL - Invalid host name [a/b] was specified'),
    },
  }),
  cmd('remove the slash name', 'remove?name=a%2Fb', {
    divergence: {
      heading: NAME_DIVERGENCE,
      tomcat: ok('OK - Removed host [a/b]'),
      tollgate: ok('FAIL - Host name [a/b] does not exist'),
    },
  }),
  cmd('name with a blank', 'add?name=a%20b', {
    divergence: {
      heading: NAME_DIVERGENCE,
      tomcat: ok('OK - Host [a b] added'),
      tollgate: ok('FAIL - Invalid host name [a b] was specified'),
    },
  }),
  cmd('remove the blank name', 'remove?name=a%20b', {
    divergence: {
      heading: NAME_DIVERGENCE,
      tomcat: ok('OK - Removed host [a b]'),
      tollgate: ok('FAIL - Host name [a b] does not exist'),
    },
  }),
  cmd('name .. with an appBase of its own', 'add?name=..&appBase=dots', {
    divergence: {
      heading: NAME_DIVERGENCE,
      tomcat: ok('OK - Host [..] added'),
      tollgate: ok('FAIL - Invalid host name [..] was specified'),
    },
  }),
  cmd('remove ..', 'remove?name=..', {
    divergence: {
      heading: NAME_DIVERGENCE,
      tomcat: ok('OK - Removed host [..]'),
      tollgate: ok('FAIL - Host name [..] does not exist'),
    },
  }),
  cmd('appBase . (would serve conf/)', 'add?name=dot.example&appBase=.', {
    divergence: {
      heading: CONF_DIVERGENCE,
      tomcat: ok('OK - Host [dot.example] added'),
      tollgate: ok(
        'FAIL - Unable to use [{base}] as that would make the configuration directory [{base}/conf] servable',
      ),
    },
  }),
  get('appBase .: conf/tomcat-users.xml over HTTP', '/conf/tomcat-users.xml', A, {
    host: 'dot.example',
    divergence: { heading: CONF_DIVERGENCE, tomcat: { status: 200 }, tollgate: { status: 404 } },
  }),
  cmd('remove dot.example', 'remove?name=dot.example', {
    divergence: {
      heading: CONF_DIVERGENCE,
      tomcat: ok('OK - Removed host [dot.example]'),
      tollgate: ok('FAIL - Host name [dot.example] does not exist'),
    },
  }),
  cmd('name conf (default appBase conf/)', 'add?name=conf', {
    divergence: {
      heading: CONF_DIVERGENCE,
      tomcat: ok('OK - Host [conf] added'),
      tollgate: ok(
        'FAIL - Unable to use [{base}/conf] as that would make the configuration directory [{base}/conf] servable',
      ),
    },
  }),
  cmd('remove conf', 'remove?name=conf', {
    divergence: {
      heading: CONF_DIVERGENCE,
      tomcat: ok('OK - Removed host [conf]'),
      tollgate: ok('FAIL - Host name [conf] does not exist'),
    },
  }),
  cmd('absolute appBase outside the base', `add?name=abs.example&appBase=${encodeURIComponent(ABSOLUTE_APPBASE)}`, {
    divergence: {
      heading: ABS_DIVERGENCE,
      tomcat: ok('OK - Host [abs.example] added'),
      tollgate: ok(
        `FAIL - Unable to use [{parent}/${basename(ABSOLUTE_APPBASE)}] as that is outside the expected directory [{base}]`,
      ),
    },
  }),
  cmd('remove abs.example', 'remove?name=abs.example', {
    divergence: {
      heading: ABS_DIVERGENCE,
      tomcat: ok('OK - Removed host [abs.example]'),
      tollgate: ok('FAIL - Host name [abs.example] does not exist'),
    },
  }),
  cmd('add a mixed-case name', 'add?name=Mixed.Example', {
    divergence: {
      heading: CASE_DIVERGENCE,
      tomcat: ok('FAIL - Failed to add host [Mixed.Example]'),
      tollgate: ok('OK - Host [Mixed.Example] added'),
    },
  }),
  cmd('list after the mixed-case add: both hold mixed.example', 'list'),
  cmd('remove by the mixed-case name', 'remove?name=Mixed.Example', {
    divergence: {
      heading: CASE_DIVERGENCE,
      tomcat: ok('FAIL - Host name [Mixed.Example] does not exist'),
      tollgate: ok('OK - Removed host [Mixed.Example]'),
    },
  }),
  cmd('remove by the lower-case name', 'remove?name=mixed.example', {
    divergence: {
      heading: CASE_DIVERGENCE,
      tomcat: ok('OK - Removed host [mixed.example]'),
      tollgate: ok('FAIL - Host name [mixed.example] does not exist'),
    },
  }),
  cmd('add a mixed-case name of an existing host', 'add?name=ONE.example', {
    divergence: {
      heading: CASE_DIVERGENCE,
      tomcat: ok(
        'FAIL - Encountered exception [java.lang.IllegalArgumentException: Child name [one.example] is not unique]',
      ),
      tollgate: ok('FAIL - Host already exists with host name [ONE.example]'),
    },
  }),
  cmd('list after the deliberate differences: the same again', 'list'),

  // stop / start / remove.
  get('before stop: two.example has no ROOT application', '/', A, { host: 'two.example' }),
  cmd('stop', 'stop?name=two.example'),
  cmd('stop again', 'stop?name=two.example'),
  get('a stopped host falls back to the default host', '/', A, { host: 'two.example' }),
  cmd('list shows a stopped host', 'list'),
  cmd('start', 'start?name=two.example'),
  cmd('start again', 'start?name=two.example'),
  cmd('stop one.example', 'stop?name=one.example'),
  get('one.example stopped: the default host answers', '/', A, { host: 'one.example' }),
  cmd('start one.example', 'start?name=one.example'),
  get('one.example started again: its ROOT answers', '/', A, { host: 'one.example' }),
  ...(['remove', 'start', 'stop'] as const).flatMap((c) => [
    cmd(`${c} without name`, c),
    cmd(`${c} with an empty name`, `${c}?name=`),
    cmd(`${c} an unknown host`, `${c}?name=nope.example`),
    cmd(`${c} the default (own) host`, `${c}?name=localhost`),
  ]),
  cmd('remove', 'remove?name=two.example'),
  cmd('remove again', 'remove?name=two.example'),
  cmd('list after remove', 'list'),
  get('a removed host falls back to the default host', '/', A, { host: 'two.example' }),

  // HEAD on commands that change state.
  cmd('HEAD add', 'add?name=head.example', {
    method: 'HEAD',
    divergence: { heading: HEAD_DIVERGENCE, tomcat: { status: 200 }, tollgate: { status: 200 } },
  }),
  cmd('list after HEAD add', 'list', {
    divergence: { heading: HEAD_DIVERGENCE, tomcat: ok(`${LIST1}\n[head.example]:[]`), tollgate: ok(LIST1) },
  }),
  cmd('remove head.example', 'remove?name=head.example', {
    divergence: {
      heading: HEAD_DIVERGENCE,
      tomcat: ok('OK - Removed host [head.example]'),
      tollgate: ok('FAIL - Host name [head.example] does not exist'),
    },
  }),
  cmd('HEAD stop', 'stop?name=one.example', {
    method: 'HEAD',
    divergence: { heading: HEAD_DIVERGENCE, tomcat: { status: 200 }, tollgate: { status: 200 } },
  }),
  get('after HEAD stop', '/', A, {
    host: 'one.example',
    divergence: { heading: HEAD_DIVERGENCE, tomcat: ok('localhost root'), tollgate: ok('one root') },
  }),
  cmd('start one.example after HEAD stop', 'start?name=one.example', {
    divergence: {
      heading: HEAD_DIVERGENCE,
      tomcat: ok('OK - Host [one.example] started'),
      tollgate: ok('FAIL - Host [one.example] is already started'),
    },
  }),
  cmd('list after the HEAD requests: the same again', 'list'),

  // persist without StoreConfigLifecycleListener.
  cmd('persist without StoreConfig', 'persist'),
  cmd('persist with parameters, still without StoreConfig', 'persist?name=one.example'),

  // LockOutRealm: five failures lock a user for 300 s; other users are unaffected.
  ...[1, 2, 3, 4, 5].map((i) => get(`lockout: failure ${i} of 5`, `${TEXT}/list`, 'lockme:bad')),
  get('lockout: the right password is refused while locked', `${TEXT}/list`, 'lockme:s3cret'),
  get('lockout: another user still gets in', `${TEXT}/list`),
  ...[1, 2, 3, 4, 5, 6].map((i) => get(`lockout: unknown user, failure ${i}`, `${TEXT}/list`, 'nobody:bad')),
  get('lockout: still locked after more requests', `${TEXT}/list`, 'lockme:s3cret'),
];

/** Steps on the base whose server.xml has StoreConfigLifecycleListener. */
export const STORECONFIG_STEPS: Step[] = [
  cmd('list', 'list'),
  cmd('add', 'add?name=p.example&aliases=www.p.example'),
  cmd('persist', 'persist'),
  cmd('remove', 'remove?name=p.example'),
  cmd('persist after remove', 'persist'),
  cmd('HEAD persist', 'persist', { method: 'HEAD' }),
];

/** Headers compared on every step (others are framing or vary by nature). */
export const COMPARED_HEADERS = [
  'content-type',
  'cache-control',
  'www-authenticate',
  'x-frame-options',
  'x-content-type-options',
  'allow',
  'location',
  'set-cookie',
  'content-length',
];

/** Replaces the side's own base directory and its parent by placeholders. */
export function normalise(text: string, base: string): string {
  return text.split(base).join('{base}').split(dirname(base)).join('{parent}');
}

/** Tomcat's ErrorReportValve page. */
export function isErrorReport(body: string): boolean {
  return /^<!doctype html>/i.test(body) && body.includes('<title>HTTP Status ');
}

/** The compared view of a response. */
export interface View {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function view(res: { status: number; headers: [string, string][]; body: string }, base: string): View {
  const headers: Record<string, string> = {};
  for (const [k, v] of res.headers) {
    const name = k.toLowerCase();
    if (!COMPARED_HEADERS.includes(name)) continue;
    headers[name] = headers[name] === undefined ? v : `${headers[name]}, ${v}`;
  }
  return { status: res.status, headers, body: normalise(res.body, base) };
}

/**
 * Both views as the test compares them. ErrorReportValve pages are compared
 * byte for byte except the footer naming the server (Tomcat's version against
 * tollgate's configurable server info), so without their length. Content-Length
 * of an empty body is framing (Tomcat sends none on its redirect, node:http sends 0).
 */
export function aligned(tomcat: View, tollgate: View): [View, View] {
  const reduce = (v: View): View => {
    const headers = { ...v.headers };
    if (v.body === '' || isErrorReport(v.body)) delete headers['content-length'];
    if (!isErrorReport(v.body)) return { status: v.status, headers, body: v.body };
    return {
      status: v.status,
      headers,
      body: v.body.replace(/<h3>[^<]*<\/h3><\/body><\/html>$/, '<h3><server info></h3></body></html>'),
    };
  };
  return [reduce(tomcat), reduce(tollgate)];
}
