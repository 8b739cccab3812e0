import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';

export const RULE_LEVELS = ['off', 'info', 'warn', 'error'] as const;
export type RuleLevel = (typeof RULE_LEVELS)[number];

/** The schema of tollgate.config.json (also the source of schemas/tollgate.config.schema.json). */
export const configFileSchema = z
  .object({
    $schema: z.string().optional(),
    rules: z.record(z.string(), z.enum(RULE_LEVELS)).optional().meta({ description: 'Rule id -> off | info | warn | error.' }),
    ignore: z.array(z.string()).optional().meta({ description: 'Globs (picomatch, relative to this file) of files not to lint.' }),
    target: z.enum(['9.0', '10.1', '11.0']).optional().meta({ description: 'Tomcat version the configuration runs on.' }),
  })
  .strict()
  .meta({ title: 'tollgate.config.json', description: 'Configuration of tollgate lint.' });

export type ConfigFile = z.output<typeof configFileSchema>;

export class ConfigError extends Error {}

/** Finds tollgate.config.json upward from `cwd` and reads it; errors name file:line:column. */
export function loadConfig(cwd: string): { path: string | null; config: ConfigFile } {
  let dir = resolve(cwd);
  for (;;) {
    const path = join(dir, 'tollgate.config.json');
    if (existsSync(path)) return { path, config: readConfig(path) };
    const parent = dirname(dir);
    if (parent === dir) return { path: null, config: {} };
    dir = parent;
  }
}

function readConfig(path: string): ConfigFile {
  const text = readFileSync(path, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    const pos = m ? Number(m[1]) : 0;
    const before = text.slice(0, pos).split('\n');
    throw new ConfigError(`${path}:${before.length}:${before[before.length - 1]!.length + 1}: invalid JSON: ${(e as Error).message}`);
  }
  const r = configFileSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new ConfigError(`${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return r.data;
}
