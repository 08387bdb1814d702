// Unit tests of logLine.ts: the extension's and the language client's lines in the sidecar's
// format (`HH:MM:SS.mmm level message`, UTC), the server's own lines untouched.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatLogLine, logStamp } from '../src/logLine';

const at = new Date(Date.UTC(2026, 11, 7, 9, 5, 3, 7));

test('the stamp is the sidecar\'s: UTC, milliseconds', () => {
  assert.equal(logStamp(at), '09:05:03.007');
});

test('the extension\'s lines lose the [hashline] prefix and get the stamp and level', () => {
  assert.equal(formatLogLine('[hashline] settings changed; restarting the server', at),
    '09:05:03.007 info  settings changed; restarting the server');
  assert.equal(formatLogLine('plain', at, 'warn'), '09:05:03.007 warn  plain');
});

test('the language client\'s [Level - time] lines are rewritten with their level', () => {
  assert.equal(formatLogLine('[Error - 9:05:03 AM] Server process exited with code 1.', at),
    '09:05:03.007 error Server process exited with code 1.');
  assert.equal(formatLogLine('[Info  - 9:05:03 AM] Connection to server got closed.', at),
    '09:05:03.007 info  Connection to server got closed.');
  assert.equal(formatLogLine('[Trace - 9:05:03 AM] x', at), '09:05:03.007 debug x');
});

test('a line the sidecar already stamped is left as it is', () => {
  const line = '15:04:05.123 info  applied edit op 3 by claude, session s1: /ws/app.py (buffer, version 3 → 4)';
  assert.equal(formatLogLine(line, at), line);
});
