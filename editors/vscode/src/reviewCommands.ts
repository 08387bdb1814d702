// The review commands: "Review Agent Edits" (a list of the pending agent hunks, `claude · +2 −4`
// with the file and lines; picking one opens its diff — before ↔ now — and offers Keep / Reject,
// and each row has ✓ Keep / ✗ Reject buttons), Diff of Agent Edit (reviewDiff.ts), and Keep,
// Reject and Keep All in File, which the CodeLenses run with a hunk id (from the palette they act
// on the hunk under the cursor). Keep is the server's `hashline.accept`, Reject is
// `hashline.reject` — it puts back the lines the agent replaced, keeps the user's own typing, and
// is refused with CONFLICT (nothing changed) when the user edited the hunk's lines since. What
// happened is said in words: "Rejected claude's edit in app.py (lines 12–13)".
import * as vscode from 'vscode';
import { Commands, EditOutcome, isRefused } from './protocol';
import { renderRefusal } from './render';
import { PendingFile, PendingHunk, ReviewRow, decisionMessage, hunkSpan, reviewRows } from './review';
import { ReviewDiff, registerReviewDiff } from './reviewDiff';
import { ReviewModel } from './reviewModel';
import { HashlineServer, errorText } from './server';

export const ReviewCommands = {
  review: 'hashline.reviewAgentEdits',
  keep: 'hashline.review.keep',
  reject: 'hashline.review.reject',
  keepFile: 'hashline.review.keepFile',
} as const;

interface Located {
  hunk: PendingHunk;
  file: PendingFile;
}

// The pending hunk with this id, or the one under the cursor of the active editor.
function locate(model: ReviewModel, id?: unknown): Located | undefined {
  if (typeof id === 'string' && id !== '') {
    for (const file of model.pending?.files ?? []) {
      const hunk = file.hunks.find((h) => h.id === id);
      if (hunk) return { hunk, file };
    }
    return undefined;
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const file = model.fileFor(editor.document);
  const line = editor.selection.active.line;
  const hunk = file?.hunks.find((h) => {
    const span = hunkSpan(h, editor.document.lineCount);
    return span && span.start <= line && line <= span.end;
  });
  return hunk && file ? { hunk, file } : undefined;
}

async function reveal(row: Located): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(row.file.uri));
  const span = hunkSpan(row.hunk, doc.lineCount);
  const range = span ? new vscode.Range(span.start, 0, span.end, 0) : undefined;
  const editor = await vscode.window.showTextDocument(doc, { preview: false, selection: range });
  if (range) editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

export class ReviewActions {
  constructor(
    private readonly server: HashlineServer,
    private readonly model: ReviewModel,
    private readonly diff: ReviewDiff,
  ) {}

  async keep(id?: unknown): Promise<unknown> {
    const target = locate(this.model, id);
    const hunk = target?.hunk.id ?? (typeof id === 'string' ? id : undefined);
    if (!hunk) return this.nothingHere();
    const done = target ? decisionMessage('keep', target.hunk, target.file.name) : `Kept agent edit ${hunk}`;
    return this.run(Commands.accept, { hunk }, done);
  }

  async reject(id?: unknown): Promise<unknown> {
    const target = locate(this.model, id);
    const hunk = target?.hunk.id ?? (typeof id === 'string' ? id : undefined);
    if (!hunk) return this.nothingHere();
    const done = target ? decisionMessage('reject', target.hunk, target.file.name) : `Rejected agent edit ${hunk}`;
    return this.run(Commands.reject, { hunk }, done);
  }

