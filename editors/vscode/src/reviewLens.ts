// The review CodeLenses: above every pending agent hunk of a document, "claude · +2 −4" (the
// agent's name first; it opens the review list), "✓ Keep", "✗ Reject", "Diff" (before ↔ now in
// VS Code's diff view) and "✓ Keep all in file (N)", which run the review commands with the
// hunk's id (ids only in tooltips and arguments). Lenses come from ReviewModel's cache (never a server round-trip while the user
// types) and are re-asked for whenever the cache changes. Off with `hashline.review.codeLens`.
import * as vscode from 'vscode';
import { hunkAgent, hunkLines, hunkSpan, hunkTitle } from './review';
import { DiffCommand } from './reviewDiff';
import { ReviewCommands } from './reviewCommands';
import { ReviewModel } from './reviewModel';
import { documentSelector } from './server';
import { readReviewSettings } from './settings';

export class ReviewLensProvider implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly model: ReviewModel) {
    model.onDidChange(() => this.changed.fire());
  }

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!readReviewSettings().codeLens) return [];
    const file = this.model.fileFor(doc);
    if (!file) return [];
    const placed = file.hunks.filter((h) => hunkSpan(h, doc.lineCount));
    const lenses: vscode.CodeLens[] = [];
    for (const hunk of placed) {
      const span = hunkSpan(hunk, doc.lineCount)!;
      const range = new vscode.Range(span.start, 0, span.start, 0);
      lenses.push(
        new vscode.CodeLens(range, {
          title: hunkTitle(hunk),
          command: ReviewCommands.review,
          arguments: [hunk.id],
          tooltip: `${hunkAgent(hunk)}'s edit of ${hunkLines(hunk)} (hunk ${hunk.id}): list every pending agent edit`,
        }),
        new vscode.CodeLens(range, {
          title: '\u2713 Keep',
          command: ReviewCommands.keep,
          arguments: [hunk.id],
          tooltip: `Keep ${hunkAgent(hunk)}'s edit (mark hunk ${hunk.id} reviewed)`,
        }),
        new vscode.CodeLens(range, {
          title: '\u2717 Reject',
          command: ReviewCommands.reject,
          arguments: [hunk.id],
          tooltip: `Reject ${hunkAgent(hunk)}'s edit: put back the lines it replaced (your own typing stays)`,
        }),
        new vscode.CodeLens(range, {
          title: 'Diff',
          command: DiffCommand,
          arguments: [hunk.id],
          tooltip: 'Compare the text before this edit with now, in the diff view',
        }),
      );
      if (placed.length > 1) {
        lenses.push(
          new vscode.CodeLens(range, {
            title: `\u2713 Keep all in file (${placed.length})`,
            command: ReviewCommands.keepFile,
            arguments: [doc.uri.toString()],
            tooltip: 'Keep every pending agent hunk of this file',
          }),
        );
      }
    }
    return lenses;
  }
}

export function registerReviewLens(model: ReviewModel): vscode.Disposable[] {
  const provider = new ReviewLensProvider(model);
  return [
    vscode.languages.registerCodeLensProvider(documentSelector, provider),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('hashline.review')) provider.refresh();
    }),
  ];
}
