import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import {
  effectiveChain,
  findContext,
  findHost,
  type ChainEntry,
  type MergedFilterMapping,
  type ServletMatch,
} from '../../chain/index.js';
import { DISPATCHERS, type CatalinaBase, type Dispatcher, type LoadedHost, type Span } from '../../model/index.js';
import { loadBase, parseChainJson } from '../../parser/index.js';
import { planBase, routeOf, type Plan, type PlannedContext } from '../../plan/index.js';
import { UsageError, type Command, type Io } from '../command.js';
import { choiceOption, single, stringOption } from '../options.js';

interface Options {
  base: string;
  home?: string;
  host?: string;
  context?: string;
  path?: string;
  dispatcher: Dispatcher;
  json: boolean;
}

function where(span: Span, cwd: string): string {
  const file = isAbsolute(span.file) ? relative(cwd, span.file) || span.file : span.file;
  return `${file}:${span.line}:${span.column}`;
}

function contextLabel(c: PlannedContext): string {
  return `${c.host}${c.contextPath || '/'}`;
}

function optionsOf(argv: Record<string, unknown>): Options {
  const dispatcher = argv['dispatcher'] as Dispatcher;
  const str = (k: string): string | undefined => (argv[k] === undefined ? undefined : String(argv[k]));
  return {
    base: String(argv['base']),
    home: str('home'),
    host: str('host'),
    context: str('context'),
    path: str('path'),
    dispatcher,
    json: argv['format'] === 'json',
  };
}

function load(o: Options, cwd: string): CatalinaBase {
  const dir = resolve(cwd, o.base);
  const isFile = existsSync(dir) && statSync(dir).isFile();
  if (isFile && /\.json$/i.test(dir)) return parseChainJson(readFileSync(dir, 'utf8'), dir).base;
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`--base ${o.base} is neither a directory nor a tollgate.chain.json`);
  if (o.home !== undefined && !existsSync(resolve(cwd, o.home)))
    throw new UsageError(`--home ${o.home} does not exist`);
  const base = loadBase({ base: dir, home: o.home === undefined ? undefined : resolve(cwd, o.home) });
  const fatal = base.diagnostics.find((d) => d.ruleId === 'base-unreadable');
  if (fatal) throw new UsageError(fatal.message);
  return base;
}

/** The context path as Tomcat writes it ("" for ROOT) from what a user types ("/", "/app/", "app"). */
function contextPathOf(text: string): string {
  const trimmed = text.replace(/\/+$/, '');
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : '/' + trimmed;
}

