// The pending agent hunks as `hashline.pending` returns them, and what the review UI derives from
// them: which hunks belong to a document, the lines each covers now, a one-line summary, and how
// the lines move when the user types before the next refresh. Pure; no vscode import. Used by
// reviewModel.ts / reviewCommands.ts, tested by test/review.test.ts.

export interface PendingHunk {
  id: string; // `OP#K`
  op: number | string;
  method?: string;
  agent?: string;
  session?: string;
  turn?: number;
  lines: number; // after-lines of the hunk (0: a pure deletion)
  removedLines: number;
  before?: string;
  after?: string;
  line: number | null; // 1-based line where the hunk is now; null when changed since
  changedSince?: boolean;
  note?: string;
}

export interface PendingFile {
  name: string;
  uri: string;
  path?: string;
  backend?: string;
  hunks: PendingHunk[];
}

export interface PendingResult {
  status?: string;
  count?: number;
  files?: PendingFile[];
}

// A document's key for matching the server's URIs with the editor's: file URIs by their decoded
// path (the two sides may percent-encode differently), anything else by the decoded string.
export function uriKey(uri: string): string {
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  if (uri.startsWith('file://')) {
    const rest = uri.slice('file://'.length);
    const path = rest.startsWith('/') ? rest : rest.slice(rest.indexOf('/'));
    return 'file:' + decode(path);
  }
  return decode(uri);
}

// The number of pending hunks in `result` (every file's).
export function pendingCount(result: PendingResult | undefined): number {
  return (result?.files ?? []).reduce((n, f) => n + f.hunks.length, 0);
}

export function isPendingResult(x: unknown): x is PendingResult {
  return typeof x === 'object' && x !== null && Array.isArray((x as PendingResult).files);
}

// The file entry of `result` for a document known to the editor by `uri` (and `fsPath`, if any).
export function pendingFileFor(result: PendingResult | undefined, uri: string, fsPath?: string): PendingFile | undefined {
  const key = uriKey(uri);
  return result?.files?.find((f) => uriKey(f.uri) === key || (fsPath !== undefined && f.path === fsPath));
}

// The 0-based, inclusive line span a hunk covers in a document of `lineCount` lines; a pure
// deletion covers the line it left its gap before. Undefined when the hunk cannot be placed.
export function hunkSpan(h: PendingHunk, lineCount: number): { start: number; end: number } | undefined {
  if (h.line === null || h.line === undefined || lineCount <= 0) return undefined;
  const start = Math.min(Math.max(h.line - 1, 0), lineCount - 1);
  const end = Math.min(start + Math.max(h.lines, 1) - 1, lineCount - 1);
  return { start, end };
}

function firstLine(text: string | undefined): string {
  if (!text) return '';
  const line = text.split(/\r\n|\r|\n/).find((l) => l.trim() !== '') ?? '';
  return line.trim();
}

function clip(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1) + '\u2026';
}

// `+2 −1`: lines the hunk added and removed.
export function hunkCounts(h: PendingHunk): string {
  return [h.lines > 0 ? `+${h.lines}` : '', h.removedLines > 0 ? `\u2212${h.removedLines}` : '']
    .filter(Boolean)
    .join(' ');
}

// Who made the hunk, as a person reads it: the agent's name (else the method, else "agent").
export function hunkAgent(h: PendingHunk): string {
  return h.agent || h.method || 'agent';
}

// `claude · +2 −4`: the lens's first part and the review list's label.
export function hunkTitle(h: PendingHunk): string {
  const counts = hunkCounts(h);
  return counts ? `${hunkAgent(h)} \u00b7 ${counts}` : hunkAgent(h);
}

// `line 12`, `lines 12–13`, or `changed since` when the hunk cannot be placed.
export function hunkLines(h: PendingHunk): string {
  if (h.line === null || h.line === undefined) return 'changed since';
  const count = Math.max(h.lines, 1);
  return count === 1 ? `line ${h.line}` : `lines ${h.line}\u2013${h.line + count - 1}`;
}

// `+2 −1 first added line` (or `−3 removed: first removed line` for a deletion), as written: no
// quoting, no escaping.
export function hunkSummary(h: PendingHunk, max = 60): string {
  const counts = hunkCounts(h);
  const text = h.lines > 0 ? firstLine(h.after) : firstLine(h.before);
  if (!text) return counts;
  return `${counts} ${h.lines > 0 ? '' : 'removed: '}${clip(text, max)}`;
}

// What a decision did, in words: `Rejected claude's edit in app.py (lines 12–13)`.
export function decisionMessage(kind: 'keep' | 'reject', h: PendingHunk, fileName: string): string {
  const verb = kind === 'keep' ? 'Kept' : 'Rejected';
  return `${verb} ${hunkAgent(h)}'s edit in ${fileName} (${hunkLines(h)})`;
}

// The lines of `text` (terminators dropped; a final line break makes no extra line).
export function splitLines(text: string | undefined): string[] {
  if (!text) return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

// The document's text before `hunks` (of one document, placed at their current lines): each
// hunk's written lines replaced by the lines it removed. `eol` is the document's line break. The
// result is what the diff view shows on the left against the live text on the right.
export function textBefore(current: string, hunks: PendingHunk[], eol = '\n'): string {
  const lines = current.split(/\r\n|\r|\n/);
  const placed = hunks
    .filter((h) => h.line !== null && h.line !== undefined)
    .sort((a, b) => (b.line as number) - (a.line as number));
  for (const h of placed) {
    const start = Math.min(Math.max((h.line as number) - 1, 0), lines.length);
    lines.splice(start, Math.max(h.lines, 0), ...splitLines(h.before));
  }
  return lines.join(eol);
}

// One row of the "Review Agent Edits" list.
export interface ReviewRow {
  file: PendingFile;
  hunk: PendingHunk;
  label: string; // claude · +2 −4
  description: string; // app.py, lines 12–13 · turn 1
  detail: string; // the first line written (or removed), as it is
}

export function reviewRows(result: PendingResult | undefined): ReviewRow[] {
  const rows: ReviewRow[] = [];
  for (const file of result?.files ?? []) {
    const hunks = [...file.hunks].sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
    for (const hunk of hunks) {
      const where = hunk.line === null ? `${file.name} (changed since; cannot be placed)` : `${file.name}, ${hunkLines(hunk)}`;
      const turn = hunk.turn !== undefined ? ` \u00b7 turn ${hunk.turn}` : '';
      const text = hunk.lines > 0 ? firstLine(hunk.after) : firstLine(hunk.before);
      rows.push({
        file,
        hunk,
        label: hunkTitle(hunk),
        description: `${where}${turn}`,
        detail: text ? `${hunk.lines > 0 ? '' : 'removed: '}${clip(text, 80)}` : '',
      });
    }
  }
  return rows;
}

// One text change as the editor reports it: the replaced 0-based line span and the number of
// line breaks in the new text.
export interface LineChange {
  startLine: number;
  endLine: number;
  newLineBreaks: number;
}

// Moves the hunks' lines through one change event of the user's (its ranges all refer to the
// text before the event), so lenses stay on their hunks until the server answers again. A hunk
// whose own lines were touched keeps its start (the next refresh says whether it changed).
export function shiftHunks(hunks: PendingHunk[], changes: LineChange[]): PendingHunk[] {
  return hunks.map((h) => {
    if (h.line === null || h.line === undefined) return h;
    const start = h.line - 1;
    let delta = 0;
    for (const c of changes) if (c.endLine < start) delta += c.newLineBreaks - (c.endLine - c.startLine);
    return delta === 0 ? h : { ...h, line: Math.max(start + delta, 0) + 1 };
  });
}
