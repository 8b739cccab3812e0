#!/usr/bin/env node
/**
 * Observes filter order on real Apache Tomcat for every fixture under
 * test/fixtures/ordering/<scenario>/ and writes <scenario>/observed.json.
 *
 *   node scripts/observe-ordering.mjs [scenario ...]
 *
 * Each scenario directory is a CATALINA_BASE plus requests.json. It is copied
 * to a temporary directory, its Connector port is replaced by a free port on
 * 127.0.0.1, the probe classes (test/tomcat-observe/*.java) go into its lib/,
 * and Tomcat (CATALINA_HOME, default /usr/share/tomcat10) runs it in the
 * foreground. Tomcat is always stopped, also on errors and Ctrl-C.
 * Test tooling only: nothing here ships.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { basename, join } from 'node:path';
import { CATALINA_HOME, freePort, removeDir, run, startTomcat, tempDir, tomcatVersion } from './tomcat-process.mjs';

const repo = join(import.meta.dirname, '..');
const fixtures = join(repo, 'test', 'fixtures', 'ordering');
const probeSources = join(repo, 'test', 'tomcat-observe');
const STARTUP_TIMEOUT_MS = 90_000;

function buildProbeJar(work) {
  const classes = join(work, 'classes');
  mkdirSync(classes, { recursive: true });
  const sources = readdirSync(probeSources)
    .filter((f) => f.endsWith('.java'))
    .map((f) => join(probeSources, f));
  run('javac', ['-cp', join(CATALINA_HOME, 'lib', 'servlet-api.jar'), '-d', classes, ...sources]);
  const jar = join(work, 'probe.jar');
  run('jar', ['cf', jar, '-C', classes, '.']);
  return jar;
}

/** Copies the scenario to a throwaway CATALINA_BASE that Tomcat can run. */
async function prepareBase(scenarioDir, jar) {
  const base = tempDir('tollgate-observe-');
  cpSync(scenarioDir, base, { recursive: true });
  for (const d of ['lib', 'logs', 'temp', 'work']) mkdirSync(join(base, d), { recursive: true });
  cpSync(jar, join(base, 'lib', 'probe.jar'));
  const port = await freePort();
  const serverXml = join(base, 'conf', 'server.xml');
  const xml = readFileSync(serverXml, 'utf8');
  const connectors = xml.match(/<Connector\b/g)?.length ?? 0;
  if (connectors !== 1) throw new Error(`${scenarioDir}: expected exactly one <Connector>, found ${connectors}`);
  if (!/<Server port="-1"/.test(xml)) throw new Error(`${scenarioDir}: <Server port> must be -1`);
  writeFileSync(serverXml, xml.replace(/(<Connector\b[^>]*?\bport=")\d+"/, `$1${port}"`));
  writeFileSync(
    join(base, 'conf', 'catalina.properties'),
    [
      'common.loader="${catalina.base}/lib","${catalina.base}/lib/*.jar","${catalina.home}/lib","${catalina.home}/lib/*.jar"',
      'tomcat.util.scan.StandardJarScanFilter.jarsToSkip=*.jar',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(base, 'conf', 'logging.properties'),
    [
      'handlers = java.util.logging.ConsoleHandler',
      '.level = INFO',
      'java.util.logging.ConsoleHandler.level = ALL',
      '',
    ].join('\n'),
  );
  return { base, port };
}

function headerValues(res, name) {
  const out = [];
  for (let i = 0; i < res.rawHeaders.length; i += 2) {
    if (res.rawHeaders[i].toLowerCase() === name) out.push(res.rawHeaders[i + 1]);
  }
  return out;
}

function get(port, host, path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res));
    });
    req.on('error', reject);
    req.end();
  });
}

/** "REQUEST /index.html default DEFAULT '/'" as sent by ProbeFilter. */
function parseDispatch(text) {
  const m = /^(\S+) (.*) (\S+) (\S+) '(.*)'$/.exec(text);
  if (!m) throw new Error(`unexpected X-Probe-Dispatch: ${text}`);
  return { dispatcher: m[1], path: m[2], servlet: m[3], match: m[4], pattern: m[5] };
}

