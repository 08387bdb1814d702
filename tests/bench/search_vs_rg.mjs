// `hashline search` (disk mode: no editor, no sidecar) vs ripgrep on the same 50,000-file tree,
// in the same run (issue 21: hashline's wall time within 1.5× of rg's). Used by scripts/bench
// (`--sections search`).
//
// The tree is generated once (deterministic) and cached in a scratch directory outside the repo
// (default ${TMPDIR:-/tmp}/hashline-bench-search/tree-v1; a `.complete` stamp marks it done):
//   src/dNN/sNN/fNNN.txt   50,000 text files in 40 × 25 directories, 1–8 KB each, ASCII words
//   build/                 2,000 files, ignored by the root .gitignore (`/build/`)
//   src/d07/generated/     500 files, ignored by a nested .gitignore (`generated/`)
//   src/**/*.log           200 files, ignored by the root .gitignore (`*.log`)
//   src/dNN/blob-N.bin     40 binary files (a NUL byte in the first 100 bytes)
//   .git/                  HEAD, config and 200 loose "objects" (a git-like directory)
// Every skipped file (ignored, binary, .git) holds the patterns too, so a tool that searched it
// would report extra hits. No other hidden files (rg skips hidden files by default, hashline
// does not; the tree has none, so both search the same set).
//
// Patterns: a literal (`hashline_needle_marker`, ~300 hits), a regex
// (`\bmark_[a-z]{3}_[0-9]{3}\b`, ~400 hits), and a literal and a regex found nowhere (the walk
// and scan alone, no per-hit work).
// Each pattern: one untimed warm-up of each tool, then N timed runs alternating rg, hashline,
// rg, hashline…; wall time per process run (and CPU user + system through /usr/bin/time when
// installed). Commands:
//   rg -n [-F] PATTERN ROOT                             (ripgrep's defaults: .gitignore, hidden,
//                                                        binary skipped; its own thread count)
//   hashline search PATTERN [--literal] --workspace ROOT --max-hits 100000 --max-bytes 64M
//     (cwd ROOT, HASHLINE_NO_SIDECAR=1, scratch state and runtime dirs)
// Verification: every timed run of both tools prints the same set of file:line hits (and the
// expected count from the generator); any mismatch is reported and makes the exit status 1.
//
// Usage: node search_vs_rg.mjs --hashline BIN [--rg rg] [--runs 5] [--dir SCRATCH] [--files 50000]
// Prints one JSON object per pattern: {pattern, literal, expectedHits, hits, rg: {medianMs, minMs,
// runsMs, cpuMedianMs}, hashline: {...}, ratio (hashline median ÷ rg median), verified, problem}
// and a last {tree: {...}} line describing the tree.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []));
const runs = Number(args.runs ?? 5);
const rgBin = args.rg ?? 'rg';
const fileCount = Number(args.files ?? 50000);
const scratch = args.dir ?? join(process.env.TMPDIR || '/tmp', 'hashline-bench-search');
const tree = join(scratch, fileCount === 50000 ? 'tree-v1' : `tree-v1-${fileCount}`);

const LITERAL = 'hashline_needle_marker';
const REGEX = '\\bmark_[a-z]{3}_[0-9]{3}\\b';
const NOWHERE = 'zq_found_nowhere_zq';
const NOWHERE_REGEX = '\\bzq_[a-z]{3}_[0-9]{3}\\b';

// ---- the tree ----------------------------------------------------------------------------------
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(21);
const pick = (n) => Math.floor(rand() * n);
const letters = 'abcdefghijklmnopqrstuvwxyz';
const vocab = Array.from({ length: 3000 }, () => Array.from({ length: 3 + pick(8) }, () => letters[pick(26)]).join(''));
const regexToken = () => `mark_${letters[pick(26)]}${letters[pick(26)]}${letters[pick(26)]}_${String(pick(1000)).padStart(3, '0')}`;

function textFile(bytes, extra) { // ASCII lines of words, `extra` lines spliced in
  const lines = [];
  let size = 0;
  while (size < bytes) {
    let line = '';
    const width = 30 + pick(60);
    while (line.length < width) line += (line ? ' ' : '') + vocab[pick(vocab.length)];
    lines.push(line);
    size += line.length + 1;
  }
  for (const e of extra) lines.splice(pick(lines.length + 1), 0, e);
  return lines.join('\n') + '\n';
}

