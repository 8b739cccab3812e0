/**
 * Hostile repository layouts as fuzz generators (issue 33): test/security/corpus.ts commits one fixed
 * hostile repository; here a seed picks a random combination of its attacks in random positions — a
 * link out of the base (absolute, relative, to a folder), to /proc/self/environ, /dev/zero or
 * /dev/urandom, a loop, a dangling link, a FIFO, a zip bomb, a binary, a huge or deep file, control
 * characters and bidi overrides in values — at any file or folder tollgate reads (conf/, its files,
 * context files, an application, its WEB-INF, lib/catalina.jar). Each layout is linted in-process in
 * every format and reported with the CIS audit; the invariants are test/security's: no byte of a file
 * outside the base or of the process environment in any output, no raw control character, memory
 * bounded, and every run ends. test/fuzz/fuzz.test.ts replays a few seeds; bench/fuzz.ts --layouts N
 * runs many.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { formatReport, lint, loadLintInput, type Format } from '../../src/api/lint.js';
import { buildReportData, renderReport } from '../../src/report/index.js';
import { HOSTILE_TEXT } from '../security/corpus.js';
import { bombJar } from '../security/zip.js';
import { mix, Rng } from './fuzz-core.js';

const WEB_APP = '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">';
/** Control characters without the C0 ones XML 1.0 refuses outright (those make the file malformed, also worth a try). */
const XML_HOSTILE = HOSTILE_TEXT.replace(/[\u0000-\u001f]/g, '');

/** Where an attack can sit: a file tollgate reads, or a folder on the way to one. */
const POSITIONS = [
  'conf/server.xml',
  'conf/web.xml',
  'conf/context.xml',
  'conf/tomcat-users.xml',
  'conf/catalina.properties',
  'conf/Catalina/localhost/a.xml',
  'conf/Catalina/localhost/ROOT.xml',
  'conf/Catalina/localhost',
  'conf/Catalina',
  'webapps/app/WEB-INF/web.xml',
  'webapps/app/META-INF/context.xml',
  'webapps/app/WEB-INF',
  'webapps/app',
  'webapps/ROOT/WEB-INF/web.xml',
  'lib/catalina.jar',
  'lib',
] as const;

/** The attacks. Each writes one thing at a position; `folder` ones only where a folder goes. */
const ATTACKS = [
  'link-outside-file',
  'link-outside-relative',
  'link-outside-folder',
  'link-environ',
  'link-proc-self',
  'link-dev-zero',
  'link-dev-urandom',
  'link-self',
  'link-loop',
  'link-dangling',
  'fifo',
  'zip-bomb',
  'binary',
  'huge',
  'deep',
  'control-characters',
] as const;
export type Attack = (typeof ATTACKS)[number];

export interface Layout {
  seed: number;
  index: number;
  /** What was placed where, for the failure message and bench/fuzz.ts's report. */
  placed: { position: string; attack: Attack }[];
  /** The temp folder (base/ and outside/ in it): remove it with `dispose`. */
  root: string;
  base: string;
  /** Bytes of the files outside the base that no output may contain. */
  canary: string;
  dispose: () => void;
}

const SERVER_XML = `<Server port="-1" shutdown="SHUTDOWN"><Service name="Catalina"><Connector port="8080" protocol="HTTP/1.1"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n`;
const APP_XML = `${WEB_APP}<filter><filter-name>cors</filter-name><filter-class>org.apache.catalina.filters.CorsFilter</filter-class></filter><filter-mapping><filter-name>cors</filter-name><url-pattern>/*</url-pattern></filter-mapping></web-app>\n`;

