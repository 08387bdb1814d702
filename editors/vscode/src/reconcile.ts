// The editor side of reconciliation (docs/reconcile.md): reacts to `hashline/reconciled` — shows
// conflicts with "Take theirs" / "Keep mine" (hashline.resolve), refreshes the review CodeLens —
// and lets the next save of a buffer whose disk write hashline already merged overwrite the file
// without VS Code's "The content of the file is newer" dialog (see README.md, "Reconciliation").
import * as vscode from 'vscode';
import { Commands, ReconcileConflict, ReconciledParams } from './protocol';
import { ReviewModel } from './reviewModel';
import { HashlineServer, errorText } from './server';

// What the disk looked like right after hashline merged it into the buffer.
interface MergedDisk {
  mtime: number;
  size: number;
}

const overrideKey = 'saveConflictResolution';
// globalState key remembering an override in force (restored at the next start if still set).
const armedKey = 'hashline.reconcile.armedOverride';

export class Reconcile implements vscode.Disposable {
  // Documents (by URI string) whose current disk content hashline merged into the buffer.
  private readonly merged = new Map<string, MergedDisk>();
  // The language whose `files.saveConflictResolution` override we set for one save, if any.
  private armed: { uri: string; languageId: string; previous: unknown } | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly server: HashlineServer,
    private readonly review: ReviewModel,
    private readonly log: vscode.OutputChannel,
    private readonly state: vscode.Memento,
  ) {
    // A window that closed in the middle of such a save left the override set: put it back.
    this.armed = state.get(armedKey);
    void this.disarm();
    this.subscriptions.push(
      server.onDidReconcile((p) => void this.reconciled(p)),
      vscode.workspace.onWillSaveTextDocument((e) => {
        if (this.merged.has(e.document.uri.toString())) e.waitUntil(this.arm(e.document));
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        this.merged.delete(doc.uri.toString());
        if (this.armed?.uri === doc.uri.toString()) void this.disarm();
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => this.merged.delete(doc.uri.toString())),
      vscode.commands.registerCommand('hashline.showConflicts', () => this.listConflicts()),
      vscode.commands.registerCommand('hashline.resolveConflict', (id: string, take: 'theirs' | 'ours') =>
        this.resolve(id, take),
      ),
    );
  }

  private async reconciled(p: ReconciledParams): Promise<void> {
    const uri = this.server.codeUri(p.uri);
    this.log.appendLine(
      `[hashline] reconciled ${p.path}: ${p.kind}` +
        (p.op !== undefined ? `, op ${p.op} by ${p.agent ?? 'disk'}` : '') +
        (p.hunks !== undefined ? `, ${p.hunks} hunk(s) merged` : '') +
        (p.conflicts?.length ? `, ${p.conflicts.length} conflict(s)` : ''),
    );
    if (p.kind === 'deleted') {
      this.merged.delete(uri.toString());
      void vscode.window.showWarningMessage(
        `hashline: ${vscode.workspace.asRelativePath(uri)} was deleted or moved on disk; the buffer keeps its text.`,
      );
      return;
    }
    // Remember the disk as merged only when the buffer now holds every disk hunk (no conflict):
    // a later save then overwrites nothing the buffer lacks.
    if (!p.conflicts?.length) await this.rememberDisk(uri);
    else this.merged.delete(uri.toString());
    this.review.refreshSoon(0);
    for (const c of p.conflicts ?? []) void this.showConflict(uri, c);
  }

  private async rememberDisk(uri: vscode.Uri): Promise<void> {
    try {
      const st = await vscode.workspace.fs.stat(uri);
      this.merged.set(uri.toString(), { mtime: st.mtime, size: st.size });
    } catch {
      this.merged.delete(uri.toString());
    }
  }

  // True when the disk still holds the write hashline merged (no further foreign write since).
  private async diskStillMerged(uri: vscode.Uri): Promise<boolean> {
    const m = this.merged.get(uri.toString());
    if (!m) return false;
    try {
      const st = await vscode.workspace.fs.stat(uri);
      return st.mtime === m.mtime && st.size === m.size;
    } catch {
      return false;
    }
  }

  // Runs as a save participant: VS Code reads files.saveConflictResolution (for the document's
  // resource and language) after the participants, when it writes. Set to overwriteFileOnDisk for
  // this document's language only, only while this save runs, only if the disk is the merged one.
  private async arm(doc: vscode.TextDocument): Promise<void> {
    if (!(await this.diskStillMerged(doc.uri))) {
      this.merged.delete(doc.uri.toString());
      return;
    }
    await this.disarm();
    const cfg = vscode.workspace.getConfiguration('files', { languageId: doc.languageId });
    const previous = cfg.inspect(overrideKey)?.globalLanguageValue;
    try {
      await cfg.update(overrideKey, 'overwriteFileOnDisk', vscode.ConfigurationTarget.Global, true);
      this.armed = { uri: doc.uri.toString(), languageId: doc.languageId, previous };
      await this.state.update(armedKey, this.armed);
      this.log.appendLine(`[hashline] saving ${doc.uri.fsPath} over the disk write hashline merged`);
    } catch (e) {
      this.log.appendLine(`[hashline] could not allow the save over the merged write: ${errorText(e)}`);
    }
  }

  private async disarm(): Promise<void> {
    const a = this.armed;
    if (!a) return;
    this.armed = undefined;
    const cfg = vscode.workspace.getConfiguration('files', { languageId: a.languageId });
    try {
      await cfg.update(overrideKey, a.previous, vscode.ConfigurationTarget.Global, true);
      await this.state.update(armedKey, undefined);
    } catch (e) {
      this.log.appendLine(`[hashline] could not restore files.saveConflictResolution: ${errorText(e)}`);
    }
  }

  private async showConflict(uri: vscode.Uri, c: ReconcileConflict): Promise<void> {
    const lines = c.endLine < c.line ? `before line ${c.line}` : `lines ${c.line}–${c.endLine}`;
    const choice = await vscode.window.showWarningMessage(
      `hashline: a disk write to ${vscode.workspace.asRelativePath(uri)} overlaps your unsaved ${lines}; ` +
        `the buffer keeps your text (conflict ${c.id}).`,
      'Take theirs',
      'Keep mine',
    );
    if (choice === 'Take theirs') await this.resolve(c.id, 'theirs');
    if (choice === 'Keep mine') await this.resolve(c.id, 'ours');
  }

  async resolve(id: string, take: 'theirs' | 'ours'): Promise<void> {
    try {
      await this.server.executeCommand(Commands.resolve, { conflict: id, take });
      this.review.refreshSoon(0);
    } catch (e) {
      void vscode.window.showErrorMessage(`hashline: resolving ${id} failed: ${errorText(e)}`);
    }
  }

  private async listConflicts(): Promise<void> {
    const res = await this.server.executeCommand<{ conflicts: ReconcileConflict[] }>(Commands.conflicts, {});
    if (!res.conflicts.length) {
      void vscode.window.showInformationMessage('hashline: no open conflicts.');
      return;
    }
    const pick = await vscode.window.showQuickPick(
      res.conflicts.map((c) => ({
        label: `${c.id}  ${c.path ? vscode.workspace.asRelativePath(c.path) : c.uri ?? ''}:${c.line}`,
        description: (c.theirs.split('\n')[0] ?? '').slice(0, 80),
        conflict: c,
      })),
      { placeHolder: 'Open conflict to resolve' },
    );
    if (!pick) return;
    const uri = pick.conflict.uri ? this.server.codeUri(pick.conflict.uri) : vscode.Uri.file(pick.conflict.path ?? '');
    await this.showConflict(uri, pick.conflict);
  }

  dispose(): void {
    void this.disarm();
    for (const d of this.subscriptions) d.dispose();
  }
}
