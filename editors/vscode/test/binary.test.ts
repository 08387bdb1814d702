// binary.ts: the setting wins; otherwise PATH, the OS's install places and the bundled binary
// (bin/<platform>/hashline[.exe]), in that order; the bare name when nothing is found. Linux,
// macOS and Windows lookups are checked here on any OS (paths follow the target OS's rules).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { binaryCandidates, findBinary, BinaryLookup } from '../src/binary';

function lookup(existing: string[], pathVar = '/opt/a:/opt/b', platform = 'linux-x64'): BinaryLookup {
  return {
    env: { PATH: pathVar },
    home: '/home/me',
    extensionRoot: '/ext/hashline-0.1.0',
    platform,
    isExecutable: (file) => existing.includes(file),
  };
}

function windowsLookup(existing: string[], env: NodeJS.ProcessEnv, platform = 'win32-x64'): BinaryLookup {
  return {
    env,
    home: 'C:\\Users\\me',
    extensionRoot: 'C:\\Users\\me\\.vscode\\extensions\\hashline.hashline-0.1.0-win32-x64',
    platform,
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

test("Linux: Homebrew on Linux and mason.nvim's bin (XDG_DATA_HOME when set)", () => {
  assert.equal(findBinary(undefined, lookup(['/home/linuxbrew/.linuxbrew/bin/hashline'], '')),
    '/home/linuxbrew/.linuxbrew/bin/hashline');
  assert.equal(findBinary(undefined, lookup(['/home/me/.local/share/nvim/mason/bin/hashline'], '')),
    '/home/me/.local/share/nvim/mason/bin/hashline');
  const xdg = { ...lookup(['/data/nvim/mason/bin/hashline'], ''), env: { XDG_DATA_HOME: '/data' } };
  assert.equal(findBinary(undefined, xdg), '/data/nvim/mason/bin/hashline');
});

test('then the binary bundled in a platform .vsix', () => {
  assert.equal(findBinary(undefined, lookup(['/ext/hashline-0.1.0/bin/linux-x64/hashline'])),
    '/ext/hashline-0.1.0/bin/linux-x64/hashline');
  assert.equal(findBinary(undefined, lookup(['/ext/hashline-0.1.0/bin/linux-arm64/hashline'], '', 'linux-arm64')),
    '/ext/hashline-0.1.0/bin/linux-arm64/hashline');
});

test('macOS: Homebrew (Apple silicon before Intel), MacPorts, then the bundle', () => {
  const mac = (existing: string[]) => lookup(existing, '', 'darwin-arm64');
  assert.equal(findBinary(undefined, mac(['/usr/local/bin/hashline', '/opt/homebrew/bin/hashline'])),
    '/opt/homebrew/bin/hashline');
  assert.equal(findBinary(undefined, mac(['/opt/local/bin/hashline'])), '/opt/local/bin/hashline');
  assert.equal(findBinary(undefined, mac(['/ext/hashline-0.1.0/bin/darwin-arm64/hashline'])),
    '/ext/hashline-0.1.0/bin/darwin-arm64/hashline');
  assert.ok(!binaryCandidates(mac([])).includes('/home/linuxbrew/.linuxbrew/bin/hashline'));
});

test('Windows: hashline.exe on Path (any case, ; separated), backslash paths', () => {
  const env = { Path: 'C:\\tools;D:\\bin\\' };
  assert.equal(findBinary(undefined, windowsLookup(['D:\\bin\\hashline.exe'], env)), 'D:\\bin\\hashline.exe');
  assert.ok(binaryCandidates(windowsLookup([], env)).every((file) => file.endsWith('\\hashline.exe')));
  assert.ok(!binaryCandidates(windowsLookup([], env)).some((file) => file.includes('/')));
});

test('Windows: per-user and machine installs, scoop, mason, then the bundled .exe', () => {
  const env = { LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local', ProgramFiles: 'C:\\Program Files' };
  const win = (existing: string[], platform?: string) => windowsLookup(existing, env, platform);
  assert.equal(findBinary(undefined, win(['C:\\Program Files\\hashline\\bin\\hashline.exe',
    'C:\\Users\\me\\AppData\\Local\\Programs\\hashline\\bin\\hashline.exe'])),
  'C:\\Users\\me\\AppData\\Local\\Programs\\hashline\\bin\\hashline.exe');
  assert.equal(findBinary(undefined, win(['C:\\Users\\me\\scoop\\shims\\hashline.exe'])),
    'C:\\Users\\me\\scoop\\shims\\hashline.exe');
  assert.equal(findBinary(undefined, win(['C:\\Users\\me\\AppData\\Local\\nvim-data\\mason\\bin\\hashline.exe'])),
    'C:\\Users\\me\\AppData\\Local\\nvim-data\\mason\\bin\\hashline.exe');
  const root = 'C:\\Users\\me\\.vscode\\extensions\\hashline.hashline-0.1.0-win32-x64';
  assert.equal(findBinary(undefined, win([`${root}\\bin\\win32-arm64\\hashline.exe`], 'win32-arm64')),
    `${root}\\bin\\win32-arm64\\hashline.exe`);
  // Without LOCALAPPDATA the per-user place is under the home folder.
  assert.ok(binaryCandidates(windowsLookup([], {})).includes(
    'C:\\Users\\me\\AppData\\Local\\Programs\\hashline\\bin\\hashline.exe'));
});

test('the bare name when nothing is found', () => {
  assert.equal(findBinary(undefined, lookup([])), 'hashline');
  assert.equal(findBinary(undefined, windowsLookup([], {})), 'hashline');
});
