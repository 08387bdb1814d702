// Unit tests of review.ts: matching the server's URIs, where a hunk's lenses go, the plain labels
// of lenses, list and messages (agent first, no ids, no escaping), the before text of a hunk, and
// how cached hunks follow the user's line insertions. The hover's diff block: reviewHover.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  PendingHunk, PendingResult, decisionMessage, hunkLines, hunkSpan, hunkSummary, hunkTitle,
  pendingCount, pendingFileFor, reviewRows, shiftHunks, textBefore, uriKey,
} from '../src/review';

const hunk = (over: Partial<PendingHunk>): PendingHunk => ({
  id: '3#1', op: 3, lines: 2, removedLines: 1, before: 'old\n', after: 'new one\nnew two\n', line: 5, ...over,
});

test('file URIs match however each side percent-encodes them', () => {
  assert.equal(uriKey('file:///ws/a%20b.txt'), uriKey('file:///ws/a b.txt'));
  assert.equal(uriKey('file:///ws/%C3%A9t%C3%A9.txt'), 'file:/ws/été.txt');
  assert.notEqual(uriKey('file:///ws/a.txt'), uriKey('file:///ws/b.txt'));
  assert.equal(uriKey('untitled:Untitled-1'), 'untitled:Untitled-1');
});

test('the file entry for a document: by URI, else by path', () => {
  const result: PendingResult = {
    files: [
      { name: 'a.txt', uri: 'file:///ws/a.txt', path: '/ws/a.txt', hunks: [] },
      { name: 'b.txt', uri: 'file:///ws/b.txt', path: '/ws/b.txt', hunks: [] },
    ],
  };
  assert.equal(pendingFileFor(result, 'file:///ws/b.txt')?.name, 'b.txt');
  assert.equal(pendingFileFor(result, 'vscode-remote://x/ws/a.txt', '/ws/a.txt')?.name, 'a.txt');
  assert.equal(pendingFileFor(result, 'file:///ws/c.txt', '/ws/c.txt'), undefined);
  assert.equal(pendingFileFor(undefined, 'file:///ws/a.txt'), undefined);
});

test('a hunk spans its written lines; a deletion marks the line after its gap; clamped to the document', () => {
  assert.deepEqual(hunkSpan(hunk({ line: 5, lines: 2 }), 24), { start: 4, end: 5 });
  assert.deepEqual(hunkSpan(hunk({ line: 5, lines: 0 }), 24), { start: 4, end: 4 });
  assert.deepEqual(hunkSpan(hunk({ line: 25, lines: 0 }), 24), { start: 23, end: 23 });
  assert.deepEqual(hunkSpan(hunk({ line: 23, lines: 5 }), 24), { start: 22, end: 23 });
  assert.equal(hunkSpan(hunk({ line: null, changedSince: true }), 24), undefined);
});

test('summaries count lines and show the first written (or removed) line as it is, never escaped', () => {
  assert.equal(hunkSummary(hunk({})), '+2 \u22121 new one');
  assert.equal(hunkSummary(hunk({ lines: 0, removedLines: 3, before: '\n  gone\nx\n', after: '' })), '\u22123 removed: gone');
  assert.equal(hunkSummary(hunk({ after: 'x'.repeat(100) + '\n' }), 10), `+2 \u22121 ${'x'.repeat(9)}\u2026`);
  const doc = hunk({ after: '    """Sum of price * qty over all items."""\n' });
  assert.equal(hunkSummary(doc), '+2 \u22121 """Sum of price * qty over all items."""');
});

test('titles put the agent first, then the counts; no hunk id', () => {
  assert.equal(hunkTitle(hunk({ agent: 'claude', lines: 2, removedLines: 4 })), 'claude \u00b7 +2 \u22124');
  assert.equal(hunkTitle(hunk({ agent: '', method: 'edit', lines: 0, removedLines: 1 })), 'edit \u00b7 \u22121');
  assert.equal(hunkTitle(hunk({ agent: undefined, method: undefined })), 'agent \u00b7 +2 \u22121');
  assert.ok(!hunkTitle(hunk({ agent: 'claude' })).includes('3#1'));
});

test('lines and decisions in words', () => {
  assert.equal(hunkLines(hunk({ line: 12, lines: 2 })), 'lines 12\u201313');
  assert.equal(hunkLines(hunk({ line: 12, lines: 1 })), 'line 12');
  assert.equal(hunkLines(hunk({ line: 12, lines: 0 })), 'line 12');
  assert.equal(hunkLines(hunk({ line: null })), 'changed since');
  assert.equal(decisionMessage('reject', hunk({ agent: 'claude', line: 12, lines: 2 }), 'app.py'),
    "Rejected claude's edit in app.py (lines 12\u201313)");
  assert.equal(decisionMessage('keep', hunk({ agent: 'codex', line: 3, lines: 1 }), 'a.txt'), "Kept codex's edit in a.txt (line 3)");
});

