// Unit tests of render.ts (what a model reads back from the tools). Run by `npm test`: esbuild
// bundles this file into out/test/ and node's test runner runs it. No VS Code needed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { anchoredRow, nextStepFor, renderOutcome, renderRead, renderRefusal } from '../src/render';

test('rows keep anchors that carry their line number and prefix those that do not', () => {
  assert.equal(anchoredRow({ line: 12, anchor: '12:k3f:9qa', text: '  x = 1' }), '12:k3f:9qa\u2192  x = 1');
  assert.equal(anchoredRow({ line: 12, anchor: 'k3f:9qa', text: '' }), '12:k3f:9qa\u2192');
});

test('a read names the document, version, line count, tier and span', () => {
  const text = renderRead('src/a.ts', {
    uri: 'file:///w/src/a.ts', version: 7, tier: 'block', lineCount: 40,
    lines: [{ line: 3, anchor: '3:aaa:bbb', text: 'three' }, { line: 4, anchor: '4:ccc:bbb', text: 'four' }],
  });
  assert.equal(text.split('\n')[0], 'src/a.ts — version 7, 40 lines, tier block; lines 3-4:');
  assert.deepEqual(text.split('\n').slice(1), ['3:aaa:bbb\u2192three', '4:ccc:bbb\u2192four']);
});

test('a whole-file read says so', () => {
  const text = renderRead('a', { uri: 'u', version: 1, tier: 'line', lineCount: 1, lines: [{ line: 1, anchor: '1:abc', text: '' }] });
  assert.match(text, /all lines:$/m);
});

test('a refusal leads with the code, says nothing changed, and shows fresh anchors from its data', () => {
  const text = renderRefusal({
    code: 'STALE_ANCHOR', message: 'line 12 changed', hint: 're-read the file, then retry',
    data: { current: [{ line: 12, anchor: '12:zzz:yyy', text: 'mu 12 user' }], version: 9 },
  });
  const lines = text.split('\n');
  assert.equal(lines[0], 'REFUSED (STALE_ANCHOR): line 12 changed');
  assert.equal(lines[1], 'Nothing was changed.');
  assert.ok(lines.includes('Hint: re-read the file, then retry'));
  assert.ok(lines.includes(`Next: ${nextStepFor('STALE_ANCHOR')}`));
  assert.equal(lines[lines.length - 1], '12:zzz:yyy\u2192mu 12 user');
});

test('a refusal without anchored rows shows its data as JSON', () => {
  const text = renderRefusal({ code: 'OVERLAPPING_EDITS', message: 'edits 1 and 2 overlap', data: { edits: [1, 2] } });
  assert.match(text, /^Details: \{"edits":\[1,2\]\}$/m);
});

test('every error code of the vocabulary has a next step', () => {
  for (const code of ['NOT_OBSERVED', 'STALE_VERSION', 'STALE_ANCHOR', 'AMBIGUOUS_ANCHOR', 'ANCHOR_UNKNOWN',
    'MALFORMED_ANCHOR', 'OUT_OF_RANGE', 'NOT_FOUND', 'AMBIGUOUS', 'OVERLAPPING_EDITS', 'NO_CHANGE', 'NOT_TEXT',
    'FILE_NOT_FOUND', 'OUTSIDE_WORKSPACE', 'PATCH_INVALID', 'EDITOR_REJECTED', 'EDITOR_TIMEOUT', 'DESYNCED',
    'CONFLICT', 'IO_ERROR']) {
    assert.ok(nextStepFor(code), code);
  }
});

test('an applied outcome reports the new version, moves, fresh anchors, diff and other fields', () => {
  const text = renderOutcome('a.txt', {
    status: 'applied', uri: 'file:///w/a.txt', version: 5, versionBefore: 4, backend: 'buffer',
    rebased: [{ from: 10, to: 13 }], anchors: [{ line: 13, anchor: '13:abc:def', text: 'new' }],
    diff: '@@ -13 +13 @@\n-old\n+new\n', warnings: [],
  });
  const lines = text.split('\n');
  assert.equal(lines[0], 'Applied to a.txt (now version 5).');
  assert.ok(lines.includes('Lines moved since your read (your line \u2192 current line): 10\u219213'));
  assert.deepEqual(lines.slice(lines.indexOf('Fresh anchors:') + 1, lines.indexOf('Fresh anchors:') + 2), ['13:abc:def\u2192new']);
  assert.deepEqual(lines.slice(lines.indexOf('Diff:') + 1, lines.indexOf('Diff:') + 4), ['@@ -13 +13 @@', '-old', '+new']);
  assert.equal(lines[lines.length - 1], 'Details: {"versionBefore":4,"backend":"buffer"}');
  assert.ok(!text.includes('file:///w/a.txt'));
});

test('a refused outcome renders as a refusal', () => {
  const text = renderOutcome('a.txt', { status: 'refused', error: { code: 'NOT_OBSERVED', message: 'read first' } });
  assert.match(text, /^REFUSED \(NOT_OBSERVED\): read first/);
});

test('a patch outcome lists each file with its kind, version, backend and fresh anchors', () => {
  const text = renderOutcome('the workspace', {
    status: 'applied', diff: '--- a/s.txt\n+++ b/s.txt\n',
    files: [{ path: 's.txt', kind: 'update', version: 25, backend: 'buffer', anchors: [{ line: 5, anchor: '5:gvp:57z', text: 'e' }] },
      { path: 'new.txt', kind: 'add', backend: 'disk' }],
  });
  const lines = text.split('\n');
  assert.equal(lines[0], 'Applied the patch to 2 files:');
  assert.equal(lines[1], '- s.txt (update, now version 25, in the editor buffer, unsaved)');
  assert.equal(lines[2], '- new.txt (add, written to disk)');
  assert.deepEqual(lines.slice(3, 5), ['Fresh anchors for s.txt:', '5:gvp:57z\u2192e']);
  assert.deepEqual(lines.slice(5), ['Diff:', '--- a/s.txt', '+++ b/s.txt']);
});
