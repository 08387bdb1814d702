#!/usr/bin/env bash
# Reconciliation benchmark (issue 13), called by `scripts/bench --sections reconcile`: headless
# Neovim 0.7.2 with editors/nvim and `hashline lsp` (reconcile_nvim.lua). Latency: a file of each
# size open with unsaved typing at the top; WRITES times a writer puts a new version with one
# changed line near the bottom on disk, each GAP ms after the previous one was confirmed (400: an
# agent's separate edits; 30: back-to-back writes). Writers: `rename` (temp file + rename, as most
# agents; the clock starts when rename returns) and `inplace` (truncate + write + close, as Gemini
# CLI; the clock starts at close). Times to the sidecar's applyEdit reaching Neovim, to Neovim's
# buffer holding the merged line, and to the `hashline/reconciled` notification (edit
# confirmed). Idle: the sidecar's CPU over IDLE_S seconds with FILES files open (reconcile merge,
# and off as the reference). Prints markdown tables; raw JSON lines go to $out/reconcile.jsonl.
# Usage: tests/bench/reconcile/run.sh [--ns 1000,100000] [--gaps 400,30] [--writers rename]
#        [--writes 100] [--files 200] [--idle-s 30] [--no-idle-off] [--out DIR]
# Env: HASHLINE_BIN (default build/hashline). Exit: 0 ok, 1 a run failed or was not verified.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin="${HASHLINE_BIN:-$root/build/hashline}"
case "$bin" in /*) ;; *) bin="$root/$bin" ;; esac
ns="1000,100000"; gaps="400,30"; writers="rename"; writes=100; files=200; idle_s=30; idle_off=1; out="$root/bench-results"
while [ $# -gt 0 ]; do
  case "$1" in
    --ns) ns="$2"; shift 2 ;;
    --writes) writes="$2"; shift 2 ;;
    --gaps) gaps="$2"; shift 2 ;;
    --writers) writers="$2"; shift 2 ;;
    --files) files="$2"; shift 2 ;;
    --idle-s) idle_s="$2"; shift 2 ;;
    --no-idle-off) idle_off=0; shift ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "reconcile bench: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "reconcile bench: no hashline binary at $bin (set HASHLINE_BIN)" >&2; exit 2; }
command -v nvim >/dev/null || { echo "(nvim not installed: apt-get install -y neovim)"; exit 0; }
mkdir -p "$out"
jsonl="$out/reconcile.jsonl"
: > "$jsonl"
work="$(mktemp -d /tmp/hashline-bench-reconcile.XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/run" "$work/state" && chmod 700 "$work/run"
export HASHLINE_RUNTIME_DIR="$work/run" HASHLINE_STATE_DIR="$work/state"
export XDG_RUNTIME_DIR="$work/run" XDG_STATE_HOME="$work/state"
unset HASHLINE_AGENT HASHLINE_RECONCILE

editor() { # KEY=VALUE... : one headless Neovim run of reconcile_nvim.lua
  local before; before=$(wc -l < "$jsonl")
  env "$@" HASHLINE_BIN="$bin" BENCH_WORK="$work" BENCH_OUT="$jsonl" \
    timeout 900 nvim --headless --clean -n -i NONE --cmd "set rtp^=$root/editors/nvim" \
      -c "luafile $here/reconcile_nvim.lua" > "$work/nvim.out" 2>&1
  local rc=$?
  if [ "$(wc -l < "$jsonl")" -eq "$before" ]; then
    echo "{\"mode\":\"$1\",\"error\":\"nvim exited $rc without a result: $(tail -c 300 "$work/nvim.out" | tr -d '"\\\n')\"}" >> "$jsonl"
  fi
}

load0="$(cut -d" " -f1-3 /proc/loadavg)"
IFS=, read -ra sizes <<< "$ns"
IFS=, read -ra gap_list <<< "$gaps"
IFS=, read -ra writer_list <<< "$writers"
for n in "${sizes[@]}"; do
  for writer in "${writer_list[@]}"; do
    for gap in "${gap_list[@]}"; do
      echo "bench: reconcile latency, $n lines, $writes writes ($writer), $gap ms apart" >&2
      editor BENCH_MODE=latency BENCH_LINES="$n" BENCH_WRITES="$writes" BENCH_GAP_MS="$gap" BENCH_WRITER="$writer"
    done
  done
done
modes=(merge); [ "$idle_off" = 1 ] && modes+=(off)
for m in "${modes[@]}"; do
  echo "bench: reconcile idle CPU, $files files, reconcile $m, $idle_s s" >&2
  editor BENCH_MODE=idle BENCH_RECONCILE="$m" BENCH_FILES="$files" BENCH_IDLE_S="$idle_s"
done

echo "(load average before the runs: $load0; after: $(cut -d" " -f1-3 /proc/loadavg))"
node - "$jsonl" <<'JS'
const rows = require('fs').readFileSync(process.argv[2], 'utf8').trim().split('\n').filter(Boolean).map(JSON.parse);
const q = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] : NaN; };
const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const fail = rows.filter((r) => r.error || !r.verified);
const lat = rows.filter((r) => r.mode === 'latency' && !r.error);
console.log('| lines | file MB | writer | gap ms | writes | write → applyEdit in Neovim median / p99 ms | write → buffer median / p99 / max ms | write → confirmed (hashline/reconciled) median / p99 / max ms | sidecar CPU ms per write | writing the text ms (median) | buffer = typing + disk |');
console.log('|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|:-:|');
for (const r of lat) {
  console.log(`| ${r.lines.toLocaleString('en-US')} | ${(r.bytes / 1e6).toFixed(2)} | ${r.writer} | ${r.gapMs} | ${r.writes} | ${f(q(r.requestMs, 0.5))} / ${f(q(r.requestMs, 0.99))} | ${f(q(r.bufferMs, 0.5))} / ${f(q(r.bufferMs, 0.99))} / ${f(Math.max(...r.bufferMs))} | ${f(q(r.confirmedMs, 0.5))} / ${f(q(r.confirmedMs, 0.99))} / ${f(Math.max(...r.confirmedMs))} | ${f(r.sidecarCpuMsPerWrite)} | ${f(q(r.writeMs, 0.5), 2)} | ${r.verified ? 'yes' : 'NO'} |`);
}
const idle = rows.filter((r) => r.mode === 'idle' && !r.error);
if (idle.length) {
  console.log('');
  console.log('| idle: reconcile | open files (dirs) | seconds | sidecar CPU s (/proc stat ticks) | % of a core | CPU s (schedstat, ns) | % of a core |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of idle) console.log(`| ${r.reconcile} | ${r.attached} (${r.dirs}) | ${f(r.seconds)} | ${f(r.cpuSeconds, 2)} | ${f(r.cpuPercent, 3)} | ${f(r.schedCpuSeconds, 4)} | ${f(r.schedCpuPercent, 4)} |`);
}
console.log('');
const quarter = (xs, last) => { const k = Math.max(1, Math.floor(xs.length / 4)); return q(last ? xs.slice(-k) : xs.slice(0, k), 0.5); };
for (const r of lat) console.log(`${r.lines.toLocaleString('en-US')} lines, ${r.writer} writes ${r.gapMs} ms apart: confirmed median ${f(q(r.confirmedMs, 0.5))} ms (target ≤ 30), p99 ${f(q(r.confirmedMs, 0.99))} ms (target ≤ 100); median of the first / last quarter of the writes ${f(quarter(r.confirmedMs, false))} / ${f(quarter(r.confirmedMs, true))} ms`);
for (const r of idle.filter((r) => r.reconcile === 'merge')) console.log(`idle sidecar with ${r.attached} open files watched: ${f(r.schedCpuPercent, 4)}% of a core (target ≤ 0.1%)`);
for (const r of fail) console.log(`FAILED ${r.mode} ${r.lines ?? r.reconcile ?? ''}: ${r.error ?? (r.failures || []).join('; ') ?? 'not verified'}`);
process.exit(fail.length ? 1 : 0);
JS
