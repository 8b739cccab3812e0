import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { generateSchemas, schemaText } from '../../schema/generate.js';
import type { Command, Io } from '../command.js';
import { stringOption } from '../options.js';

export const schemaCommand: Command = {
  name: 'schema',
  describe: 'Write the JSON Schemas (filters, tollgate.chain.json, tollgate.config.json) generated from the zod schemas',
  builder: (y: Argv) => y.option('out', stringOption('out', 'Directory to write into', { default: 'schemas' })),
  run: (argv: Record<string, unknown>, io: Io) => {
    const out = resolve(io.cwd, String(argv['out']));
    const schemas = generateSchemas();
    for (const [file, schema] of schemas) {
      const path = join(out, file);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, schemaText(schema));
    }
    io.stdout(`wrote ${schemas.size} schemas to ${String(argv['out'])}\n`);
    return Promise.resolve(0);
  },
};
