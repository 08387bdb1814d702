// Finds the hashline binary when the `hashline.path` setting is left at its default: PATH, then
// the usual install places of the OS (below), then the binary bundled in a platform-specific .vsix
// (bin/<platform>/hashline, hashline.exe on Windows). An explicit setting always wins; when
// nothing is found the bare name is returned so the start error names it. Paths are built with the
// target OS's rules (path.win32 on Windows), so the lookup is testable for every OS on any OS.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface BinaryLookup {
  env: NodeJS.ProcessEnv;
  home: string;
  extensionRoot: string; // the folder holding package.json
  platform: string; // process.platform + '-' + process.arch, e.g. 'linux-x64', 'win32-arm64'
  isExecutable(file: string): boolean;
}

// The value of an environment variable; on Windows names are case-insensitive (Path, PATH).
function envValue(env: NodeJS.ProcessEnv, name: string, windows: boolean): string | undefined {
  if (!windows) return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : env[key];
}

// Where installers put the binary, per OS, after PATH.
function installDirs(lookup: BinaryLookup, windows: boolean, p: path.PlatformPath): string[] {
  if (windows) {
    const localAppData = envValue(lookup.env, 'LOCALAPPDATA', true) ?? p.join(lookup.home, 'AppData', 'Local');
    const programFiles = envValue(lookup.env, 'ProgramFiles', true) ?? 'C:\\Program Files';
    return [
      p.join(localAppData, 'Programs', 'hashline', 'bin'), // a per-user install
      p.join(programFiles, 'hashline', 'bin'), // a machine-wide install
      p.join(lookup.home, 'scoop', 'shims'),
      p.join(lookup.home, '.local', 'bin'),
      p.join(localAppData, 'nvim-data', 'mason', 'bin'),
    ];
  }
  const xdgData = envValue(lookup.env, 'XDG_DATA_HOME', false) || p.join(lookup.home, '.local', 'share');
  const common = [p.join(lookup.home, '.local', 'bin'), p.join(xdgData, 'nvim', 'mason', 'bin')];
  if (lookup.platform.startsWith('darwin')) {
    return ['/opt/homebrew/bin', '/usr/local/bin', '/opt/local/bin', '/usr/bin', ...common];
  }
  return ['/usr/local/bin', '/usr/bin', '/home/linuxbrew/.linuxbrew/bin', ...common];
}

export function binaryCandidates(lookup: BinaryLookup): string[] {
  const windows = lookup.platform.startsWith('win32');
  const p = windows ? path.win32 : path.posix;
  const exe = windows ? 'hashline.exe' : 'hashline';
  const pathDirs = (envValue(lookup.env, 'PATH', windows) ?? '')
    .split(windows ? ';' : ':')
    .filter((dir) => dir !== '');
  const dirs = [...pathDirs, ...installDirs(lookup, windows, p)];
  return [...dirs.map((dir) => p.join(dir, exe)), p.join(lookup.extensionRoot, 'bin', lookup.platform, exe)];
}

export function findBinary(setting: string | undefined, lookup: BinaryLookup): string {
  if (setting && setting !== 'hashline') return setting;
  return binaryCandidates(lookup).find((file) => lookup.isExecutable(file)) ?? 'hashline';
}

function isExecutable(file: string): boolean {
  try {
    // Windows has no execute bit: an existing regular file is enough there.
    if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

// The real lookup: this process's environment; the bundle lives in <extension>/out/.
export function resolveBinary(setting: string | undefined): string {
  return findBinary(setting, {
    env: process.env,
    home: os.homedir(),
    extensionRoot: path.join(__dirname, '..'),
    platform: `${process.platform}-${process.arch}`,
    isExecutable,
  });
}
