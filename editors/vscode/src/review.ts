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

// `+2 −1 "first added line"` (or `−3 "first removed line"` for a deletion).
export function hunkSummary(h: PendingHunk, max = 60): string {
  const counts = hunkCounts(h);
  const text = h.lines > 0 ? firstLine(h.after) : firstLine(h.before);
  return text ? `${counts} ${JSON.stringify(clip(text, max))}` : counts;
}

// One row of the "Review Agent Edits" list.
export interface ReviewRow {
  file: PendingFile;
  hunk: PendingHunk;
  label: string; // name:line (or name: changed since)
  description: string; // op#k and who made it
  detail: string; // the summary
}

export function reviewRows(result: PendingResult | undefined): ReviewRow[] {
  const rows: ReviewRow[] = [];
  for (const file of result?.files ?? []) {
    const hunks = [...file.hunks].sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
    for (const hunk of hunks) {
      const where = hunk.line === null ? ' (changed since; cannot be placed)' : `:${hunk.line}`;
      const who = [hunk.method, hunk.agent, hunk.turn !== undefined ? `turn ${hunk.turn}` : '']
        .filter(Boolean)
        .join(', ');
      rows.push({
        file,
        hunk,
        label: `${file.name}${where}`,
        description: who ? `${hunk.id} \u00b7 ${who}` : hunk.id,
        detail: hunkSummary(hunk, 80),
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