/** A document that names hostile text in every kind of value tollgate echoes (element text, attributes, parameters). */
function controlDocument(position: string): string {
  if (position.endsWith('server.xml'))
    return `<Server port="-1" shutdown="${XML_HOSTILE}"><Service name="${XML_HOSTILE}"><Connector port="8080" protocol="${XML_HOSTILE}" ${XML_HOSTILE.replace(/[^a-z]/g, '')}x="1"/><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"/></Engine></Service></Server>\n`;
  if (position.endsWith('context.xml') || position.includes('/localhost/'))
    return `<Context docBase="${XML_HOSTILE}" path="/${XML_HOSTILE}"><Valve className="${XML_HOSTILE}"/></Context>\n`;
  if (position.endsWith('tomcat-users.xml'))
    return `<tomcat-users><user username="${XML_HOSTILE}" password="${XML_HOSTILE}" roles="manager-gui,${XML_HOSTILE}"/></tomcat-users>\n`;
  if (position.endsWith('.properties')) return `${XML_HOSTILE}=${HOSTILE_TEXT}\n`;
  return `${WEB_APP}<display-name>${XML_HOSTILE}</display-name><filter><filter-name>${XML_HOSTILE}</filter-name><filter-class>org.apache.catalina.filters.${XML_HOSTILE}</filter-class><init-param><param-name>${XML_HOSTILE}</param-name><param-value>${XML_HOSTILE}&#x1b;&#x202e;</param-value></init-param></filter><filter-mapping><filter-name>${XML_HOSTILE}</filter-name><url-pattern>/${XML_HOSTILE}</url-pattern></filter-mapping></web-app>\n`;
}

