import type { Argv } from 'yargs';
import { resolve } from 'node:path';
import { writeSchemas } from '../../api/schema.js';
import type { Command, Io } from '../command.js';
import { stringOption } from '../options.js';

export const schemaCommand: Command = {
  builder: (y: Argv) => y.option('out', stringOption('out', 'Directory to write into', { default: 'schemas' })),
  run: (argv: Record<string, unknown>, io: Io) => {
    const written = writeSchemas(resolve(io.cwd, String(argv['out'])));
    io.stdout(`wrote ${written.length} schemas to ${String(argv['out'])}\n`);
    return Promise.resolve(0);
  },
};
