import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { convertWebXml, TollgateInputError } from '../../api/schema.js';
import { UsageError, type Command, type Io } from '../command.js';
import { stringOption } from '../options.js';

export const convertCommand: Command = {
  builder: (y: Argv) =>
    y
      .positional('webxml', { type: 'string', describe: 'A WEB-INF/web.xml' })
      .option('path', stringOption('path', 'Context path of the application (default: from the directory name)'))
      .option('out', stringOption('out', 'Write here instead of standard output')),
  run: (argv: Record<string, unknown>, io: Io) => {
    let doc;
    try {
      doc = convertWebXml(String(argv['webxml']), {
        cwd: io.cwd,
        ...(argv['path'] !== undefined ? { contextPath: String(argv['path']) } : {}),
      });
    } catch (e) {
      if (e instanceof TollgateInputError) throw new UsageError(e.message);
      throw e;
    }
    const text = JSON.stringify(doc, null, 2) + '\n';
    if (argv['out'] !== undefined) writeFileSync(resolve(io.cwd, String(argv['out'])), text);
    else io.stdout(text);
    return Promise.resolve(0);
  },
};