  async keepFile(uri?: unknown): Promise<unknown> {
    const doc =
      typeof uri === 'string'
        ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)
        : vscode.window.activeTextEditor?.document;
    const file = doc ? this.model.fileFor(doc) : undefined;
    if (!file || file.hunks.length === 0) return this.nothingHere();
    const ops = [...new Set(file.hunks.map((h) => String(h.op)))];
    const results = [];
    for (const op of ops) results.push(await this.run(Commands.accept, { op }, undefined));
    const agents = [...new Set(file.hunks.map((h) => h.agent || 'agent'))].join(' and ');
    const count = file.hunks.length;
    vscode.window.setStatusBarMessage(`Kept ${agents}'s ${count} edit${count === 1 ? '' : 's'} in ${file.name}`, 6000);
    return results;
  }

  // "Review Agent Edits": every pending hunk, by file and line; `focus` (a hunk id, from the lens)
  // is the active row.
  async review(focus?: unknown): Promise<unknown> {
    await this.model.refresh();
    if (!this.model.available) {
      void vscode.window.showWarningMessage(`hashline: the server does not offer ${Commands.pending} (is it running?).`);
      return undefined;
    }
    type Item = vscode.QuickPickItem & { row: ReviewRow };
    // The icons the lens shows as ✓ Keep and ✗ Reject.
    const keepButton = { iconPath: new vscode.ThemeIcon('check'), tooltip: '\u2713 Keep' };
    const rejectButton = { iconPath: new vscode.ThemeIcon('close'), tooltip: '\u2717 Reject' };
    const items = (): Item[] =>
      reviewRows(this.model.pending).map((row) => ({
        label: row.label,
        description: row.description,
        detail: row.detail,
        row,
        buttons: [keepButton, rejectButton],
      }));
    const first = items();
    if (first.length === 0) {
      void vscode.window.showInformationMessage('hashline: no pending agent edits.');
      return undefined;
    }
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = 'hashline: pending agent edits';
    pick.placeholder = 'Pick an edit to see it before and after, then keep or reject it';
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    pick.items = first;
    const focused = first.find((item) => item.row.hunk.id === focus);
    if (focused) pick.activeItems = [focused];
    const chosen = await new Promise<Item | undefined>((resolve) => {
      pick.onDidTriggerItemButton(async (e) => {
        const id = e.item.row.hunk.id;
        if (e.button === keepButton) await this.keep(id);
        else await this.reject(id);
        pick.items = items();
        if (pick.items.length === 0) pick.hide();
      });
      pick.onDidAccept(() => {
        resolve(pick.selectedItems[0]);
        pick.hide();
      });
      pick.onDidHide(() => resolve(undefined));
      pick.show();
    });
    pick.dispose();
    if (!chosen) return undefined;
    const row = chosen.row;
    if (row.hunk.line === null) {
      // It cannot be placed (the user changed its lines): rejecting it would be refused.
      await reveal(row);
      const choice = await vscode.window.showQuickPick(['\u2713 Keep'], { title: `${row.label} \u2014 ${row.description}` });
      return choice ? this.keep(row.hunk.id) : undefined;
    }
    await this.diff.open(row.hunk.id);
    const choice = await vscode.window.showQuickPick(['\u2713 Keep', '\u2717 Reject', '\u2713 Keep all in file'], {
      title: `${row.label} \u2014 ${row.description}`,
    });
    if (choice === '\u2713 Keep') return this.keep(row.hunk.id);
    if (choice === '\u2717 Reject') return this.reject(row.hunk.id);
    if (choice === '\u2713 Keep all in file') {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(row.file.uri));
      return this.keepFile(doc.uri.toString());
    }
    return undefined;
  }

  private async run(command: string, argument: object, done: string | undefined): Promise<unknown> {
    let result: unknown;
    try {
      result = await this.server.executeCommand<EditOutcome>(command, argument);
    } catch (e) {
      void vscode.window.showErrorMessage(`hashline: ${command} failed: ${errorText(e)}`);
      return undefined;
    }
    if (isRefused(result)) {
      void vscode.window.showWarningMessage(`hashline: ${command.replace('hashline.', '')} refused. ${renderRefusal(result.error)}`);
    } else if (done) {
      vscode.window.setStatusBarMessage(done, 6000);
    }
    await this.model.refresh();
    return result;
  }

  private nothingHere(): undefined {
    void vscode.window.showInformationMessage('hashline: no pending agent edit here.');
    return undefined;
  }
}

export function registerReviewCommands(server: HashlineServer, model: ReviewModel): vscode.Disposable[] {
  const { diff, disposables } = registerReviewDiff(model);
  const actions = new ReviewActions(server, model, diff);
  return [
    ...disposables,
    vscode.commands.registerCommand(ReviewCommands.review, (id?: unknown) => actions.review(id)),
    vscode.commands.registerCommand(ReviewCommands.keep, (id?: unknown) => actions.keep(id)),
    vscode.commands.registerCommand(ReviewCommands.reject, (id?: unknown) => actions.reject(id)),
    vscode.commands.registerCommand(ReviewCommands.keepFile, (uri?: unknown) => actions.keepFile(uri)),
  ];
}
