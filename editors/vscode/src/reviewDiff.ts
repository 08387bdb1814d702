// Before and after of the pending agent hunks: the command "hashline: Diff of Agent Edit" opens
// VS Code's own diff view between the document's text before the hunk (or every pending hunk of
// an op, or of the file) and the live buffer. The left side is a read-only virtual document
// (scheme `hashline-before`, a TextDocumentContentProvider) holding the text as it was when the
// diff was opened; the right side is the editor's document itself, unsaved typing included. The
// lens "Diff", the hover's Diff link and the review list's items run it.
import * as vscode from 'vscode';
import { PendingFile, PendingHunk, hunkAgent, hunkSpan, textBefore } from './review';
import { ReviewModel } from './reviewModel';

export const BeforeScheme = 'hashline-before';
export const DiffCommand = 'hashline.review.diff';

export class BeforeTextProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  // Holds `text` for `uri` (a new text for a URI already shown updates it).
  put(uri: vscode.Uri, text: string): void {
    const key = uri.toString();
    const known = this.texts.has(key);
    this.texts.set(key, text);
    if (known) this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.changed.dispose();
  }
}

// What a diff is of: one hunk (`op#k`), every pending hunk of an op (`op`), or, with no id, the
// hunk under the cursor, else every pending hunk of the active file.
export interface DiffTarget {
  file: PendingFile;
  hunks: PendingHunk[];
  label: string; // "claude's edit", "claude's edits"
}

export function diffTarget(model: ReviewModel, id?: unknown): DiffTarget | undefined {
  const describe = (file: PendingFile, hunks: PendingHunk[]): DiffTarget | undefined => {
    if (hunks.length === 0) return undefined;
    const agents = [...new Set(hunks.map(hunkAgent))].join(', ');
    return { file, hunks, label: `${agents}'s edit${hunks.length > 1 ? 's' : ''}` };
  };
  if (typeof id === 'string' && id !== '') {
    for (const file of model.pending?.files ?? []) {
      const hunks = file.hunks.filter((h) => (id.includes('#') ? h.id === id : String(h.op) === id));
      if (hunks.length > 0) return describe(file, hunks);
    }
    return undefined;
  }
  const editor = vscode.window.activeTextEditor;
  const file = editor && model.fileFor(editor.document);
  if (!editor || !file) return undefined;
  const line = editor.selection.active.line;
  const under = file.hunks.find((h) => {
    const span = hunkSpan(h, editor.document.lineCount);
    return span && span.start <= line && line <= span.end;
  });
  return describe(file, under ? [under] : file.hunks);
}

export class ReviewDiff {
  constructor(
    private readonly model: ReviewModel,
    private readonly before: BeforeTextProvider,
  ) {}

  // Opens the diff view; resolves to the before-URI shown (undefined: nothing pending there).
  async open(id?: unknown): Promise<vscode.Uri | undefined> {
    const target = diffTarget(this.model, id);
    if (!target) {
      void vscode.window.showInformationMessage('hashline: no pending agent edit to compare here.');
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(target.file.uri));
    const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    const which = id === undefined ? 'file' : String(id);
    const left = vscode.Uri.from({
      scheme: BeforeScheme,
      path: '/' + target.file.name,
      query: `of=${encodeURIComponent(which)}&uri=${encodeURIComponent(target.file.uri)}`,
    });
    this.before.put(left, textBefore(doc.getText(), target.hunks, eol));
    const first = target.hunks
      .map((h) => hunkSpan(h, doc.lineCount))
      .filter((s): s is { start: number; end: number } => !!s)
      .sort((a, b) => a.start - b.start)[0];
    const options: vscode.TextDocumentShowOptions = { preview: true };
    if (first) options.selection = new vscode.Range(first.start, 0, first.start, 0);
    const title = `${target.file.name}: ${target.label} (before \u2194 now)`;
    await vscode.commands.executeCommand('vscode.diff', left, doc.uri, title, options);
    return left;
  }
}

export function registerReviewDiff(model: ReviewModel): { diff: ReviewDiff; disposables: vscode.Disposable[] } {
  const before = new BeforeTextProvider();
  const diff = new ReviewDiff(model, before);
  return {
    diff,
    disposables: [
      before,
      vscode.workspace.registerTextDocumentContentProvider(BeforeScheme, before),
      vscode.commands.registerCommand(DiffCommand, (id?: unknown) => diff.open(id)),
    ],
  };
}
