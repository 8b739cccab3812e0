// A minimal VS Code client for `tollgate lsp`: starts the server over stdio for XML files and
// tollgate.chain.json, passing the profile and target settings as initialization options.
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('tollgate');
  const [command, ...args] = config.get('command');
  client = new LanguageClient(
    'tollgate',
    'tollgate',
    {
      run: { command, args, transport: TransportKind.stdio },
      debug: { command, args, transport: TransportKind.stdio },
    },
    {
      documentSelector: [
        { scheme: 'file', language: 'xml' },
        { scheme: 'file', pattern: '**/tollgate.chain.json' },
      ],
      initializationOptions: { profile: config.get('profile'), target: config.get('target') },
    },
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