async function observe(port, r) {
  const host = r.host ?? 'localhost';
  const res = await get(port, host, r.path);
  const included = headerValues(res, 'x-probe-included').map((e) => e.slice(0, e.indexOf(' ')));
  const result = {
    host,
    path: r.path,
    status: res.statusCode,
    order: [...headerValues(res, 'x-probe-order'), ...included],
    dispatches: headerValues(res, 'x-probe-dispatch').map(parseDispatch),
  };
  const servlet = headerValues(res, 'x-probe-servlet');
  if (servlet.length) result.servlet = servlet;
  const timeout = res.headers['x-probe-session-timeout'];
  if (timeout !== undefined) result.sessionTimeout = Number(timeout);
  if (r.contentType) result.contentType = res.headers['content-type'] ?? null;
  if (res.headers.location) result.location = res.headers.location;
  return result;
}

/**
 * Contexts Tomcat refused to start, from its log, each with the innermost
 * exception message behind it ("Duplicate filter name [X]", ...).
 */
function failedContexts(log) {
  const out = new Map();
  let lastCause = null;
  // One block per log record: java.util.logging prints "SEVERE: message" after a date line.
  for (const block of log.split(/\n(?=[A-Z][a-z]{2} \d+, \d{4} )/)) {
    // A message may span lines (a url-pattern with a line break): it ends where the stack trace starts.
    const causes = [...block.matchAll(/^Caused by: ([\w.$]+)(?:: ((?:.|\n(?!\s+at |\s+\.\.\.))*))?$/gm)].map(
      (m) => m[2] ?? m[1],
    );
    const filterStart = /^SEVERE: (Exception starting filter \[[^\]]*\])/m.exec(block);
    const inner = filterStart?.[1] ?? causes.filter((c) => !/^Failed to start component/.test(c)).pop();
    if (inner) lastCause = inner;
    const failed =
      /Context \[([^\]]*)\] startup failed/.exec(block) ??
      /Failed to start component \[.*StandardContext\[([^\]]*)\]\]/.exec(block);
    if (failed && !out.has(failed[1])) out.set(failed[1], inner ?? lastCause);
  }
  return [...out].sort(([a], [b]) => a.localeCompare(b)).map(([context, reason]) => ({ context, reason }));
}

async function observeScenario(dir, jar, version) {
  const { requests } = JSON.parse(readFileSync(join(dir, 'requests.json'), 'utf8'));
  const { base, port } = await prepareBase(dir, jar);
  let tomcat = null;
  try {
    tomcat = await startTomcat(base, { timeoutMs: STARTUP_TIMEOUT_MS });
    const results = [];
    for (const r of requests) results.push(await observe(port, r));
    const log = tomcat.log();
    const doc = { tomcat: version, scenario: basename(dir), failedContexts: failedContexts(log), requests: results };
    const severe = process.env.OBSERVE_LOG ? log.split('\n') : [...log.matchAll(/^.*SEVERE.*$/gm)].map((m) => m[0]);
    writeFileSync(join(dir, 'observed.json'), JSON.stringify(doc, null, 2) + '\n');
    return { doc, severe };
  } finally {
    if (tomcat) await tomcat.stop();
    removeDir(base);
  }
}

const wanted = process.argv.slice(2);
const scenarios = readdirSync(fixtures, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(fixtures, d.name, 'requests.json')))
  .map((d) => d.name)
  .filter((n) => wanted.length === 0 || wanted.includes(n))
  .sort();
if (scenarios.length === 0) throw new Error(`no scenario matches ${wanted.join(' ')}`);

const work = tempDir('tollgate-observe-probe-');
try {
  const jar = buildProbeJar(work);
  const version = tomcatVersion();
  for (const name of scenarios) {
    const { doc, severe } = await observeScenario(join(fixtures, name), jar, version);
    console.log(
      `${name}: ${doc.requests.length} requests; failed contexts: ${doc.failedContexts.map((f) => `${f.context} (${f.reason})`).join(', ') || 'none'}`,
    );
    for (const r of doc.requests) console.log(`  ${r.host} ${r.path} ${r.status} ${r.order.join(' ') || '-'}`);
    if (process.env.OBSERVE_VERBOSE) for (const line of severe) console.log(`  ! ${line}`);
  }
} finally {
  removeDir(work);
}
