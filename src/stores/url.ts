/**
 * Reading the store choice (`serve --store`, tollgate.config.json's `store.url`)
 * without loading a client: the CLI checks it at start-up and imports the
 * Redis backend only when Redis is chosen.
 */

/** What `--store` or `store.url` chose: the memory of this process, or a Redis URL. */
export type StoreChoice = { readonly kind: 'memory' } | { readonly kind: 'redis'; readonly url: string };

/** The URL `redis` alone means: TOLLGATE_REDIS_URL, else the local default port. */
export function defaultRedisUrl(): string {
  return process.env['TOLLGATE_REDIS_URL'] || 'redis://127.0.0.1:6379';
}

/** Checks a redis:// URL; null when usable, else what is wrong with it. */
export function redisUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `"${url}" is not a URL: write redis://host:port[/db]`;
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') return `"${url}": the scheme must be redis:// or rediss://`;
  if (u.hostname === '') return `"${url}" names no host`;
  const db = u.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,2}$/.test(db)) return `"${url}": the path must be a database number (/0 to /15)`;
  for (const k of u.searchParams.keys())
    return `"${url}": query parameters (${k}) are not read; give options in tollgate.config.json's store`;
  return null;
}

/** `memory`, `redis` or a redis:// URL; throws with the reason otherwise. */
export function parseStoreChoice(value: string): StoreChoice {
  if (value === 'memory') return { kind: 'memory' };
  const url = value === 'redis' ? defaultRedisUrl() : value;
  if (!/^rediss?:/i.test(url)) throw new Error(`"${value}": write memory, redis or a redis://host:port URL`);
  const problem = redisUrlProblem(url);
  if (problem !== null) throw new Error(problem);
  return { kind: 'redis', url };
}

/** A Redis URL as it may be logged: its password replaced by `***`. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}