test('review rows: agent and counts, then file and lines apart; unplaceable hunks last and say so', () => {
  const rows = reviewRows({
    files: [
      {
        name: 'app.py', uri: 'file:///ws/app.py', hunks: [
          hunk({ id: '4#2', line: 9, method: 'edit', agent: 'claude', turn: 1, after: '"""Doc \\ string"""\n' }),
          hunk({ id: '4#1', line: null, changedSince: true, agent: 'claude' }),
          hunk({ id: '3#1', line: 12, agent: 'codex', lines: 0, removedLines: 2, before: 'gone\nalso\n', after: '' }),
        ],
      },
    ],
  });
  assert.deepEqual(rows.map((r) => r.label), ['claude \u00b7 +2 \u22121', 'codex \u00b7 \u22122', 'claude \u00b7 +2 \u22121']);
  assert.deepEqual(rows.map((r) => r.description), [
    'app.py, lines 9\u201310 \u00b7 turn 1', 'app.py, line 12', 'app.py (changed since; cannot be placed)',
  ]);
  assert.equal(rows[0].detail, '"""Doc \\ string"""'); // as written: no JSON escaping
  assert.equal(rows[1].detail, 'removed: gone');
  for (const row of rows) assert.ok(!`${row.label} ${row.description} ${row.detail}`.match(/\d#\d/), 'no hunk id in a row');
});

test('the text before: each placed hunk\'s written lines replaced by the lines it removed', () => {
  const now = 'a\nB1\nB2\nc\nd\n';
  // Lines 2-3 (B1, B2) replaced one line "b"; two lines were deleted just before line 5 ("d").
  const replaced = hunk({ line: 2, lines: 2, removedLines: 1, before: 'b\n', after: 'B1\nB2\n' });
  const deleted = hunk({ line: 5, lines: 0, removedLines: 2, before: 'x\ny\n', after: '' });
  assert.equal(textBefore(now, [replaced]), 'a\nb\nc\nd\n');
  assert.equal(textBefore(now, [deleted]), 'a\nB1\nB2\nc\nx\ny\nd\n');
  assert.equal(textBefore(now, [deleted, replaced]), 'a\nb\nc\nx\ny\nd\n');
  assert.equal(textBefore('a\r\nB1\r\nB2\r\n', [replaced], '\r\n'), 'a\r\nb\r\n');
  assert.equal(textBefore(now, [hunk({ line: null })]), now);
});

test('the pending count is every file\'s hunks', () => {
  assert.equal(pendingCount(undefined), 0);
  assert.equal(pendingCount({ files: [{ name: 'a', uri: 'u', hunks: [hunk({}), hunk({})] }, { name: 'b', uri: 'v', hunks: [hunk({})] }] }), 3);
});

test('cached hunks move with lines inserted or deleted above them, not below', () => {
  const hunks = [hunk({ id: 'a', line: 5 }), hunk({ id: 'b', line: 12 }), hunk({ id: 'c', line: null })];
  // Enter at the end of line 3 (0-based 2): one new line above both.
  let moved = shiftHunks(hunks, [{ startLine: 2, endLine: 2, newLineBreaks: 1 }]);
  assert.deepEqual(moved.map((h) => h.line), [6, 13, null]);
  // Lines 8..9 (0-based 7..9 joined) deleted: only the second moves, by two.
  moved = shiftHunks(hunks, [{ startLine: 7, endLine: 9, newLineBreaks: 0 }]);
  assert.deepEqual(moved.map((h) => h.line), [5, 10, null]);
  // Typing inside the first hunk (no line break) and below the second: nothing moves.
  moved = shiftHunks(hunks, [{ startLine: 4, endLine: 4, newLineBreaks: 0 }, { startLine: 20, endLine: 20, newLineBreaks: 3 }]);
  assert.equal(moved[0], hunks[0]);
  assert.equal(moved[1], hunks[1]);
  // Several changes of one event all refer to the text before it.
  moved = shiftHunks(hunks, [{ startLine: 8, endLine: 8, newLineBreaks: 2 }, { startLine: 0, endLine: 0, newLineBreaks: 1 }]);
  assert.deepEqual(moved.map((h) => h.line), [6, 15, null]);
});
