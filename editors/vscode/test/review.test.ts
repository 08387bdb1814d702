// Unit tests of review.ts: matching the server's URIs, where a hunk's lenses go, the summaries of
// the "Review Agent Edits" list, and how cached hunks follow the user's line insertions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PendingHunk, PendingResult, hunkSpan, hunkSummary, pendingFileFor, reviewRows, shiftHunks, uriKey } from '../src/review';

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

test('summaries count lines and quote the first written (or removed) line', () => {
  assert.equal(hunkSummary(hunk({})), '+2 \u22121 "new one"');
  assert.equal(hunkSummary(hunk({ lines: 0, removedLines: 3, before: '\n  gone\nx\n', after: '' })), '\u22123 "gone"');
  assert.equal(hunkSummary(hunk({ after: 'x'.repeat(100) + '\n' }), 10), `+2 \u22121 "${'x'.repeat(9)}\u2026"`);
});

test('review rows go by file, then line; unplaceable hunks last and say so', () => {
  const rows = reviewRows({
    files: [
      {
        name: 'a.txt', uri: 'file:///ws/a.txt', hunks: [
          hunk({ id: '4#2', line: 9, method: 'edit', agent: 'cli', turn: 1 }),
          hunk({ id: '4#1', line: null, changedSince: true }),
          hunk({ id: '3#1', line: 2 }),
        ],
      },
    ],
  });
  assert.deepEqual(rows.map((r) => r.label), ['a.txt:2', 'a.txt:9', 'a.txt (changed since; cannot be placed)']);
  assert.equal(rows[1].description, '4#2 \u00b7 edit, cli, turn 1');
  assert.equal(rows[0].detail, '+2 \u22121 "new one"');
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
