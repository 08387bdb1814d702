// Unit tests of claudeIdeState.ts: the `hashline/claudeIde` params the server sends, what the
// Claude Code status bar item says for them, the `auto` setting, and the lines a selection sends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { claudeIdeWanted, describeClaudeIde, parseClaudeIdeState, selectedLines } from '../src/claudeIdeState';

test('auto serves the IDE protocol unless Anthropic\'s extension is installed; on/off decide alone', () => {
  assert.equal(claudeIdeWanted('auto', false), true);
  assert.equal(claudeIdeWanted('auto', true), false);
  assert.equal(claudeIdeWanted('on', true), true);
  assert.equal(claudeIdeWanted('off', false), false);
});

test('the server\'s state is parsed; anything else is no state', () => {
  const state = parseClaudeIdeState({
    enabled: true,
    port: 40123,
    lockFile: '/c/ide/40123.lock',
    clients: [{ name: 'claude-code', version: '2.1.332', pid: 42 }, 'junk', { pid: 'x' }],
  });
  assert.deepEqual(state, {
    enabled: true,
    port: 40123,
    lockFile: '/c/ide/40123.lock',
    clients: [
      { name: 'claude-code', version: '2.1.332', pid: 42 },
      { name: 'claude-code', version: '', pid: null },
    ],
  });
  assert.deepEqual(parseClaudeIdeState({ enabled: false }), { enabled: false, port: undefined, lockFile: undefined, clients: [] });
  assert.equal(parseClaudeIdeState(null), undefined);
  assert.equal(parseClaudeIdeState({ port: 1 }), undefined);
  assert.equal(parseClaudeIdeState('on'), undefined);
});

test('connected and waiting states read differently on screen and to a screen reader', () => {
  const connected = describeClaudeIde({
    enabled: true,
    port: 40123,
    clients: [{ name: 'claude-code', version: '2.1.332', pid: 42 }],
  });
  assert.equal(connected.connected, true);
  assert.equal(connected.text, '$(sparkle) hashline \u21c4 Claude Code');
  assert.equal(connected.label, 'Claude Code 2.1.332 connected to hashline (127.0.0.1:40123)');
  const waiting = describeClaudeIde({ enabled: true, port: 40123, lockFile: '/c/ide/40123.lock', clients: [] });
  assert.equal(waiting.connected, false);
  assert.equal(waiting.text, '$(debug-disconnect) hashline \u21c4 Claude Code');
  assert.equal(waiting.label, "hashline's Claude IDE server on 127.0.0.1:40123: no Claude Code connected");
  assert.match(waiting.tooltip, /40123\.lock/);
  assert.match(waiting.tooltip, /hashline claude/);
});

test('a selection sends its lines, 1-based; an empty one the cursor line; an end at column 0 stops before it', () => {
  assert.deepEqual(selectedLines({ line: 4, character: 3 }, { line: 4, character: 3 }), { from: 5, to: 5 });
  assert.deepEqual(selectedLines({ line: 2, character: 0 }, { line: 4, character: 7 }), { from: 3, to: 5 });
  assert.deepEqual(selectedLines({ line: 2, character: 0 }, { line: 5, character: 0 }), { from: 3, to: 5 });
  assert.deepEqual(selectedLines({ line: 2, character: 1 }, { line: 2, character: 1 }), { from: 3, to: 3 });
});
