import type { Argv } from 'yargs';
import { ConfigError, loadConfig } from '../../lint/config.js';
import { parseStoreChoice, type StoreChoice } from '../../stores/url.js';
import { UsageError, type Command, type Io } from '../command.js';
import { single, stringOption } from '../options.js';

/**
 * `tollgate lockout clear <user>`: forgets a user's failed logins in the shared store, so LockOutRealm lets
 * them in again on every instance at once (what a successful login does, and what Tomcat offers through
 * LockOutRealm.unlock over JMX). Only a store outside the process can be reached: the memory store's
 * table lives in the serving process and empties when its lock expires or the process restarts.
 */
export const lockoutCommand: Command = {
  builder: (y: Argv) =>
    y
      .positional('action', { type: 'string', choices: ['clear'], describe: 'clear: forget the user’s failures' })
      .positional('user', { type: 'string', describe: 'The user name as it logs in' })
      .option('store', {
        type: 'string',
        requiresArg: true,
        coerce: (v: unknown) => parseStoreChoice(single('store', v)),
        describe:
          "The store serve uses: redis (TOLLGATE_REDIS_URL) or redis://host:port (default: tollgate.config.json's store)",
      })
      .option(
        'prefix',
        stringOption('prefix', "The store's key prefix (default: tollgate.config.json's, else tollgate:)"),
      )
      .option(
        'realm',
        stringOption('realm', 'The realm whose table it is (default engine, the one serve keeps)', {
          default: 'engine',
        }),
      ),
  run: async (argv: Record<string, unknown>, io: Io) => {
    const user = String(argv['user'] ?? '');
    if (user === '') throw new UsageError('name the user: tollgate lockout clear <user> --store redis://host:port');
    let config;
    try {
      config = loadConfig(io.cwd).config.store;
    } catch (e) {
      if (e instanceof ConfigError) throw new UsageError(e.message);
      throw e;
    }
    let choice = argv['store'] as StoreChoice | undefined;
    if (choice === undefined && config !== undefined) choice = parseStoreChoice(config.url);
    if (choice === undefined || choice.kind === 'memory')
      throw new UsageError(
        "the memory store's lock-out table lives in the serving process: a lock there ends lockOutTime seconds after the last failure, or when serve restarts. Give --store redis://host:port for a shared store",
      );
    const { createRedisBackend } = await import('../../stores/redis.js');
    const { url: _url, ...options }: { url?: string; prefix?: string; timeoutMs?: number; connectTimeoutMs?: number } =
      config ?? {};
    const prefix = (argv['prefix'] as string | undefined) ?? options.prefix;
    const backend = createRedisBackend({
      ...options,
      ...(prefix === undefined ? {} : { prefix }),
      url: choice.url,
      // Only this user's record is touched: the policy check that guards serve's state does not apply.
      allowEviction: true,
      timeoutMs: options.timeoutMs ?? 2_000,
    });
    try {
      if (!(await backend.ready(options.connectTimeoutMs ?? 5_000))) {
        io.stderr(`tollgate lockout: Redis at ${backend.name} does not answer\n`);
        return 2;
      }
      const realm = String(argv['realm']);
      const table = backend.lockouts(realm, { failureCount: 1, lockOutTime: 0, cacheSize: 0 });
      // The realm keys users as they log in, lower-cased unless it is case-sensitive: both forms are cleared.
      const names = [...new Set([user, user.toLowerCase()])];
      const found = [];
      for (const name of names) {
        const rec = await table.get(name);
        if (rec !== null) found.push(`${name} (${rec.failures} failure${rec.failures === 1 ? '' : 's'})`);
        await table.clear(name);
      }
      io.stdout(
        found.length > 0
          ? `OK - cleared the lock-out record of ${found.join(', ')} in realm ${realm} at ${backend.name}\n`
          : `OK - no lock-out record for ${user} in realm ${realm} at ${backend.name}\n`,
      );
      return 0;
    } finally {
      await backend.close();
    }
  },
};
