#!/usr/bin/env bash
# Every edit form landing in open, unsaved Neovim buffers (issue 5): the 25 codex apply_patch
# scenarios through a running sidecar (codex_test.lua), and each form racing a user who types
# while the CLI edits (race_test.lua). Each *_test.lua runs in its own headless Neovim
# ($HASHLINE_NVIM, default nvim; see tests/editors/neovim/nvim-env.sh) with the plugin
# (editors/nvim) on 'runtimepath' and writes PASS / FAIL / NOTE lines; any deprecation fails.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-edits/run.sh [codex] [race]
# Env: KEEP=1 keeps the work dir; SIDECAR_LOG=1 gives each sidecar a debug log there;
# RACE_ROUNDS (default 20), RACE_DEBOUNCES (default 0,40).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin="${HASHLINE_BIN:-$root/build/hashline}"
case "$bin" in /*) ;; *) bin="$root/$bin" ;; esac
[ -x "$bin" ] || { echo "nvim-edits: no hashline binary at $bin (set HASHLINE_BIN)" >&2; exit 2; }
source "$root/tests/editors/neovim/nvim-env.sh"
work="$(mktemp -d /tmp/hashline-nvim-edits.XXXXXX)"
trap '[ "${KEEP:-0}" = 1 ] || rm -rf "$work"' EXIT
nvim_guard_init nvim-edits "$work" || exit 2
results="$work/results.txt"
: > "$results"
# Private discovery/state dirs: the CLI finds only this run's sidecars.
mkdir -p "$work/run" "$work/state" && chmod 700 "$work/run"
export HASHLINE_RUNTIME_DIR="$work/run" HASHLINE_STATE_DIR="$work/state"
export XDG_RUNTIME_DIR="$work/run" XDG_STATE_HOME="$work/state"
unset HASHLINE_NO_SIDECAR HASHLINE_WORKSPACE HASHLINE_SESSION

suites=("${@:-codex race}")
start=$(date +%s)
for suite in ${suites[*]}; do
  file="$here/${suite}_test.lua"
  [ -f "$file" ] || { echo "nvim-edits: no suite $file" >&2; exit 2; }
  before=$(wc -l < "$results")
  rc=0
  WORK="$work/$suite" REPO_ROOT="$root" HASHLINE_BIN="$bin" RESULTS="$results" \
    timeout 900 "$nvim_bin" "${nvim_guard[@]}" --headless --clean -n -i NONE --cmd "set rtp^=$root/editors/nvim" \
      -c "luafile $file" > "$work/$suite.out" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ] || [ "$(wc -l < "$results")" -eq "$before" ]; then
    echo "FAIL $suite: nvim exited $rc: $(tail -c 800 "$work/$suite.out" | tr '\n' ' ')" >> "$results"
  fi
done
nvim_guard_check "$work"/*.out >> "$results" || true
cat "$results"
codex_passed=$(grep -c '^PASS codex [0-9]' "$results" || true)
codex_total=$(grep -c '^\(PASS\|FAIL\) codex [0-9]' "$results" || true)
[ "$codex_total" -gt 0 ] && echo "nvim-edits: codex scenarios in open buffers: $codex_passed/$codex_total passed"
passed=$(grep -c '^PASS' "$results" || true)
failed=$(grep -c '^FAIL' "$results" || true)
echo "nvim-edits: ${passed} passed, ${failed} failed ($(( $(date +%s) - start )) s, Neovim $nvim_version)"
if [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  KEEP=1
  echo "nvim-edits: FAILED (work dir kept: $work)" >&2
  exit 1
fi
