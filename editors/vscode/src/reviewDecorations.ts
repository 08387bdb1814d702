// The review decorations: pending agent hunks marked in every visible editor — a green bar in the
// gutter side and a faint background over the lines the agent wrote, a red line above the place
// where the agent only deleted lines, and marks in the overview ruler. Redrawn from ReviewModel's
// cache when it changes and when editors become visible. Off with `hashline.review.decorations`.
import * as vscode from 'vscode';
import { hunkSpan } from './review';
import { ReviewModel } from './reviewModel';
import { readReviewSettings } from './settings';

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
      const hover = new vscode.MarkdownString(`hashline: pending agent edit \`${hunk.id}\``);
      if (hunk.lines > 0) {
        writtenRanges.push({ range: new vscode.Range(span.start, 0, span.end, 0), hoverMessage: hover });
      } else {
        deletedRanges.push({ range: new vscode.Range(span.start, 0, span.start, 0), hoverMessage: hover });
      }
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
