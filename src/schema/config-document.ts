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
