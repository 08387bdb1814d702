// The pending agent hunks the review UI shows: a cache of `hashline.pending`, refreshed when the
// server starts, when a document changes (server edits, undo/reject, and — debounced — typing),
// when editors become visible, after a keep/reject, and every few seconds while a window with
// open files has focus (accepts made from the CLI change no buffer). Between refreshes the hunks
// move with the user's line insertions/deletions. Nothing here waits on the server while the user
// types: lenses and decorations read the cache. Runs on the extension host.
import * as vscode from 'vscode';
import { Commands } from './protocol';
import { LineChange, PendingFile, PendingHunk, PendingResult, isPendingResult, pendingFileFor, shiftHunks } from './review';
import { HashlineServer, documentSelector, errorText } from './server';

const typingDelayMs = 600;
const eventDelayMs = 150;
const pollEveryMs = 4000;

export class ReviewModel implements vscode.Disposable {
  private result: PendingResult | undefined;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[] = [];
  // Fires whenever the cached hunks (or their lines) change.
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly server: HashlineServer,
    private readonly log: vscode.OutputChannel,
  ) {
    this.subscriptions.push(
      this.changed,
      server.onDidChangeState(() => this.refreshSoon(eventDelayMs)),
      vscode.workspace.onDidChangeTextDocument((e) => this.documentChanged(e)),
      vscode.window.onDidChangeVisibleTextEditors(() => this.refreshSoon(eventDelayMs)),
      vscode.workspace.onDidCloseTextDocument(() => this.refreshSoon(eventDelayMs)),
    );
    const poll = setInterval(() => {
      if (!this.timer && vscode.window.state.focused && vscode.window.visibleTextEditors.length > 0) void this.refresh();
    }, pollEveryMs);
    this.subscriptions.push({ dispose: () => clearInterval(poll) });
  }

  // Whether the server offers the review commands at all.
  get available(): boolean {
    return this.server.running && this.server.serverCommands.includes(Commands.pending);
  }

  get pending(): PendingResult | undefined {
    return this.result;
  }

  fileFor(doc: vscode.TextDocument): PendingFile | undefined {
    return pendingFileFor(this.result, this.server.protocolUri(doc.uri), doc.uri.scheme === 'file' ? doc.uri.fsPath : undefined);
  }

  hunksFor(doc: vscode.TextDocument): PendingHunk[] {
    return this.fileFor(doc)?.hunks ?? [];
  }

  // Schedules one refresh `delayMs` from now (an earlier pending one is pushed back).
  refreshSoon(delayMs = eventDelayMs): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, delayMs);
  }

  // Asks the server now; resolves when the cache holds an answer given after this call (a request
  // already on its way is waited for first: it may predate what the caller just did).
  async refresh(): Promise<void> {
    while (this.inFlight) await this.inFlight;
    this.inFlight = this.fetch().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetch(): Promise<void> {
    if (!this.available) {
      if (this.result) {
        this.result = undefined;
        this.changed.fire();
      }
      return;
    }
    const versions = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d.version]));
    let answer: unknown;
    try {
      answer = await this.server.executeCommand<unknown>(Commands.pending, {});
    } catch (e) {
      this.log.appendLine(`[hashline] ${Commands.pending} failed: ${errorText(e)}`);
      return;
    }
    if (!isPendingResult(answer)) return;
    // A document the user changed while we asked keeps its shifted hunks; ask again for it.
    const moved = vscode.workspace.textDocuments.filter((d) => versions.get(d.uri.toString()) !== d.version);
    if (moved.length > 0) {
      const kept = moved.map((d) => this.fileFor(d)).filter((f): f is PendingFile => !!f);
      const movedFiles = new Set(moved.map((d) => pendingFileFor(answer as PendingResult, this.server.protocolUri(d.uri))));
      answer = { ...answer, files: [...(answer.files ?? []).filter((f) => !movedFiles.has(f)), ...kept] };
      this.refreshSoon(typingDelayMs);
    }
    const before = JSON.stringify(this.result ?? null);
    this.result = answer as PendingResult;
    if (JSON.stringify(this.result) !== before) this.changed.fire();
  }

  private documentChanged(e: vscode.TextDocumentChangeEvent): void {
    if (e.contentChanges.length === 0 || vscode.languages.match(documentSelector, e.document) === 0) return;
    const file = this.fileFor(e.document);
    if (file && file.hunks.length > 0) {
      const changes: LineChange[] = e.contentChanges.map((c) => ({
        startLine: c.range.start.line,
        endLine: c.range.end.line,
        newLineBreaks: (c.text.match(/\r\n|\r|\n/g) ?? []).length,
      }));
      const hunks = shiftHunks(file.hunks, changes);
      if (hunks.some((h, i) => h !== file.hunks[i])) {
        file.hunks = hunks;
        this.changed.fire();
      }
    }
    // A server edit (workspace/applyEdit) or an undo is not typing, but it is cheap to treat
    // every change alike: the refresh comes once the document has been quiet for a moment.
    this.refreshSoon(typingDelayMs);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.subscriptions) d.dispose();
  }
}
