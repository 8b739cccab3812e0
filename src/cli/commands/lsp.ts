import type { Argv } from 'yargs';
import type { Command } from '../command.js';
import { loadOptional } from '../optional.js';

export const lspCommand: Command = {
  builder: (y: Argv) =>
    y.option('stdio', {
      type: 'boolean',
      default: true,
      describe: 'Talk over stdin/stdout (the only transport; editor clients pass it)',
    }),
  async run() {
    // Loaded on demand: no other command pays for the language server's libraries, and a lint-only install has none.
    const { runStdioServer } = await loadOptional(
      'the language server',
      ['vscode-languageserver', 'vscode-languageserver-textdocument'],
      () => import('../../lsp/server.js'),
    );
    runStdioServer();
    // The connection ends the process when the client sends exit or closes the stream.
    return new Promise<number>(() => undefined);
  },
};
