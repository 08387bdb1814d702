#!/usr/bin/env bash
# Diagnostics-wait benchmark (issue 21), called by `scripts/bench --sections diagnostics`:
# headless Neovim with editors/nvim and clangd attached to a C++ file (diagnostics_nvim.lua);
# EDITS `hashline replace` CLI edits per mode (--no-diagnostics, the default wait, and
# --diagnostics-wait 2000), interleaved, each timed in Neovim's Lua from jobstart to exit. Prints
# a markdown table (median, p99, min, max wall ms per edit; added = mode − off); the raw JSON goes
# to $out/diagnostics.json. Takes about EDITS × 3 × 0.3 s plus ~5 s of setup (30 edits: ~35 s).
# Usage: tests/bench/diagnostics/run.sh [--edits 30] [--style unique|toggle] [--modes off,default,wait2000]
#        [--out DIR]   (toggle: the line flips between two forms, so texts repeat; see the .lua)
# Env: HASHLINE_BIN (default build/hashline), HASHLINE_NVIM (default nvim).
# Exit: 0 ok (or nvim / clangd not installed: said so), 1 the run failed or was not verified,
#       2 bad arguments or no binary.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin="${HASHLINE_BIN:-$root/build/hashline}"
case "$bin" in /*) ;; *) bin="$root/$bin" ;; esac
edits=30; out="$root/bench-results"
while [ $# -gt 0 ]; do
  case "$1" in
    --edits) edits="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --style) export BENCH_STYLE="$2"; shift 2 ;;
    --modes) export BENCH_MODES="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "diagnostics bench: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "diagnostics bench: no hashline binary at $bin (set HASHLINE_BIN)" >&2; exit 2; }
nvim_bin="${HASHLINE_NVIM:-nvim}"
command -v "$nvim_bin" >/dev/null || { echo "(nvim not installed: apt-get install -y neovim)"; exit 0; }
command -v clangd >/dev/null || { echo "(clangd not installed: scripts/deps.sh test installs it)"; exit 0; }
unset VIMRUNTIME VIM HASHLINE_AGENT
mkdir -p "$out"
json="$out/diagnostics.json"
rm -f "$json"
work="$(mktemp -d /tmp/hashline-bench-diagnostics.XXXXXX)"
[ -n "${BENCH_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/run" "$work/state" && chmod 700 "$work/run"
# A snapshot of the binary: a relink of build/hashline during the run cannot change it midway.
cp "$bin" "$work/hashline"
export HASHLINE_RUNTIME_DIR="$work/run" HASHLINE_STATE_DIR="$work/state"
export XDG_RUNTIME_DIR="$work/run" XDG_STATE_HOME="$work/state"
load0="$(cut -d" " -f1-3 /proc/loadavg)"
echo "bench: diagnostics wait, $edits edits per mode ($("$nvim_bin" --version | head -1), $(clangd --version | head -1))" >&2
HASHLINE_BIN="$work/hashline" BENCH_WORK="$work" BENCH_OUT="$json" BENCH_EDITS="$edits" \
  timeout 900 "$nvim_bin" --headless --clean -n -i NONE --cmd "set rtp^=$root/editors/nvim" \
    -c "luafile $here/diagnostics_nvim.lua" > "$work/nvim.out" 2>&1
rc=$?
if [ ! -s "$json" ]; then
  echo "diagnostics bench: nvim exited $rc without a result:" >&2
  tail -c 2000 "$work/nvim.out" >&2
  exit 1
fi
echo "(load average before: $load0; after: $(cut -d" " -f1-3 /proc/loadavg); $(nproc) cores)"
node - "$json" <<'JS'
const r = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));
if (r.error) { console.log(`diagnostics bench FAILED: ${r.error}`); process.exit(1); }
const f = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const off = r.modes.off ?? null;
console.log(`| mode | CLI flags | edits | median ms | p99 ms | min ms | max ms | added median ms | added p99 ms | settled / wait ran out | clangd's set in Neovim, median ms |`);
console.log(`|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|`);
for (const name of ['off', 'default', 'wait2000'].filter((n) => r.modes[n])) {
  const m = r.modes[name];
  const added = name === 'off' || !off ? ['–', '–'] : [f(m.medianMs - off.medianMs), f(m.p99Ms - off.p99Ms)];
  console.log(`| ${name} | ${m.flags || '(none: default 500 ms wait)'} | ${m.runsMs.length} | ${f(m.medianMs)} | ${f(m.p99Ms)} | ${f(m.minMs)} | ${f(m.maxMs)} | ${added[0]} | ${added[1]} | ${name === 'off' ? 'not asked' : `${m.settled} / ${m.timedOut}${m.unavailable ? ` (${m.unavailable} unavailable)` : ''}`} | ${f(m.publishMedianMs)} |`);
}
console.log(`\nNeovim ${r.nvim}; ${r.style === 'toggle' ? 'edits toggle one line between two forms (texts repeat), back to back; ' : 'each edit writes a new text and starts once clangd published for the previous one; '}${r.gapMs ? `${r.gapMs} ms idle before each edit; ` : ''}p99 of ${r.edits} edits is their maximum. buffer equals the model: ${r.bufferEqualsModel ? 'yes' : 'NO'}; disk untouched: ${r.diskUntouched ? 'yes' : 'NO'}; verified: ${r.verified ? 'yes' : 'NO'}`);
process.exit(r.verified ? 0 : 1);
JS
