// The user-facing commands: show status, show the journal of agent edits, undo the last agent
// edit, show the server log, restart the server. Each calls the server's executeCommand; when the
// server refuses or does not know the command, its error is shown as is. Runs on the extension host.
import * as vscode from 'vscode';
import { JournalLog, lastUndoableOp } from './journal';
import { Commands, EditOutcome, isRefused } from './protocol';
import { renderRefusal } from './render';
import { HashlineServer, errorText } from './server';

// Read-only documents `hashline-info:/<name>.json` that show a command's result.
class InfoDocuments implements vscode.TextDocumentContentProvider {
  static readonly scheme = 'hashline-info';
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.path) ?? '';
  }

  async show(name: string, value: unknown): Promise<void> {
    const uri = vscode.Uri.from({ scheme: InfoDocuments.scheme, path: `/${name}.json` });
    this.contents.set(uri.path, JSON.stringify(value, null, 2) + '\n');
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
  }
}

function activeDocumentUri(server: HashlineServer): string | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  if (!doc || (doc.uri.scheme !== 'file' && doc.uri.scheme !== 'untitled')) return undefined;
  return server.protocolUri(doc.uri);
}

async function reportFailure(what: string, e: unknown): Promise<void> {
  await vscode.window.showErrorMessage(`hashline: ${what} failed: ${errorText(e)}`);
}

export function registerCommands(
  server: HashlineServer,
  log: vscode.OutputChannel,
): vscode.Disposable[] {
  const info = new InfoDocuments();
  return [
    vscode.workspace.registerTextDocumentContentProvider(InfoDocuments.scheme, info),

    vscode.commands.registerCommand('hashline.showStatus', async () => {
      try {
        const status = await server.executeCommand<unknown>(Commands.status, {
          uri: activeDocumentUri(server),
        });
        await info.show('status', { server: server.serverInfo, session: server.session, status });
        return status;
      } catch (e) {
        await reportFailure(Commands.status, e);
        return undefined;
      }
    }),

    vscode.commands.registerCommand('hashline.showJournal', async () => {
      try {
        const journal = await server.executeCommand<unknown>(Commands.log, { uri: activeDocumentUri(server) });
        await info.show('journal', journal);
        return journal;
      } catch (e) {
        await reportFailure(Commands.log, e);
        return undefined;
      }
    }),

    vscode.commands.registerCommand('hashline.undoLastAgentEdit', async () => {
      try {
        const uri = activeDocumentUri(server);
        let params: object = { uri };
        if (server.serverCommands.includes(Commands.log)) {
          // The journal names each op; undo takes an op id. Pick the newest agent edit (of the
          // active document, if any) that is still in effect and is not itself an undo.
          const journal = await server.executeCommand<JournalLog>(Commands.log, { uri });
          const op = lastUndoableOp(journal);
          if (!op) {
            void vscode.window.showInformationMessage(
              `hashline: no agent edit to undo${uri ? ' in this file' : ''}.`,
            );
            return undefined;
          }
          params = { op: op.op };
        }
        const result = await server.executeCommand<EditOutcome>(Commands.undo, params);
        if (isRefused(result)) {
          await vscode.window.showWarningMessage(`hashline: undo refused. ${renderRefusal(result.error)}`);
        } else {
          void vscode.window.showInformationMessage(
            `hashline: last agent edit undone${result?.version !== undefined ? ` (version ${result.version})` : ''}.`,
          );
        }
        return result;
      } catch (e) {
        await reportFailure(Commands.undo, e);
        return undefined;
      }
    }),

    vscode.commands.registerCommand('hashline.showLog', () => log.show(true)),

    vscode.commands.registerCommand('hashline.restartServer', async () => {
      try {
        await server.restart();
        void vscode.window.showInformationMessage('hashline: server restarted.');
      } catch (e) {
        await reportFailure('restart', e);
      }
    }),
  ];
}
