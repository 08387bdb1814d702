// Entry point of the hashline VS Code extension: creates the output channels, starts the
// `hashline lsp` server for every file and untitled buffer, and registers the commands, the
// language-model tools, the review UI (CodeLens, decorations, Review Agent Edits), the editor's
// eyes for the sidecar (diagnostics, selection and visible editors, document symbols), the
// language status item and hashline's status bar item, Claude Code's IDE connection (status bar item, Send Selection) and the
// test hooks. VS Code calls activate() once, when startup has finished.
import { randomUUID } from 'crypto';
import * as vscode from 'vscode';
import { ClaudeIde } from './claudeIde';
import { registerCommands } from './commands';
import { ContextForwarder } from './context';
import { DiagnosticsForwarder } from './diagnostics';
import { Reconcile } from './reconcile';
import { registerReviewCommands } from './reviewCommands';
import { registerReviewDecorations } from './reviewDecorations';
import { registerReviewLens } from './reviewLens';
import { ReviewModel } from './reviewModel';
import { StampedChannel } from './logLine';
import { HashlineServer, errorText } from './server';
import { affectsServer } from './settings';
import { registerStatusItem } from './statusItem';
import { registerSaveDocument } from './saveDocument';
import { registerSymbols } from './symbols';
import { registerTestHooks } from './testHooks';
import { registerTools } from './tools';

let server: HashlineServer | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  // One log format: the extension's lines get the sidecar's `HH:MM:SS.mmm level` stamp (logLine.ts).
  const log = new StampedChannel(vscode.window.createOutputChannel('hashline'));
  const trace = vscode.window.createOutputChannel('hashline trace');
  // One agent session per window: the tools' reads and edits must share it (NOT_OBSERVED otherwise).
  // (vscode.env.sessionId is a fixed placeholder in VS Code for the web, so make our own.)
  server = new HashlineServer(log, trace, `vscode-${randomUUID()}`);
  const review = new ReviewModel(server, log);
  context.subscriptions.push(
    log,
    trace,
    server,
    ...registerCommands(server, log),
    ...registerStatusItem(server, review),
    ...registerTools(server, log),
    review,
    ...registerReviewCommands(server, review),
    ...registerReviewLens(review),
    ...registerReviewDecorations(review),
    new Reconcile(server, review, log, context.globalState),
    new DiagnosticsForwarder(server),
    new ContextForwarder(server),
    registerSymbols(server),
    registerSaveDocument(server),
    new ClaudeIde(server, log),
    ...registerTestHooks(server, log),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsServer(e) && server) {
        log.appendLine('[hashline] settings changed; restarting the server');
        server.restart().catch((err) => showStartFailure(err, log));
      }
    }),
  );
  try {
    await server.start();
  } catch (e) {
    showStartFailure(e, log);
  }
}

function showStartFailure(e: unknown, log: vscode.OutputChannel): void {
  log.appendLine(`[hashline] ${errorText(e)}`);
  void vscode.window
    .showErrorMessage(`hashline: ${errorText(e)}`, 'Open Settings', 'Show Log')
    .then((choice) => {
      if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'hashline.path');
      if (choice === 'Show Log') log.show(true);
    });
}

export async function deactivate(): Promise<void> {
  await server?.stop();
  server = undefined;
}
