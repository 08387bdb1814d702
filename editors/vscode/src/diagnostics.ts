// Forwards the diagnostics VS Code holds for a document (every language extension's, unsaved
// text included) to the sidecar as the `hashline/diagnostics` notification, so edit results can
// say what an agent's edit introduced or removed (README.md, "The editor's eyes"). The set is
// tagged with the document's version now (vscode-languageclient's didChange versions are
// document.version). Sent on onDidChangeDiagnostics (coalesced per document for `delayMs`), and
// once per open document when the server starts or the document opens — then only if VS Code
// has something for it or a language server serves its language: an empty set from nobody would
// make every edit of a plain text file wait for a report that never comes. Off with
// `hashline.shareDiagnostics`. Runs on the extension host.
import * as vscode from 'vscode';
import { hasLanguageServer } from './languageServers';
import { lspDiagnostics } from './lspShapes';
import { HashlineServer, sharedWithServer } from './server';

export const DiagnosticsNotification = 'hashline/diagnostics';

const delayMs = 10; // several collections change one after the other; send the document once

function enabled(): boolean {
  return vscode.workspace.getConfiguration('hashline').get<boolean>('shareDiagnostics', true);
}

export class DiagnosticsForwarder implements vscode.Disposable {
  // Documents (URI string) with a send pending → whether VS Code reported on them (not just opened).
  private readonly pending = new Map<string, { timer: NodeJS.Timeout; reported: boolean }>();
  // Languages VS Code has shown diagnostics for in this window.
  private readonly reportedLanguages = new Set<string>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly server: HashlineServer) {
    this.subscriptions.push(
      vscode.languages.onDidChangeDiagnostics((e) => {
        // A project-wide check names many files that are not open: only open ones are sent.
        const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
        for (const uri of e.uris) if (open.has(uri.toString())) this.schedule(uri, true);
      }),
      vscode.workspace.onDidOpenTextDocument((doc) => this.schedule(doc.uri, false)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.cancel(doc.uri.toString())),
      server.onDidStart(() => this.sendAll()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('hashline.shareDiagnostics') && enabled()) this.sendAll();
      }),
    );
    if (server.running) this.sendAll();
  }

  // Every open document, as when the server starts (it knows no sets yet).
  private sendAll(): void {
    for (const doc of vscode.workspace.textDocuments) this.schedule(doc.uri, false);
  }

  private schedule(uri: vscode.Uri, reported: boolean): void {
    if (!enabled()) return;
    const key = uri.toString();
    const waiting = this.pending.get(key);
    if (waiting) {
      waiting.reported ||= reported;
      return;
    }
    const timer = setTimeout(() => {
      const entry = this.pending.get(key);
      this.pending.delete(key);
      this.send(key, entry?.reported ?? reported);
    }, delayMs);
    this.pending.set(key, { timer, reported });
  }

  private cancel(key: string): void {
    const waiting = this.pending.get(key);
    if (waiting) clearTimeout(waiting.timer);
    this.pending.delete(key);
  }

  private send(key: string, reported: boolean): void {
    if (!enabled() || !this.server.running) return;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    if (!doc || doc.isClosed || !sharedWithServer(doc)) return;
    const items = vscode.languages.getDiagnostics(doc.uri);
    if (items.length > 0) this.reportedLanguages.add(doc.languageId);
    // Opened or (re)started with nothing to show: only worth saying if someone checks this file.
    if (!reported && items.length === 0 && !this.reportedLanguages.has(doc.languageId) && !hasLanguageServer(doc.languageId)) {
      return;
    }
    this.server.notify(DiagnosticsNotification, {
      uri: this.server.protocolUri(doc.uri),
      version: doc.version,
      diagnostics: lspDiagnostics(items),
    });
  }

  dispose(): void {
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    for (const d of this.subscriptions) d.dispose();
  }
}