function generate() {
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  const expected = { literal: 0, regex: 0 };
  const dirs = 40, subdirs = 25, perDir = Math.ceil(fileCount / (dirs * subdirs));
  let made = 0, bytes = 0;
  for (let d = 0; d < dirs && made < fileCount; d++) {
    for (let s = 0; s < subdirs && made < fileCount; s++) {
      const dir = join(tree, 'src', `d${String(d).padStart(2, '0')}`, `s${String(s).padStart(2, '0')}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < perDir && made < fileCount; f++, made++) {
        const extra = [];
        if (rand() < 300 / fileCount) { extra.push(`  call(${LITERAL}, ${pick(100)});`); expected.literal++; }
        if (rand() < 400 / fileCount) { extra.push(`let ${regexToken()} = ${vocab[pick(vocab.length)]};`); expected.regex++; }
        const text = textFile(1024 + pick(7 * 1024), extra);
        writeFileSync(join(dir, `f${String(f).padStart(3, '0')}.txt`), text);
        bytes += text.length;
      }
    }
  }
  const decoy = () => textFile(1024 + pick(3072), [`  call(${LITERAL});`, `let ${regexToken()} = 1;`]);
  writeFileSync(join(tree, '.gitignore'), '/build/\n*.log\n');
  mkdirSync(join(tree, 'build', 'obj'), { recursive: true });
  for (let i = 0; i < 2000; i++) writeFileSync(join(tree, 'build', i % 2 ? 'obj' : '', `out${i}.txt`), decoy());
  const generated = join(tree, 'src', 'd07', 'generated');
  mkdirSync(generated, { recursive: true });
  writeFileSync(join(tree, 'src', 'd07', '.gitignore'), 'generated/\n');
  for (let i = 0; i < 500; i++) writeFileSync(join(generated, `gen${i}.txt`), decoy());
  for (let i = 0; i < 200; i++) writeFileSync(join(tree, 'src', `d${String(i % dirs).padStart(2, '0')}`, `run${i}.log`), decoy());
  for (let i = 0; i < 40; i++) {
    const body = Buffer.from(`BIN\0\x01\x02 ${decoy()}`, 'latin1');
    writeFileSync(join(tree, 'src', `d${String(i % dirs).padStart(2, '0')}`, `blob-${i}.bin`), body);
  }
  mkdirSync(join(tree, '.git', 'objects', 'ab'), { recursive: true });
  mkdirSync(join(tree, '.git', 'refs', 'heads'), { recursive: true });
  writeFileSync(join(tree, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(tree, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = false\n');
  for (let i = 0; i < 200; i++) writeFileSync(join(tree, '.git', 'objects', 'ab', `obj${i}`), decoy());
  const info = { root: tree, textFiles: made, textBytes: bytes, ignoredFiles: 2700, binaryFiles: 40, gitFiles: 202, expected };
  writeFileSync(join(tree, '..', 'tree-v1.json'), JSON.stringify(info));
  writeFileSync(join(tree, '.complete'), ''); // hidden: neither tool searches it (hashline: no match)
  return info;
}

const infoFile = join(tree, '..', 'tree-v1.json');
let info;
if (existsSync(join(tree, '.complete')) && existsSync(infoFile)) {
  info = JSON.parse(readFileSync(infoFile, 'utf8'));
} else {
  mkdirSync(scratch, { recursive: true });
  const started = Date.now();
  process.stderr.write(`bench: generating the search tree (${fileCount} files) in ${tree}\n`);
  info = generate();
  process.stderr.write(`bench: tree generated in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

// ---- the tools ---------------------------------------------------------------------------------
// A snapshot of the binary: a relink of build/hashline during the run cannot change it midway.
const work = mkdtempSync(join(tmpdir(), 'hashline-bench-search-run-'));
const hashline = join(work, 'hashline');
copyFileSync(args.hashline, hashline);
spawnSync('chmod', ['+x', hashline]);
mkdirSync(join(work, 'state')); mkdirSync(join(work, 'run'), { mode: 0o700 });
const hashlineEnv = { ...process.env, HASHLINE_NO_SIDECAR: '1', HASHLINE_STATE_DIR: join(work, 'state'),
  HASHLINE_RUNTIME_DIR: join(work, 'run') };
delete hashlineEnv.HASHLINE_AGENT;
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

function runTool(tool, pattern, literal) {
  const [command, argv, env, cwd] = tool === 'rg'
    ? [rgBin, ['-n', ...(literal ? ['-F'] : []), '-e', pattern, tree], process.env, tree]
    : [hashline, ['search', ...(literal ? ['--literal'] : []), '--workspace', tree, '--max-hits', '100000',
        '--max-bytes', String(64 << 20), '-e', pattern], hashlineEnv, tree];
  const timeFile = join(work, 'time.txt');
  rmSync(timeFile, { force: true });
  const options = { cwd, env, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] };
  const started = process.hrtime.bigint();
  const result = timeBin ? spawnSync(timeBin, ['-f', '%U %S', '-o', timeFile, command, ...argv], options)
    : spawnSync(command, argv, options);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  let cpuMs = null;
  if (timeBin && existsSync(timeFile)) {
    const [u, s] = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
    if (Number.isFinite(u) && Number.isFinite(s)) cpuMs = (u + s) * 1000;
  }
  return { ms, cpuMs, status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

// rg: `ROOT/path:line:text`; hashline: `# path  version V  tier T  (disk)` headers, `N:anchor→text` rows.
function hitsOf(tool, out) {
  const hits = new Set();
  if (tool === 'rg') {
    const prefix = tree + '/';
    for (const line of out.split('\n')) {
      const m = /^([^:]+):(\d+):/.exec(line);
      if (m) hits.add(`${m[1].startsWith(prefix) ? m[1].slice(prefix.length) : m[1]}:${m[2]}`);
    }
    return hits;
  }
  let file = null;
  for (const line of out.split('\n')) {
    const header = /^# (.+?)  version \d+/.exec(line);
    if (header) { file = header[1]; continue; }
    const row = /^(\d+):[^→\s]*→/.exec(line);
    if (row && file) hits.add(`${file}:${row[1]}`);
  }
  return hits;
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? { medianMs: s[Math.floor(s.length / 2)], minMs: s[0], runsMs: xs } : null;
};

const patterns = [
  { pattern: LITERAL, literal: true, expectedHits: info.expected.literal },
  { pattern: REGEX, literal: false, expectedHits: info.expected.regex },
  { pattern: NOWHERE, literal: true, expectedHits: 0 },
  { pattern: NOWHERE_REGEX, literal: false, expectedHits: 0 },
];
let failed = false;
const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
for (const p of patterns) {
  process.stderr.write(`bench: search ${p.literal ? 'literal' : 'regex'} ${p.pattern}: warm-up + ${runs} runs each\n`);
  const times = { rg: [], hashline: [] }, cpus = { rg: [], hashline: [] };
  let reference = null, problem = null;
  const check = (tool, r, timed) => {
    const okStatus = tool === 'rg' ? (p.expectedHits ? r.status === 0 : r.status === 1) : r.status === 0;
    if (!okStatus) { problem ??= `${tool} exited ${r.status}: ${r.stderr.slice(0, 300)}`; return; }
    const hits = hitsOf(tool, r.stdout);
    if (!reference) reference = hits;
    if (hits.size !== p.expectedHits) problem ??= `${tool} found ${hits.size} hits, the tree has ${p.expectedHits}`;
    else if ([...hits].some((h) => !reference.has(h)) || hits.size !== reference.size)
      problem ??= `${tool} hits differ: ${[...hits].filter((h) => !reference.has(h)).slice(0, 3).join(', ')}`;
    if (timed) { times[tool].push(r.ms); if (r.cpuMs != null) cpus[tool].push(r.cpuMs); }
  };
  check('rg', runTool('rg', p.pattern, p.literal), false);
  check('hashline', runTool('hashline', p.pattern, p.literal), false);
  for (let i = 0; i < runs; i++) {
    for (const tool of ['rg', 'hashline']) check(tool, runTool(tool, p.pattern, p.literal), true);
  }
  const rg = { ...stats(times.rg), cpuMedianMs: stats(cpus.rg)?.medianMs ?? null };
  const hl = { ...stats(times.hashline), cpuMedianMs: stats(cpus.hashline)?.medianMs ?? null };
  if (problem) failed = true;
  console.log(JSON.stringify({ pattern: p.pattern, literal: p.literal, expectedHits: p.expectedHits,
    hits: reference ? reference.size : null, runs, rg, hashline: hl,
    ratio: rg.medianMs && hl.medianMs ? hl.medianMs / rg.medianMs : null, verified: !problem, problem }));
}
console.log(JSON.stringify({ tree: info, rgVersion: spawnSync(rgBin, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0],
  cores: (await import('node:os')).cpus().length, loadBefore, loadavg: readFileSync('/proc/loadavg', 'utf8').trim() }));
rmSync(work, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
