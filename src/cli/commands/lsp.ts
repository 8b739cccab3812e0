import type { Argv } from 'yargs';
import type { Command } from '../command.js';

export const lspCommand: Command = {
  builder: (y: Argv) =>
    y.option('stdio', {
      type: 'boolean',
      default: true,
      describe: 'Talk over stdin/stdout (the only transport; editor clients pass it)',
    }),
  async run() {
    // Loaded on demand: no other command pays for the language server's libraries.
    const { runStdioServer } = await import('../../lsp/server.js');
    runStdioServer();
    // The connection ends the process when the client sends exit or closes the stream.
    return new Promise<number>(() => undefined);
  },
};
