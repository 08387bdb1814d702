// Unit tests of journal.ts: which op "Undo Last Agent Edit" picks from a `hashline.log` result.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lastUndoableOp } from '../src/journal';

test('picks the newest op still in effect', () => {
  const op = lastUndoableOp({ ops: [{ op: 1, method: 'edit', inEffect: true }, { op: 2, method: 'replace', inEffect: true }] });
  assert.equal(op?.op, 2);
});

test('skips ops already undone and undo/reject/rewind ops themselves', () => {
  const op = lastUndoableOp({
    ops: [
      { op: 1, method: 'edit', inEffect: true },
      { op: 2, method: 'edit', inEffect: false },
      { op: 3, method: 'undo', inEffect: true, reverts: ['2'] },
      { op: 4, method: 'patch', inEffect: true, reverts: ['1.1'] },
    ],
  });
  assert.equal(op?.op, 1);
});

test('nothing to undo in an empty or missing journal', () => {
  assert.equal(lastUndoableOp({ ops: [] }), undefined);
  assert.equal(lastUndoableOp(undefined), undefined);
  assert.equal(lastUndoableOp({ ops: [{ op: 1, method: 'edit', inEffect: false }] }), undefined);
});
