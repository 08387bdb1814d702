// Finds the hashline binary when the `hashline.path` setting is left at its default: PATH, then
// the install prefixes (/usr/local/bin, /usr/bin, ~/.local/bin), then the binary bundled in a
// platform-specific .vsix (bin/linux-x64/hashline). An explicit setting always wins; when nothing
// is found the bare name is returned so the start error names it.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface BinaryLookup {
  env: NodeJS.ProcessEnv;
  home: string;
  extensionRoot: string; // the folder holding package.json
  platform: string; // process.platform + '-' + process.arch, e.g. 'linux-x64'
  isExecutable(file: string): boolean;
}

export function binaryCandidates(lookup: BinaryLookup): string[] {
  const pathDirs = (lookup.env.PATH ?? '').split(path.delimiter).filter((dir) => dir !== '');
  const dirs = [...pathDirs, '/usr/local/bin', '/usr/bin', path.join(lookup.home, '.local', 'bin')];
  return [
    ...dirs.map((dir) => path.join(dir, 'hashline')),
    path.join(lookup.extensionRoot, 'bin', lookup.platform, 'hashline'),
  ];
}

export function findBinary(setting: string | undefined, lookup: BinaryLookup): string {
  if (setting && setting !== 'hashline') return setting;
  return binaryCandidates(lookup).find((file) => lookup.isExecutable(file)) ?? 'hashline';
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
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