/** Tomcat maps the decoded path, without the query string. */
function requestPathOf(text: string): string {
  const path = text.replace(/[?#].*$/, '');
  if (!path.startsWith('/')) throw new UsageError(`--path must start with "/", not "${text}"`);
  try {
    return decodeURIComponent(path);
  } catch {
    throw new UsageError(`--path ${text} has a "%" that is not followed by two hexadecimal digits`);
  }
}

/** Why Tomcat does not start a context (from the plan, as compile and serve decide it), or null when it does. */
function startupNote(c: PlannedContext, cwd: string): string | null {
  if (c.state === 'starts') return null;
  const cause = c.reasons[0]!;
  return `Tomcat does not start this context: ${where(cause.span, cwd)}: ${cause.message}`;
}

function mappingTargets(m: MergedFilterMapping): string {
  return (
    [
      ...m.urlPatterns.map((u) => `"${u.source.value}"`),
      ...m.mapping.servletNames.map((s) => `servlet ${s.value}`),
    ].join(', ') || '(nothing)'
  );
}

function describeContext(p: PlannedContext, cwd: string): object {
  const c = p.resolved;
  return {
    host: c.host.name,
    context: c.context.path || '/',
    docBase: c.context.docBase,
    startup: p.state,
    ...(p.state === 'refused'
      ? { refused: p.reasons.map((d) => ({ at: where(d.span, cwd), ruleId: d.ruleId, message: d.message })) }
      : {}),
    filters: [...c.merged.filters.values()].map((f) => ({
      name: f.name,
      class: f.className?.value ?? null,
      origin: f.origin,
      declared: where(f.def.span, cwd),
      initParams: Object.fromEntries(f.initParams.map((p) => [p.name.value, p.value.value])),
    })),
    mappings: c.merged.filterMappings.map((m) => ({
      filter: m.filterName,
      origin: m.origin,
      urlPatterns: m.urlPatterns.map((u) => u.pattern),
      servletNames: m.mapping.servletNames.map((s) => s.value),
      dispatchers: m.dispatchers,
      declared: where(m.mapping.span, cwd),
    })),
    servletMappings: Object.fromEntries([...c.merged.servletMappings.values()].map((s) => [s.pattern, s.servletName])),
    welcomeFiles: c.merged.welcomeFiles,
  };
}

function formatContext(p: PlannedContext, cwd: string): string {
  const c = p.resolved;
  const lines = [`${contextLabel(p)}  (${relative(cwd, c.context.docBase) || '.'})`];
  const note = startupNote(p, cwd);
  if (note) lines.push(`  ! ${note}`);
  if (c.merged.filterMappings.length === 0) lines.push('  no filter mappings');
  c.merged.filterMappings.forEach((m, i) => {
    const f = c.merged.filters.get(m.filterName);
    lines.push(
      `  ${i + 1}. ${m.filterName}  ${f ? (f.className?.value ?? '(no class)') : '(undefined filter)'}  ${mappingTargets(m)}  [${m.dispatchers.join('|')}]  (${m.origin}, ${where(m.mapping.span, cwd)})`,
    );
  });
  return lines.join('\n') + '\n';
}

function servletLine(s: ServletMatch | null): string {
  if (!s) return 'no servlet matches: Tomcat answers 404 (or redirects the bare context path) and runs no filter';
  const welcome = s.welcomeFile ? `, welcome file "${s.welcomeFile}"` : '';
  return `servlet ${s.servletName} via "${s.pattern}" (${s.kind}${welcome}); filters match ${s.requestPath || '""'}`;
}

function entryJson(e: ChainEntry, cwd: string): object {
  return {
    name: e.filter.name,
    class: e.filter.className?.value ?? null,
    origin: e.filter.origin,
    declared: where(e.filter.def.span, cwd),
    initParams: Object.fromEntries(e.filter.initParams.map((p) => [p.name.value, p.value.value])),
    matchedBy: { kind: e.matchedBy.kind, value: e.matchedBy.value, at: where(e.matchedBy.span, cwd) },
    mapping: where(e.mapping.mapping.span, cwd),
  };
}

interface Target {
  target: PlannedContext | null;
  path: string;
  /** Contexts the URI names that Tomcat does not start (their requests go to the next match). */
  passedOver: PlannedContext[];
}

function pickTarget(plan: Plan, o: Options, host: LoadedHost | null, requestPath: string): Target {
  const planned = plan.contexts.filter((c) => c.resolved.host === host);
  if (o.context !== undefined) {
    const wanted = contextPathOf(o.context);
    const target = planned.find((c) => c.contextPath === wanted);
    if (!target) throw new UsageError(`no context "${o.context}" on host ${host?.name ?? plan.defaultHost}`);
    return { target, path: requestPath, passedOver: [] };
  }
  const named = host ? findContext(host, requestPath) : null;
  if (!named) throw new UsageError(`no context of host ${host?.name ?? plan.defaultHost} serves ${requestPath}`);
  const plannedHost = plan.hosts.find((h) => h.name === host?.name) ?? null;
  const match = plannedHost ? routeOf(plannedHost, requestPath) : null;
  const covers = (c: PlannedContext): boolean =>
    c.contextPath === '' || requestPath === c.contextPath || requestPath.startsWith(c.contextPath + '/');
  const passedOver = planned.filter(
    (c) => c.state === 'refused' && covers(c) && (!match || c.contextPath.length > match.contextPath.length),
  );
  return { target: match, path: match ? requestPath.slice(match.contextPath.length) : requestPath, passedOver };
}

function run(argv: Record<string, unknown>, io: Io): Promise<number> {
  const o = optionsOf(argv);
  const base = load(o, io.cwd);
  const cwd = io.cwd;
  const host = findHost(base, o.host ?? base.defaultHost);
  if (o.host !== undefined && !host) throw new UsageError(`no host "${o.host}" and no default host in ${o.base}`);
  // Tomcat sends an unknown Host to the default host; say so rather than answer silently for another host.
  const fellBack = o.host !== undefined && findHost({ ...base, defaultHost: '' }, o.host) === null;

  const plan = planBase(base);
  if (o.path === undefined) {
    let contexts = plan.contexts;
    if (o.host !== undefined) contexts = contexts.filter((c) => c.resolved.host === host);
    if (o.context !== undefined) {
      const wanted = contextPathOf(o.context);
      contexts = contexts.filter((c) => c.contextPath === wanted);
      if (contexts.length === 0) throw new UsageError(`no context "${o.context}" in ${o.base}`);
    }
    if (o.json)
      io.stdout(
        JSON.stringify(
          contexts.map((c) => describeContext(c, cwd)),
          null,
          2,
        ) + '\n',
      );
    else for (const c of contexts) io.stdout(formatContext(c, cwd));
    return Promise.resolve(0);
  }

  const requestPath = requestPathOf(o.path);
  const { target, path, passedOver } = pickTarget(plan, o, host, requestPath);
  const exists = (p: string): boolean => {
    try {
      return target !== null && statSync(join(target.docBase, p)).isFile();
    } catch {
      return false;
    }
  };
  const { servlet, entries } = target
    ? effectiveChain(target.resolved.merged, path, o.dispatcher, exists)
    : { servlet: null, entries: [] };
  if (o.json) {
    const doc = {
      host: target?.host ?? host?.name ?? null,
      context: target ? target.contextPath || '/' : null,
      path,
      dispatcher: o.dispatcher,
      startup: target?.state ?? null,
      notStarted: passedOver.map((c) => ({ context: c.contextPath || '/', reason: startupNote(c, cwd) })),
      servlet,
      filters: entries.map((e) => entryJson(e, cwd)),
    };
    io.stdout(JSON.stringify(doc, null, 2) + '\n');
    return Promise.resolve(0);
  }
  const out: string[] = [];
  if (fellBack) out.push(`(no host "${o.host}": the default host ${target?.host ?? host!.name} answers)`);
  for (const c of passedOver)
    out.push(
      `! ${contextLabel(c)}: ${startupNote(c, cwd)?.replace(/\.$/, '')}; its requests go to ${target ? contextLabel(target) : 'no context (404)'}`,
    );
  if (!target) {
    out.push(`no context serves ${requestPath}: Tomcat answers 404 and runs no filter`);
    io.stdout(out.join('\n') + '\n');
    return Promise.resolve(0);
  }
  out.push(`${contextLabel(target)}  ${path || '""'}  (${o.dispatcher})`);
  const note = startupNote(target, cwd);
  if (note) out.push(`  ! ${note}`);
  out.push(`  ${servletLine(servlet)}`);
  if (entries.length === 0) out.push('  no filter runs');
  entries.forEach((e, i) => {
    out.push(
      `  ${i + 1}. ${e.filter.name}  ${e.filter.className?.value ?? '(no class)'}  (${e.filter.origin}, declared ${where(e.filter.def.span, cwd)})`,
    );
    out.push(`     matched ${e.matchedBy.kind} "${e.matchedBy.value}" at ${where(e.matchedBy.span, cwd)}`);
  });
  io.stdout(out.join('\n') + '\n');
  return Promise.resolve(0);
}

export const chainCommand: Command = {
  builder: (y: Argv) =>
    y
      .option(
        'base',
        stringOption('base', 'CATALINA_BASE directory (or a tollgate.chain.json)', { demandOption: true }),
      )
      .option('home', stringOption('home', 'CATALINA_HOME (defaults to --base)'))
      .option(
        'host',
        stringOption('host', "Host name or alias, as in a Host header (default: the Engine's defaultHost)"),
      )
      .option('context', stringOption('context', 'Context path, e.g. /api or / (then --path is relative to it)'))
      .option('path', stringOption('path', 'Request path, with the context path unless --context is given'))
      // Tomcat's DispatcherType names, in any case (yargs checks the choices after this coerce).
      .option(
        'dispatcher',
        choiceOption('dispatcher', DISPATCHERS, 'Dispatcher type of the request', {
          default: 'REQUEST',
          coerce: (v: unknown) => single('dispatcher', v).toUpperCase(),
        }),
      )
      .option('format', choiceOption('format', ['text', 'json'], 'Output format', { default: 'text' })),
  run,
};
