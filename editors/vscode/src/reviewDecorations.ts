// The review decorations: pending agent hunks marked in every visible editor — a green bar in the
// gutter side and a faint background over the lines the agent wrote, a red line above the place
// where the agent only deleted lines, and marks in the overview ruler. Hovering a hunk shows what
// it replaced: the removed lines and the written ones as a diff block (a long side folded past
// its first lines, reviewHover.ts), with Diff / ✓ Keep / ✗ Reject links. Redrawn from
// ReviewModel's cache when it changes and when editors become visible. Off with
// `hashline.review.decorations`.
import * as vscode from 'vscode';
import { PendingHunk, hunkLines, hunkSpan, hunkTitle } from './review';
import { ReviewCommands } from './reviewCommands';
import { DiffCommand } from './reviewDiff';
import { hunkDiffMarkdown, markdownText } from './reviewHover';
import { ReviewModel } from './reviewModel';
import { readReviewSettings } from './settings';

const commandLink = (title: string, command: string, id: string) =>
  `[${title}](command:${command}?${encodeURIComponent(JSON.stringify([id]))})`;

// The hover of a pending hunk: who, where, and the lines before and after. `supportHtml` for the
// <details> that folds a long side; every text that is not ours is escaped (markdownText) or fenced.
export function hunkHover(hunk: PendingHunk): vscode.MarkdownString {
  const what = hunk.removedLines > 0 ? (hunk.lines > 0 ? 'replaced' : 'removed') : 'added';
  const md = new vscode.MarkdownString(undefined, true);
  md.supportHtml = true;
  md.isTrusted = { enabledCommands: [DiffCommand, ReviewCommands.keep, ReviewCommands.reject] };
  md.appendMarkdown(`**${markdownText(hunkTitle(hunk))}** \u00b7 ${markdownText(hunkLines(hunk))} \u2014 ${what}:\n\n`);
  md.appendMarkdown(hunkDiffMarkdown(hunk));
  md.appendMarkdown(
    `\n\n${commandLink('Diff', DiffCommand, hunk.id)} \u00b7 ${commandLink('\u2713 Keep', ReviewCommands.keep, hunk.id)}` +
      ` \u00b7 ${commandLink('\u2717 Reject', ReviewCommands.reject, hunk.id)}`,
  );
  return md;
}

export function registerReviewDecorations(model: ReviewModel): vscode.Disposable[] {
  const written = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
    borderColor: new vscode.ThemeColor('editorGutter.addedBackground'),
    borderStyle: 'solid',
    borderWidth: '0 0 0 3px',
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  const deleted = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    borderColor: new vscode.ThemeColor('editorGutter.deletedBackground'),
    borderStyle: 'solid',
    borderWidth: '2px 0 0 0',
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });

  const draw = (editor: vscode.TextEditor) => {
    const on = readReviewSettings().decorations;
    const doc = editor.document;
    const hunks = on ? model.hunksFor(doc) : [];
    const writtenRanges: vscode.DecorationOptions[] = [];
    const deletedRanges: vscode.DecorationOptions[] = [];
    for (const hunk of hunks) {
      const span = hunkSpan(hunk, doc.lineCount);
      if (!span) continue;
      const hover = hunkHover(hunk);
      // The whole lines, so the hover comes wherever the pointer is on them.
      const last = hunk.lines > 0 ? span.end : span.start;
      const range = new vscode.Range(span.start, 0, last, doc.lineAt(last).range.end.character);
      if (hunk.lines > 0) writtenRanges.push({ range, hoverMessage: hover });
      else deletedRanges.push({ range, hoverMessage: hover });
    }
    editor.setDecorations(written, writtenRanges);
    editor.setDecorations(deleted, deletedRanges);
  };
  const drawAll = () => vscode.window.visibleTextEditors.forEach(draw);

  return [
    written,
    deleted,
    model.onDidChange(drawAll),
    vscode.window.onDidChangeVisibleTextEditors(drawAll),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('hashline.review')) drawAll();
    }),
  ];
}
