import { isMainThread, workerData } from 'node:worker_threads';
import type { Argv } from 'yargs';
import yargsFactory from 'yargs/yargs';
import type { Command, CommandEntry, Io } from './command.js';
import { UsageError } from './command.js';
import { toolVersion } from '../lint/docs.js';

// yargs 17 (CommonJS) is bundled into dist/bundle/cli.cjs, whose compiled code bin/tollgate.js keeps in
// V8's code cache: loaded through require, its 20 files were compiled on every start.
const yargs = yargsFactory as unknown as (args: string[]) => Argv;

/**
 * Every command, in the order `--help` lists them. Each lives in ./commands/<name>.ts, imported only when
 * invoked: in dist/bundle/cli.cjs esbuild turns these import() calls into functions that evaluate the
 * module on the first call, so `lint` never evaluates serve's, report's or the language server's code.
 */
export const commands: CommandEntry[] = [
  {
    name: 'lint [paths..]',
    describe: 'Check a CATALINA_BASE, a web application or single configuration files',
    load: async () => (await import('./commands/lint.js')).lintCommand,
  },
  {
    name: 'audit [base]',
    describe:
      'Report a CATALINA_BASE against the CIS Tomcat 10.1 Benchmark or the DISA Tomcat STIG, control by control',
    load: async () => (await import('./commands/audit.js')).auditCommand,
  },
  {
    name: 'chain',
    describe: "Show the filters that run for a request, in Tomcat's order",
    load: async () => (await import('./commands/chain.js')).chainCommand,
  },
  {
    name: 'compile',
    describe:
      'Write one ES module (and .d.ts) per context Tomcat starts: a Connect-style middleware running its chain on tollgate/runtime',
    load: async () => (await import('./commands/compile.js')).compileCommand,
  },
  {
    name: 'serve',
    describe: 'Serve a CATALINA_BASE: virtual hosts, static webapps through their chains, and the host manager',
    load: async () => (await import('./commands/serve.js')).serveCommand,
  },
  {
    name: 'lockout <action> <user>',
    describe: "Clear a user's lock-out (LockOutRealm's failed logins) in the store serve instances share",
    load: async () => (await import('./commands/lockout.js')).lockoutCommand,
  },
  {
    name: 'schema',
    describe:
      'Write the JSON Schemas (filters, tollgate.chain.json, tollgate.config.json) generated from the zod schemas',
    load: async () => (await import('./commands/schema.js')).schemaCommand,
  },
  {
    name: 'convert <webxml>',
    describe: 'Write the tollgate.chain.json equivalent of a web.xml',
    load: async () => (await import('./commands/convert.js')).convertCommand,
  },
  {
    name: 'migrate [base]',
    describe:
      'Rewrite a Tomcat 7/8.5/9 CATALINA_BASE into the form Tomcat 10.1 starts (a unified diff; --write applies it)',
    load: async () => (await import('./commands/migrate.js')).migrateCommand,
  },
  {
    name: 'report [base]',
    describe:
      'Write one self-contained HTML page of the hosts, contexts, URL patterns and their filter chains, with the findings',
    load: async () => (await import('./commands/report.js')).reportCommand,
  },
  {
    name: 'lsp',
    describe: 'Run the language server (Language Server Protocol over standard input and output) for editors',
    load: async () => (await import('./commands/lsp.js')).lspCommand,
  },
];

/** A command's first word, the one typed on the command line. */
const word = (c: CommandEntry): string => c.name.split(' ')[0]!;

// Threads started on the bundle's own file (src/server/persist.ts starts one on its import.meta.url,
// which is dist/bundle/cli.cjs there; lint's and the language server's threads start on bin/load-cli.cjs, which loads this bundle):
// each module does its thread's work when evaluated in a thread, and is no longer evaluated up front.
if (!isMainThread) {
  const data = workerData as {
    tollgatePersistRewrite?: unknown;
    tollgateLintPart?: unknown;
    tollgateLspLint?: unknown;
  } | null;
  if (data?.tollgatePersistRewrite) void import('../server/persist.js');
  else if (data?.tollgateLintPart) void import('../lint/parallel.js');
  else if (data?.tollgateLspLint) void import('../lsp/lint-worker.js');
}

const defaultIo: Io = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  cwd: process.cwd(),
};

/**
 * yargs names an unknown `--bogus-flag` twice (as `bogus-flag, bogusFlag`, its camel-case copy) and
 * does not say whether a name was an option or a stray argument: name each once, as the user typed it.
 */
