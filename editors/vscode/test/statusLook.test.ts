// Unit tests of statusLook.ts: what hashline's status bar item says and does when the server runs,
// has agent edits pending, or is not running.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statusLook } from '../src/statusLook';

test('running with nothing pending: hashline, click for the status', () => {
  const look = statusLook({ running: true }, 0, '0.1.0');
  assert.equal(look.text, '$(check) hashline');
  assert.equal(look.command, 'hashline.showStatus');
  assert.match(look.tooltip, /mirrors your open buffers.*0\.1\.0/);
  assert.equal(look.warning, false);
});

test('pending agent edits: the count, click to review', () => {
  assert.equal(statusLook({ running: true }, 2).text, '$(diff) hashline: 2 pending');
  assert.equal(statusLook({ running: true }, 2).command, 'hashline.reviewAgentEdits');
  assert.match(statusLook({ running: true }, 1).tooltip, /^1 agent edit waiting/);
});

test('not running: said, and a warning; click for the log', () => {
  const look = statusLook({ running: false }, 3);
  assert.equal(look.text, '$(warning) hashline: not running');
  assert.equal(look.command, 'hashline.showLog');
  assert.equal(look.warning, true);
});

test('after a crash: restarting, or stopped with a click that restarts it', () => {
  assert.equal(statusLook({ running: false, restarting: true }, 0).text, '$(sync~spin) hashline: restarting');
  const stopped = statusLook({ running: false, stopped: true }, 0);
  assert.equal(stopped.text, '$(error) hashline: stopped');
  assert.equal(stopped.command, 'hashline.restartServer');
});
