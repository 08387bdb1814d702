// Claude Code's IDE connection in the window: the status bar item **hashline ⇄ Claude Code** (shown while the
// server's Claude IDE server is on: connected or not, from `hashline/claudeIde`), the context key
// `hashline.claudeIde.enabled`, and the commands Send Selection to Claude Code (the server's
// `hashline.sendToClaude`: selection_changed + at_mentioned to every connected Claude Code) and
// Start Claude Code in a Terminal (`hashline claude` in the workspace folder).
import * as path from 'path';
import * as vscode from 'vscode';
import { ClaudeIdeState, describeClaudeIde, parseClaudeIdeState, selectedLines } from './claudeIdeState';
import { HashlineServer, errorText, sharedWithServer } from './server';
import { readSettings } from './settings';

export const ClaudeIdeNotification = 'hashline/claudeIde';
const SendToClaudeCommand = 'hashline.sendToClaude';

interface SendResult {
  status?: string;
  sent?: number;
  note?: string;
  error?: { code?: string; message?: string; hint?: string };
}

export class ClaudeIde implements vscode.Disposable {
  private state: ClaudeIdeState | undefined;
  private readonly item = vscode.window.createStatusBarItem('hashline.claudeIde', vscode.StatusBarAlignment.Right, 100);
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly server: HashlineServer,
    private readonly log: vscode.OutputChannel,
  ) {
    this.item.name = 'hashline \u21c4 Claude Code';
    this.disposables.push(
      this.item,
      server.handleNotification(ClaudeIdeNotification, (params) => this.update(parseClaudeIdeState(params))),
      // A stopped or restarted server says again (after `initialized`) whether it serves it.
      server.onDidChangeState(() => {
        if (!server.running) this.update(undefined);
      }),
      vscode.commands.registerCommand('hashline.sendSelectionToClaude', (uri?: vscode.Uri) => this.sendSelection(uri)),
      vscode.commands.registerCommand('hashline.startClaude', () => this.startClaude()),
    );
    this.update(undefined);
  }

  // The latest state the server reported (undefined: off, or not reported yet).
  get current(): ClaudeIdeState | undefined {
    return this.state;
  }

  private update(state: ClaudeIdeState | undefined): void {
    this.state = state;
    void vscode.commands.executeCommand('setContext', 'hashline.claudeIde.enabled', state?.enabled === true);
    if (!state?.enabled) {
      this.item.hide();
      return;
    }
    const label = describeClaudeIde(state);
    this.item.text = label.text;
    this.item.accessibilityInformation = { label: label.label, role: 'button' };
    this.item.tooltip = new vscode.MarkdownString(label.tooltip);
    this.item.command = label.connected ? 'hashline.sendSelectionToClaude' : 'hashline.startClaude';
    this.item.show();
    this.log.appendLine(`[hashline] ${label.label}`);
  }

  // The active editor's selected lines (or `uri`'s editor, from the editor's context menu).
  private async sendSelection(uri?: vscode.Uri): Promise<SendResult | undefined> {
    const editor =
      (uri && vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString())) ||
      vscode.window.activeTextEditor;
    if (!editor || !sharedWithServer(editor.document)) {
      void vscode.window.showWarningMessage('hashline: open a file of the workspace to send its lines to Claude Code.');
      return undefined;
    }
    const { from, to } = selectedLines(editor.selection.start, editor.selection.end);
    const name = path.basename(editor.document.uri.fsPath);
    try {
      const result = await this.server.executeCommand<SendResult>(SendToClaudeCommand, {
        uri: this.server.protocolUri(editor.document.uri),
        from,
        to,
      });
      if (result?.status === 'refused') {
        const hint = result.error?.hint ? ` (${result.error.hint})` : '';
        void vscode.window.showErrorMessage(`hashline: ${result.error?.message ?? 'refused'}${hint}`);
      } else if (!result?.sent) {
        void vscode.window.showWarningMessage(`hashline: nothing sent: ${result?.note ?? 'no Claude Code is connected'}`);
      } else {
        void vscode.window.showInformationMessage(`Sent ${name}:${from}-${to} to Claude Code`);
      }
      return result;
    } catch (e) {
      void vscode.window.showErrorMessage(`hashline: ${SendToClaudeCommand} failed: ${errorText(e)}`);
      return undefined;
    }
  }

  // `hashline claude` in an integrated terminal, in the active file's workspace folder.
  private startClaude(): void {
    const active = vscode.window.activeTextEditor?.document.uri;
    const folder =
      (active && vscode.workspace.getWorkspaceFolder(active)) || vscode.workspace.workspaceFolders?.[0];
    const terminal = vscode.window.createTerminal({
      name: 'Claude Code',
      shellPath: readSettings().binaryPath,
      shellArgs: ['claude'],
      cwd: folder?.uri,
    });
    terminal.show();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