function unknownArgumentsMessage(message: string, argv: string[]): string {
  const m = /^Unknown arguments?: (.*)$/s.exec(message);
  if (!m) return message;
  const names = m[1]!.split(', ');
  const camel = new Set(
    names.filter((n) => n.includes('-')).map((n) => n.replace(/-+([^-])/g, (_, c: string) => c.toUpperCase())),
  );
  const typedOption = (n: string): string | undefined =>
    argv.find((a) =>
      n.length === 1
        ? /^-[^-]/.test(a) && a.slice(1).split('=')[0]!.includes(n)
        : a.startsWith('--') && a.slice(2).split('=')[0]!.replace(/^no-/, '') === n,
    );
  const options: string[] = [];
  const args: string[] = [];
  for (const n of names) {
    if (camel.has(n)) continue;
    const typed = typedOption(n);
    if (typed) options.push(typed.split('=')[0]!);
    else args.push(n);
  }
  const parts: string[] = [];
  if (options.length) parts.push(`unknown option${options.length > 1 ? 's' : ''} ${options.join(', ')}`);
  if (args.length) parts.push(`unexpected argument${args.length > 1 ? 's' : ''} ${args.join(', ')}`);
  return parts.join('; ');
}

/** A value yargs refused (unknown option, bad choice, a coerce that threw): thrown by `fail` so no handler runs. */
class ArgumentError extends Error {}

/** Runs the CLI on `argv` (without node and script) and resolves to the exit code. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  let exitCode = 0;
  const cli = yargs(argv)
    .scriptName('tollgate')
    .strict()
    .demandCommand(1, 'Name a command: ' + commands.map(word).join(', '))
    .recommendCommands()
    .help()
    .version(toolVersion())
    .exitProcess(false)
    // Throwing (rather than recording the message) is what stops yargs: a handler that returned would
    // let the command run with the refused value replaced by its default.
    .fail((msg, err) => {
      throw new ArgumentError(unknownArgumentsMessage(msg ?? err?.message ?? 'invalid arguments', argv));
    });
  // yargs calls only the invoked command's builder, which needs that command's code (its options, their
  // checks): load the command argv starts with, which is the invoked one, or else (options first) every
  // command named anywhere in argv (the invoked one is among them), and no other. A path that happens to be
  // a command's word (`tollgate lint report`) loads nothing more, and dist/bundle/cli-lint.cjs, which has
  // lint's code only, is used for argv starting with lint (bin/load-cli.cjs).
  const first = commands.find((c) => word(c) === argv[0]);
  const named = first ? [first] : commands.filter((c) => argv.includes(word(c)));
  const loaded = new Map<CommandEntry, Command>();
  await Promise.all(named.map(async (c) => loaded.set(c, await c.load())));
  for (const entry of commands) {
    const command = loaded.get(entry);
    // Listed in --help and matched by name; never invoked, so the builder is never called.
    if (command === undefined) {
      cli.command(entry.name, entry.describe);
      continue;
    }
    cli.command(entry.name, entry.describe, command.builder, async (args) => {
      try {
        exitCode = await command.run(args as Record<string, unknown>, io);
      } catch (err) {
        if (err instanceof UsageError) {
          io.stderr(`tollgate ${word(entry)}: ${err.message}\n`);
          exitCode = 2;
        } else {
          throw err;
        }
      }
    });
  }
  // yargs renders the invoked command's whole help text once its handler has started, in case the
  // handler asks for it later (showHelp): ours never do, and rendering it was 7 ms of every start
  // (a --cpu-prof of lint on one web.xml). --help itself renders it afresh.
  (cli as unknown as { getInternalMethods(): { getUsageInstance(): { cacheHelpMessage(): void } } })
    .getInternalMethods()
    .getUsageInstance().cacheHelpMessage = () => undefined;
  let output = '';
  try {
    await cli.parseAsync(argv, {}, (_err, _parsed, text) => {
      output = text;
    });
  } catch (err) {
    if (!(err instanceof ArgumentError)) throw err;
    const name = commands.map(word).find((n) => n === argv[0]);
    const who = name ? `tollgate ${name}` : 'tollgate';
    // One line, like every other usage failure (yargs spreads "Invalid values" over three).
    io.stderr(`${who}: ${err.message.replace(/:?\s*\n\s*/g, ': ')} (${who} --help lists the options)\n`);
    return 2;
  }
  if (output) io.stdout(output + '\n');
  return exitCode;
}
