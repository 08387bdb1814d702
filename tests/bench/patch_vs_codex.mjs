// `hashline patch` vs codex's standalone `apply_patch` on large files: the same patch (K
// one-line changes with 3 lines of context each, spread evenly over an N-line file) applied to a
// fresh copy of the file by each tool, as a process run (what an agent pays per call). Each run is
// verified against the expected text. Median of R runs, wall time and — through /usr/bin/time,
// when installed — CPU time (user + system) and peak RSS, since on a loaded machine only CPU time
// compares the tools fairly. hashline's session reads the file first (untimed; it refuses edits
// to unread files). hashline's write is atomic and fsynced (temp file, fsync, rename, directory
// fsync); codex writes in place without fsync. A third row, `floor`, is the I/O any tool pays:
// tests/bench/io_floor.c (compiled here with cc) reads the same file, writes it back and fsyncs.
// Used by scripts/bench.
//
// `--fsync-delay-ms N` preloads tests/bench/slow_fsync.c into hashline and the floor, so each
// fsync takes N ms longer: a slow-flush disk simulated on any machine.
//
// Usage: node patch_vs_codex.mjs --hashline BIN --apply-patch BIN
//        [--cases 10000:50,100000:50,200000:500,1000000:50] [--runs 3] [--fsync-delay-ms N]
//        (or the older --ns 10000,100000 --hunks 50: each N with the same hunk count)
// Prints one JSON object per (tool, N, K) line: {tool, lines, bytes, hunks, medianMs, runsMs,
// cpuMedianMs, cpuRunsMs, maxRssKiB, verified}.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []));
const cases = args.cases
  ? args.cases.split(',').map((c) => c.split(':').map(Number))
  : (args.ns ?? '10000,100000,1000000').split(',').map((n) => [Number(n), Number(args.hunks ?? 50)]);
const runs = Number(args.runs ?? 3);

// The floor program, compiled once into a scratch directory.
const floorDir = mkdtempSync(join(tmpdir(), 'hashline-io-floor-'));
const floorBin = join(floorDir, 'io_floor');
const here = dirname(fileURLToPath(import.meta.url));
const compiled = spawnSync('cc', ['-O2', '-o', floorBin, join(here, 'io_floor.c')], { stdio: 'inherit' });
const tools = compiled.status === 0 ? ['hashline', 'codex', 'floor'] : ['hashline', 'codex'];
const fsyncDelayMs = Number(args['fsync-delay-ms'] ?? 0);
let slowEnv = {};
if (fsyncDelayMs > 0) {
  const shim = join(floorDir, 'slow_fsync.so');
  const built = spawnSync('cc', ['-O2', '-shared', '-fPIC', '-o', shim, join(here, 'slow_fsync.c'), '-ldl'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('cannot build slow_fsync.so');
  slowEnv = { LD_PRELOAD: shim, HASHLINE_FSYNC_DELAY_MS: String(fsyncDelayMs) };
}

function workload(n, hunks) {
  const lines = [];
  for (let i = 0; i < n; i += 1) lines.push(`    value_${i} = compute(${i % 97}, "row ${i}"); // line ${i + 1}`);
  const expected = lines.slice();
  let patch = '*** Begin Patch\n*** Update File: big.txt\n';
  for (let h = 0; h < hunks; h += 1) {
    const at = Math.floor(((h + 0.5) * n) / hunks);
    patch += '@@\n';
    for (let c = at - 3; c < at; c += 1) patch += ` ${lines[c]}\n`;
    patch += `-${lines[at]}\n+${lines[at].replace('compute', 'recompute')}\n`;
    for (let c = at + 1; c <= at + 3 && c < n; c += 1) patch += ` ${lines[c]}\n`;
    expected[at] = lines[at].replace('compute', 'recompute');
  }
  patch += '*** End Patch\n';
  return { text: lines.join('\n') + '\n', expected: expected.join('\n') + '\n', patch };
}

const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

// Runs one tool; with /usr/bin/time, its CPU time and peak RSS go to `timeFile`.
function runTool(tool, dir, patchFile, patch, timeFile) {
  const options = { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28, input: tool === 'codex' ? patch : '' };
  // codex reads the patch from stdin (an argv argument is capped at 128 KiB: 500 hunks exceed it).
  const [command, argv, env] = tool === 'codex' ? [args['apply-patch'], [], process.env]
    : tool === 'floor' ? [floorBin, ['big.txt'], { ...process.env, ...slowEnv }]
    : [args.hashline, ['patch', patchFile, '--workspace', dir, '--session', 'bench'], { ...process.env, ...slowEnv, HASHLINE_NO_SIDECAR: '1' }];
  if (!timeBin) return spawnSync(command, argv, { ...options, env });
  return spawnSync(timeBin, ['-f', '%U %S %M', '-o', timeFile, command, ...argv], { ...options, env });
}

function cpuOf(timeFile) { // "user system maxrss" → [cpu ms, KiB]
  if (!timeBin || !existsSync(timeFile)) return [null, null];
  const fields = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return [(fields[0] + fields[1]) * 1000, fields[2]];
}

for (const [n, hunks] of cases) {
  const { text, expected, patch } = workload(n, hunks);
  for (const tool of tools) {
    const times = [], cpus = [];
    let maxRss = 0;
    let verified = true;
    let problem = '';
    for (let r = 0; r < runs; r += 1) {
      const dir = mkdtempSync(join(tmpdir(), 'hashline-patch-bench-'));
      writeFileSync(join(dir, 'big.txt'), text);
      const patchFile = join(dir, '..', `${dir.split('/').pop()}.patch`);
      writeFileSync(patchFile, patch);
      if (tool === 'hashline') {
        // hashline refuses edits to a file the session never read (NOT_OBSERVED): the agent's
        // read comes first, untimed, as it would in a real session.
        spawnSync(args.hashline, ['read', 'big.txt', '--workspace', dir, '--session', 'bench'],
          { cwd: dir, stdio: 'ignore', env: { ...process.env, HASHLINE_NO_SIDECAR: '1' } });
      }
      const timeFile = `${patchFile}.time`;
      const start = process.hrtime.bigint();
      const result = runTool(tool, dir, patchFile, patch, timeFile);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const [cpu, rss] = cpuOf(timeFile);
      if (cpu != null) cpus.push(cpu);
      maxRss = Math.max(maxRss, rss ?? 0);
      rmSync(timeFile, { force: true });
      const out = readFileSync(join(dir, 'big.txt'), 'utf8');
      if (result.status !== 0 || out !== (tool === 'floor' ? text : expected)) {
        verified = false;
        problem = `exit ${result.status}: ${(result.stderr || result.stdout || '').slice(0, 300)}`;
      }
      times.push(ms);
      rmSync(dir, { recursive: true, force: true });
      rmSync(patchFile, { force: true });
    }
    times.sort((a, b) => a - b);
    cpus.sort((a, b) => a - b);
    console.log(JSON.stringify({ tool, lines: n, bytes: Buffer.byteLength(text), hunks,
      medianMs: times[Math.floor(times.length / 2)], runsMs: times,
      cpuMedianMs: cpus.length ? cpus[Math.floor(cpus.length / 2)] : null, cpuRunsMs: cpus,
      maxRssKiB: maxRss || null, fsyncDelayMs, verified, problem }));
  }
}
rmSync(floorDir, { recursive: true, force: true });
