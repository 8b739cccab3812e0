import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { parseWebXml } from '../../parser/index.js';
import { webXmlToChainDocument } from '../../schema/convert.js';
import { UsageError, type Command, type Io } from '../command.js';
import { stringOption } from '../options.js';

export const convertCommand: Command = {
  name: 'convert <webxml>',
  describe: 'Write the tollgate.chain.json equivalent of a web.xml',
  builder: (y: Argv) =>
    y
      .positional('webxml', { type: 'string', describe: 'A WEB-INF/web.xml' })
      .option('path', stringOption('path', 'Context path of the application (default: from the directory name)'))
      .option('out', stringOption('out', 'Write here instead of standard output')),
  run: (argv: Record<string, unknown>, io: Io) => {
    const file = resolve(io.cwd, String(argv['webxml']));
    if (!existsSync(file)) throw new UsageError(`${String(argv['webxml'])}: no such file`);
    const { webXml, diagnostics } = parseWebXml(readFileSync(file), file);
    if (!webXml) throw new UsageError(`${String(argv['webxml'])}: ${diagnostics[0]?.message ?? 'not a web.xml'}`);
    const app = basename(dirname(dirname(file)));
    const path = argv['path'] !== undefined ? String(argv['path']) : app === 'ROOT' ? '/' : `/${app}`;
    const text = JSON.stringify(webXmlToChainDocument(webXml, path), null, 2) + '\n';
    if (argv['out'] !== undefined) writeFileSync(resolve(io.cwd, String(argv['out'])), text);
    else io.stdout(text);
    return Promise.resolve(0);
  },
};
