import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { contextsOf, effectiveChain, findContext, findHost, type ResolvedContext } from '../../chain/index.js';
import { DISPATCHERS, type CatalinaBase, type Dispatcher, type Span } from '../../model/index.js';
import { loadBase, parseChainJson } from '../../parser/index.js';
import { UsageError, type Command, type Io } from '../command.js';

function where(span: Span, cwd: string): string {
  return `${relative(cwd, span.file) || span.file}:${span.line}:${span.column}`;
}

function contextLabel(c: ResolvedContext): string {
  return `${c.host.name}${c.context.path || '/'}`;
}

function describeContext(c: ResolvedContext, cwd: string): object {
  return {
    host: c.host.name,
    context: c.context.path || '/',
    docBase: c.context.docBase,
    filters: [...c.merged.filters.values()].map((f) => ({
      name: f.name,
      class: f.className?.value ?? null,
      origin: f.origin,
      declared: where(f.def.span, cwd),
    })),
    mappings: c.merged.filterMappings.map((m) => ({
      filter: m.mapping.filterName.value,
      origin: m.origin,
      urlPatterns: m.mapping.urlPatterns.map((u) => u.value),
      servletNames: m.mapping.servletNames.map((s) => s.value),
      dispatchers: m.mapping.dispatchers.length ? m.mapping.dispatchers.map((d) => d.value) : ['REQUEST'],
      declared: where(m.mapping.span, cwd),
    })),
  };
}

function run(argv: Record<string, unknown>, io: Io): Promise<number> {
  const baseDir = String(argv['base']);
  const isJson = /\.json$/i.test(baseDir) && existsSync(baseDir) && statSync(baseDir).isFile();
  if (!isJson && (!existsSync(baseDir) || !statSync(baseDir).isDirectory())) throw new UsageError(`--base ${baseDir} is neither a directory nor a tollgate.chain.json`);
  const dispatcher = String(argv['dispatcher']).toUpperCase() as Dispatcher;
  if (!DISPATCHERS.includes(dispatcher)) throw new UsageError(`--dispatcher must be one of ${DISPATCHERS.join(', ')}`);
  const base: CatalinaBase = isJson
    ? parseChainJson(readFileSync(baseDir, 'utf8'), resolve(io.cwd, baseDir)).base
    : loadBase({ base: baseDir, home: argv['home'] ? String(argv['home']) : undefined });
  const fatal = base.diagnostics.find((d) => d.ruleId === 'base-unreadable');
  if (fatal) throw new UsageError(fatal.message);
  const cwd = io.cwd;
  const json = argv['format'] === 'json';
  let contexts = contextsOf(base);
  if (argv['host'] !== undefined) {
    const host = findHost(base, String(argv['host']));
    contexts = contexts.filter((c) => c.host === host);
  }
  if (argv['context'] !== undefined) {
    const wanted = String(argv['context']) === '/' ? '' : String(argv['context']).replace(/\/+$/, '');
    contexts = contexts.filter((c) => c.context.path === wanted);
    if (contexts.length === 0) throw new UsageError(`no context "${String(argv['context'])}" in ${baseDir}`);
  }

  if (argv['path'] === undefined) {
    if (json) io.stdout(JSON.stringify(contexts.map((c) => describeContext(c, cwd)), null, 2) + '\n');
    else for (const c of contexts) io.stdout(formatContext(c, cwd));
    return Promise.resolve(0);
  }

  const requestPath = String(argv['path']);
  if (!requestPath.startsWith('/')) throw new UsageError('--path must start with "/"');
  let target: ResolvedContext | undefined;
  if (argv['context'] !== undefined) target = contexts[0];
  else {
    const host = argv['host'] !== undefined ? findHost(base, String(argv['host'])) : findHost(base, base.defaultHost);
    const ctx = host ? findContext(host, requestPath) : null;
    target = contexts.find((c) => c.context === ctx);
  }
  if (!target) throw new UsageError(`no context serves ${requestPath}`);
  const inContext = argv['context'] !== undefined ? requestPath : requestPath.slice(target.context.path.length) || '/';
  const docBase = target.context.docBase;
  const exists = (p: string): boolean => existsSync(join(docBase, p));
  const { servlet, entries } = effectiveChain(target.merged, inContext, dispatcher, exists);
  if (json) {
    io.stdout(JSON.stringify({
      host: target.host.name,
      context: target.context.path || '/',
      path: inContext,
      dispatcher,
      servlet: servlet ? { name: servlet.servletName, pattern: servlet.pattern, requestPath: servlet.requestPath } : null,
      filters: entries.map((e) => ({
        name: e.filter.name,
        class: e.filter.className?.value ?? null,
        origin: e.filter.origin,
        declared: where(e.filter.def.span, cwd),
        matchedBy: e.matchedBy,
        mapping: where(e.mapping.mapping.span, cwd),
      })),
    }, null, 2) + '\n');
    return Promise.resolve(0);
  }
  io.stdout(`${contextLabel(target)}  ${inContext}  (${dispatcher})  servlet: ${servlet ? `${servlet.servletName} via "${servlet.pattern}"` : 'none'}\n`);
  if (entries.length === 0) io.stdout('  no filter runs\n');
  entries.forEach((e, i) => {
    io.stdout(`  ${i + 1}. ${e.filter.name}  ${e.filter.className?.value ?? '(no class)'}\n`);
    io.stdout(`     declared ${where(e.filter.def.span, cwd)}  matched ${e.matchedBy.kind} "${e.matchedBy.value}" at ${where(e.mapping.mapping.span, cwd)}\n`);
  });
  return Promise.resolve(0);
}

function formatContext(c: ResolvedContext, cwd: string): string {
  const lines = [`${contextLabel(c)}  (${relative(cwd, c.context.docBase) || '.'})`];
  if (c.merged.filterMappings.length === 0) lines.push('  no filter mappings');
  c.merged.filterMappings.forEach((m, i) => {
    const f = c.merged.filters.get(m.mapping.filterName.value);
    const targets = [...m.mapping.urlPatterns.map((u) => `"${u.value}"`), ...m.mapping.servletNames.map((s) => `servlet ${s.value}`)].join(', ');
    const disp = m.mapping.dispatchers.length ? m.mapping.dispatchers.map((d) => d.value).join('|') : 'REQUEST';
    lines.push(`  ${i + 1}. ${m.mapping.filterName.value}  ${f?.className?.value ?? '(undefined filter)'}  ${targets}  [${disp}]  (${m.origin}, ${where(m.mapping.span, cwd)})`);
  });
  return lines.join('\n') + '\n';
}

export const chainCommand: Command = {
  name: 'chain',
  describe: 'Show the filters that run for a request, in Tomcat\'s order',
  builder: (y: Argv) =>
    y
      .option('base', { type: 'string', demandOption: true, describe: 'CATALINA_BASE directory' })
      .option('home', { type: 'string', describe: 'CATALINA_HOME (defaults to --base)' })
      .option('host', { type: 'string', describe: 'Host name or alias (default: the Engine\'s defaultHost)' })
      .option('context', { type: 'string', describe: 'Context path, e.g. /api or /' })
      .option('path', { type: 'string', describe: 'Request path (with the context path unless --context is given)' })
      .option('dispatcher', { type: 'string', default: 'REQUEST', describe: DISPATCHERS.join('|') })
      .option('format', { choices: ['text', 'json'] as const, default: 'text' }),
  run,
};
