// Tells the sidecar what the user has selected and sees (`hashline/context`), so an agent's "fix
// this" can name the selection: the active editor's document with its selections (the primary
// first; an empty range is the cursor) and every visible editor's document with its visible
// ranges. Only documents the sidecar works on (sharedWithServer). Debounced (`delayMs` after the
// last selection change, scroll or editor switch) and sent only when it changed. Off with
// `hashline.shareSelection` (switching it off sends one empty view). Runs on the extension host.
import * as vscode from 'vscode';
import { ContextParams, contextParams } from './lspShapes';
import { HashlineServer, sharedWithServer } from './server';

export const ContextNotification = 'hashline/context';

const delayMs = 150;

function enabled(): boolean {
  return vscode.workspace.getConfiguration('hashline').get<boolean>('shareSelection', true);
}

export class ContextForwarder implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;
  private lastSent: string | undefined; // the params last sent (JSON), to skip repeats
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly server: HashlineServer) {
    const soon = () => this.schedule();
    this.subscriptions.push(
      vscode.window.onDidChangeTextEditorSelection(soon),
      vscode.window.onDidChangeActiveTextEditor(soon),
      vscode.window.onDidChangeVisibleTextEditors(soon),
      vscode.window.onDidChangeTextEditorVisibleRanges(soon),
      server.onDidStart(() => {
        this.lastSent = undefined; // a new server knows nothing yet
        this.schedule();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('hashline.shareSelection')) return;
        if (enabled()) this.schedule();
        else this.send({ active: null, visible: [], shared: false });
      }),
    );
    if (server.running) this.schedule();
  }

  private schedule(): void {
    if (!enabled()) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (enabled()) this.send(this.current());
    }, delayMs);
  }

  private current(): ContextParams {
    const editor = vscode.window.activeTextEditor;
    const active =
      editor && sharedWithServer(editor.document)
        ? { uri: this.server.protocolUri(editor.document.uri), version: editor.document.version, selections: editor.selections }
        : undefined;
    const visible = vscode.window.visibleTextEditors
      .filter((e) => sharedWithServer(e.document))
      .map((e) => ({ uri: this.server.protocolUri(e.document.uri), version: e.document.version, ranges: e.visibleRanges }));
    return contextParams(active, visible);
  }

  private send(params: ContextParams): void {
    const encoded = JSON.stringify(params);
    if (encoded === this.lastSent) return;
    if (this.server.notify(ContextNotification, params)) this.lastSent = encoded;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.subscriptions) d.dispose();
  }
}
