// binary.ts: the setting wins; otherwise PATH, the install prefixes, ~/.local/bin and the bundled
// binary, in that order; the bare name when nothing is found.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findBinary, BinaryLookup } from '../src/binary';

function lookup(existing: string[], pathVar = '/opt/a:/opt/b'): BinaryLookup {
  return {
    env: { PATH: pathVar },
    home: '/home/me',
    extensionRoot: '/ext/hashline-0.1.0',
    platform: 'linux-x64',
    isExecutable: (file) => existing.includes(file),
  };
}

test('an explicit setting wins over everything', () => {
  assert.equal(findBinary('/custom/hashline', lookup(['/opt/a/hashline'])), '/custom/hashline');
});

test('PATH comes first, in PATH order', () => {
  assert.equal(findBinary('hashline', lookup(['/opt/b/hashline', '/usr/bin/hashline'])), '/opt/b/hashline');
});

test('then /usr/local/bin, /usr/bin, ~/.local/bin', () => {
  assert.equal(findBinary(undefined, lookup(['/usr/bin/hashline', '/usr/local/bin/hashline'])), '/usr/local/bin/hashline');
  assert.equal(findBinary('', lookup(['/home/me/.local/bin/hashline'], '')), '/home/me/.local/bin/hashline');
});

test('then the binary bundled in a platform .vsix', () => {
  assert.equal(findBinary(undefined, lookup(['/ext/hashline-0.1.0/bin/linux-x64/hashline'])),
    '/ext/hashline-0.1.0/bin/linux-x64/hashline');
});

test('the bare name when nothing is found', () => {
  assert.equal(findBinary(undefined, lookup([])), 'hashline');
});
