import { existsSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import type { TomcatTarget } from '../../filters/index.js';
import { lintBase } from '../../lint/engine.js';
import { loadBase } from '../../parser/index.js';
import { ServerRefusedError, startContainer } from '../../server/container.js';
import { UsageError, type Command, type Io } from '../command.js';
import { integerOption, stringOption, targetOption } from '../options.js';
import { skippedLine, stylish, UNSAFE_RULES } from '../plan-output.js';

export const serveCommand: Command = {
  name: 'serve',
  describe: 'Serve a CATALINA_BASE: virtual hosts, static webapps through their chains, and the host manager',
  builder: (y: Argv) =>
    y
      .option('base', stringOption('base', 'CATALINA_BASE directory', { demandOption: true }))
      .option('home', stringOption('home', 'CATALINA_HOME (defaults to --base)'))
      .option('port', integerOption('port', 0, 65535, 'Port (default: the HTTP connector of server.xml; 0 picks a free one)'))
      .option('address', stringOption('address', 'Address to bind', { default: '127.0.0.1' }))
      .option('strict', { type: 'boolean', default: false, describe: 'Refuse to start when lint finds any error' })
      .option('target', targetOption(true))
      .option('allow-app-base-outside-base', { type: 'boolean', default: false, describe: 'Let the host manager add hosts whose appBase is outside the base' }),
  run: async (argv: Record<string, unknown>, io: Io) => {
    const base = resolve(io.cwd, String(argv['base']));
    if (!existsSync(base) || !statSync(base).isDirectory()) throw new UsageError(`--base ${String(argv['base'])} is not a directory`);
    const home = argv['home'] ? resolve(io.cwd, String(argv['home'])) : undefined;
    const target = argv['target'] as TomcatTarget;
    // Lint is shown, not obeyed: what starts is the plan's to decide (as Tomcat), unless --strict.
    const loaded = loadBase({ base, ...(home ? { home } : {}) });
    const problems = lintBase(loaded, { target }).diagnostics.filter((d) => d.severity !== 'info');
    const unsafe = problems.filter((d) => d.severity === 'error' && UNSAFE_RULES.has(d.ruleId));
    const errors = problems.filter((d) => d.severity === 'error').length;
    io.stdout(`tollgate serve: lint found ${errors} error(s) and ${problems.length - errors} warning(s)\n`);
    if (problems.length) io.stderr(stylish(problems, loaded, io));
    if (argv['strict'] === true && errors > 0) {
      io.stderr(`tollgate serve: --strict: ${errors} lint error(s), not starting\n`);
      return 1;
    }
    let container;
    try {
      container = await startContainer({
        base,
        loaded,
        unsafe,
        ...(home ? { home } : {}),
        ...(argv['port'] !== undefined ? { port: Number(argv['port']) } : {}),
        address: String(argv['address']),
        target,
        allowAppBaseOutsideBase: argv['allowAppBaseOutsideBase'] === true,
      });
    } catch (e) {
      if (e instanceof ServerRefusedError) {
        const d = e.diagnostics[0]!;
        io.stderr(`tollgate serve: Tomcat does not start with this configuration, so neither does serve: ${relative(io.cwd, d.span.file) || d.span.file}:${d.span.line}:${d.span.column}: ${d.message}\n`);
        return 1;
      }
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' || code === 'EACCES') throw new UsageError(`cannot listen: ${(e as Error).message}`);
      throw e;
    }
    for (const s of container.plan.skipped) io.stderr(skippedLine('serve', s, io));
    const origin = `http://${container.address.includes(':') ? `[${container.address}]` : container.address}:${container.port}`;
    io.stdout(`listening on ${origin} (send the Host header to pick a virtual host)\n`);
    io.stdout(container.summary.map((l) => l.replace(/http:\/\/([^/]+)/, `$1 -> ${origin}`)).join('\n') + '\n');
    io.stdout(`host manager: ${origin}/host-manager/text/list (user with the admin-script role)\n`);
    await new Promise<void>((done) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void container.stop().then(done);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    io.stdout('tollgate serve: stopped\n');
    return 0;
  },
};