/** Builds the layout of (seed, index): a plain base with 1-5 attacks placed in it. */
export function makeLayout(seed: number, index: number): Layout {
  const rng = new Rng(mix(seed, index));
  const root = mkdtempSync(join(tmpdir(), 'tollgate-fuzz-layout-'));
  const base = join(root, 'base');
  const outside = join(root, 'outside');
  const canary = `tollgate-layout-canary-${seed}-${index}-${rng.next().toString(36)}`;
  mkdirSync(join(outside, 'WEB-INF'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), `${canary}\n<web-app>${canary}</web-app>\n`);
  writeFileSync(join(outside, 'WEB-INF', 'web.xml'), `${WEB_APP}<display-name>${canary}</display-name></web-app>\n`);
  writeFileSync(join(outside, 'server.xml'), SERVER_XML.replace('SHUTDOWN', canary));
  writeFileSync(join(outside, 'catalina.jar'), canary);

  const placed: Layout['placed'] = [];
  const taken = new Set<string>();
  const count = rng.range(1, 5);
  for (let i = 0; i < count; i++) {
    const position = rng.pick(POSITIONS);
    // One attack per path, and none under a path that already holds one (it would replace it).
    if ([...taken].some((t) => t === position || position.startsWith(`${t}/`) || t.startsWith(`${position}/`)))
      continue;
    taken.add(position);
    placed.push({ position, attack: rng.pick(ATTACKS) });
  }
  // The plain base around the attacks: whatever a position did not take.
  const plain: Record<string, string> = {
    'conf/server.xml': SERVER_XML,
    'conf/web.xml': `${WEB_APP}</web-app>\n`,
    'webapps/app/WEB-INF/web.xml': APP_XML,
    'webapps/ROOT/WEB-INF/web.xml': `${WEB_APP}</web-app>\n`,
  };
  for (const [rel, text] of Object.entries(plain)) {
    if ([...taken].some((t) => rel === t || rel.startsWith(`${t}/`))) continue;
    mkdirSync(dirname(join(base, rel)), { recursive: true });
    writeFileSync(join(base, rel), text);
  }
  for (const { position, attack } of placed) place(rng, base, outside, position, attack);
  return { seed, index, placed, root, base, canary, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

function place(rng: Rng, base: string, outside: string, position: string, attack: Attack): void {
  const path = join(base, position);
  const isFile = /\.(xml|jar|properties)$/.test(position);
  mkdirSync(dirname(path), { recursive: true });
  const link = (target: string): void => symlinkSync(target, path);
  const outsideOf = isFile
    ? position.endsWith('.jar')
      ? 'catalina.jar'
      : position.endsWith('server.xml')
        ? 'server.xml'
        : position.endsWith('web.xml')
          ? join('WEB-INF', 'web.xml')
          : 'secret.txt'
    : position.endsWith('WEB-INF')
      ? 'WEB-INF'
      : '.';
  switch (attack) {
    case 'link-outside-file':
      return link(join(outside, isFile ? outsideOf : 'secret.txt'));
    case 'link-outside-relative':
      return link(relative(dirname(path), join(outside, outsideOf)));
    case 'link-outside-folder':
      return link(isFile ? join(outside, outsideOf) : outside);
    case 'link-environ':
      return link('/proc/self/environ');
    case 'link-proc-self':
      return link(isFile ? '/proc/self/cmdline' : '/proc/self');
    case 'link-dev-zero':
      return link('/dev/zero');
    case 'link-dev-urandom':
      return link('/dev/urandom');
    case 'link-self':
      return link(isFile ? position.split('/').pop()! : '.');
    case 'link-loop': {
      const other = `${path}.loop`;
      symlinkSync(path.split('/').pop()!, other);
      return link(other.split('/').pop()!);
    }
    case 'link-dangling':
      return link(join(outside, 'does-not-exist'));
    case 'fifo':
      execFileSync('mkfifo', [path]);
      return;
    case 'zip-bomb':
      if (!isFile) mkdirSync(path, { recursive: true });
      writeFileSync(
        isFile ? path : join(path, 'catalina.jar'),
        bombJar(rng.pick(['claims', 'ratio', 'lies'] as const)),
      );
      return;
    case 'binary': {
      const bytes = Buffer.alloc(rng.range(1, 4096));
      for (let i = 0; i < bytes.length; i++) bytes[i] = rng.int(256);
      if (!isFile) mkdirSync(path, { recursive: true });
      writeFileSync(isFile ? path : join(path, 'web.xml'), bytes);
      return;
    }
    case 'huge': {
      // Under and over the 8 MiB cap; one long line or many.
      const size = rng.pick([1 << 20, 3 << 20, 9 << 20]);
      const line = rng.chance(0.5) ? '' : '\n';
      const item = `<context-param><param-name>p</param-name><param-value>${XML_HOSTILE}</param-value></context-param>${line}`;
      const text = `${WEB_APP}${item.repeat(Math.ceil(size / item.length))}</web-app>\n`;
      if (!isFile) mkdirSync(path, { recursive: true });
      writeFileSync(isFile ? path : join(path, 'web.xml'), text);
      return;
    }
    case 'deep': {
      const depth = rng.pick([1_000, 20_000, 200_000]);
      const text = `${WEB_APP}${'<x>'.repeat(depth)}${'</x>'.repeat(depth)}</web-app>\n`;
      if (!isFile) mkdirSync(path, { recursive: true });
      writeFileSync(isFile ? path : join(path, 'web.xml'), text);
      return;
    }
    case 'control-characters':
      if (!isFile) mkdirSync(path, { recursive: true });
      writeFileSync(isFile ? path : join(path, 'web.xml'), controlDocument(isFile ? position : `${position}/web.xml`));
      return;
  }
}

/** Strings of the process environment (as /proc/self/environ shows it) that no output may contain. */
export function environmentEntries(): string[] {
  let raw: string;
  try {
    raw = readFileSync('/proc/self/environ', 'latin1');
  } catch {
    return [];
  }
  // Whole entries (NAME=value) long enough not to occur by chance.
  return raw.split('\0').filter((e) => e.length >= 12 && e.includes('='));
}

const FORMATS: Format[] = ['stylish', 'json', 'sarif', 'github'];
const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export interface LayoutOutcome {
  /** What broke an invariant (empty: none). */
  problems: string[];
  /** CPU milliseconds the layout's runs took. */
  cpuMs: number;
  /** Bytes of output checked. */
  outputBytes: number;
}

/**
 * Lints the layout with the CIS profile (which reads lib/catalina.jar) in every format, and reports it
 * with the CIS audit, in this process; checks every output against the invariants.
 */
export async function runLayout(layout: Layout, environment: readonly string[]): Promise<LayoutOutcome> {
  const problems: string[] = [];
  const outputs: [string, string][] = [];
  const cpu0 = process.cpuUsage();
  try {
    const report = await lint(layout.base, { profile: 'cis', workers: 1, config: false, cwd: layout.root });
    for (const f of FORMATS) outputs.push([`lint -f ${f}`, formatReport(report, f)]);
  } catch (e) {
    problems.push(`lint threw: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    const base = loadLintInput(layout.base);
    const html = renderReport(buildReportData(base, layout.base, { benchmark: 'cis-tomcat-10.1', now: new Date(0) }));
    outputs.push(['report --benchmark cis-tomcat-10.1', html]);
  } catch (e) {
    problems.push(`report threw: ${e instanceof Error ? e.message : String(e)}`);
  }
  const cpu = process.cpuUsage(cpu0);
  let outputBytes = 0;
  for (const [what, text] of outputs) {
    outputBytes += text.length;
    if (text.includes(layout.canary)) problems.push(`${what}: a file outside the base reached the output`);
    const env = environment.find((e) => text.includes(e));
    if (env) problems.push(`${what}: the environment entry ${env.split('=')[0]} reached the output`);
    const raw = RAW_CONTROL.exec(text);
    if (raw) problems.push(`${what}: raw U+${raw[0].charCodeAt(0).toString(16)} at ${raw.index}`);
  }
  return { problems, cpuMs: (cpu.user + cpu.system) / 1000, outputBytes };
}

/** How a layout reads in a failure message: what was placed where. */
export const describeLayout = (l: Layout): string =>
  `seed ${l.seed} index ${l.index}: ${l.placed.map((p) => `${p.attack} at ${p.position}`).join(', ')}`;

/** A way to run V8's collector between layouts, so a process's peak RSS is the worst single layout's. */
export function collector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  return typeof gc === 'function' ? gc : () => undefined;
}

export interface LayoutsSummary {
  layouts: number;
  /** How often each attack was placed. */
  attacks: Record<string, number>;
  failures: { layout: string; problems: string[] }[];
  cpuMs: number[];
  /** The process's peak RSS during the run minus its RSS before the first layout (MiB). */
  rssGrowthMiB: number;
  outputBytes: number;
}

/** Runs layouts start..start+count-1 of `seed`, collecting between them; every layout's folder removed. */
export async function runLayouts(seed: number, start: number, count: number): Promise<LayoutsSummary> {
  const gc = collector();
  const environment = environmentEntries();
  gc();
  const rss0 = resetPeakRss();
  const s: LayoutsSummary = { layouts: 0, attacks: {}, failures: [], cpuMs: [], rssGrowthMiB: 0, outputBytes: 0 };
  for (let i = start; i < start + count; i++) {
    const layout = makeLayout(seed, i);
    try {
      const o = await runLayout(layout, environment);
      s.layouts++;
      for (const p of layout.placed) s.attacks[p.attack] = (s.attacks[p.attack] ?? 0) + 1;
      if (o.problems.length) s.failures.push({ layout: describeLayout(layout), problems: o.problems });
      s.cpuMs.push(o.cpuMs);
      s.outputBytes += o.outputBytes;
    } finally {
      layout.dispose();
    }
    gc();
  }
  s.rssGrowthMiB = (peakRss() - rss0) / 1024 / 1024;
  return s;
}

/**
 * Resets the process's peak RSS (Linux: "5" to /proc/self/clear_refs), so the peak measured after is
 * this run's and not that of a test before it in the same process; returns the RSS now, in bytes.
 */
function resetPeakRss(): number {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Without the reset the peak may be an earlier one: the growth is then over-counted, never under.
  }
  return process.memoryUsage().rss;
}

/** The process's peak RSS in bytes since the last reset (VmHWM), or getrusage's peak where there is no /proc. */
function peakRss(): number {
  try {
    const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib) return Number(kib) * 1024;
  } catch {
    // Not Linux: getrusage below.
  }
  return process.resourceUsage().maxRSS * 1024;
}
