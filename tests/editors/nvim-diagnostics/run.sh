#!/usr/bin/env bash
# The editor's diagnostics in agents' edit results (issue 21): headless Neovim ($HASHLINE_NVIM,
# default nvim; see tests/editors/neovim/nvim-env.sh) with the plugin (setup{}) and a real
# language server, clangd (Debian's `clangd`), attached to a C++ file with unsaved typing. An
# agent edit through the `hashline` CLI that breaks a call gets clangd's error back in the same
# result, anchored on the right line; the edit that fixes it reports it removed; `hashline
# diagnostics` lists it; a file no server reports on answers at once with none available; bad
# input gets its error code. Any deprecation fails. Needs clangd (scripts/deps.sh test).
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-diagnostics/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export HASHLINE_BIN="${HASHLINE_BIN:-$root/build/hashline}"
[ -x "$HASHLINE_BIN" ] || { echo "nvim-diagnostics: no hashline binary at $HASHLINE_BIN" >&2; exit 2; }
command -v clangd >/dev/null || { echo "nvim-diagnostics: clangd not installed (scripts/deps.sh test installs it)" >&2; exit 2; }
source "$root/tests/editors/neovim/nvim-env.sh"
export WORK="$(mktemp -d /tmp/hashline-nvim-diagnostics.XXXXXX)"
nvim_guard_init nvim-diagnostics "$WORK" || exit 2
export RESULTS="$WORK/results.txt"
export HASHLINE_STATE_DIR="$WORK/state" HASHLINE_RUNTIME_DIR="$WORK/run"
mkdir -p "$HASHLINE_STATE_DIR" "$HASHLINE_RUNTIME_DIR"
rc=0
timeout 180 "$nvim_bin" "${nvim_guard[@]}" --headless --clean -n -i NONE --cmd "set rtp^=$root/editors/nvim" \
  -c "luafile $here/diagnostics_test.lua" >"$WORK/nvim.out" 2>&1 || rc=$?
[ -f "$RESULTS" ] && cat "$RESULTS"
passed=$(grep -c '^PASS' "$RESULTS" 2>/dev/null || true)
failed=$(grep -c '^FAIL' "$RESULTS" 2>/dev/null || true)
echo "nvim-diagnostics: ${passed:-0} passed, ${failed:-0} failed (Neovim $nvim_version)"
clean=0
nvim_guard_check "$WORK/nvim.out" || clean=1
if [ "$rc" -ne 0 ] || [ "${failed:-0}" -ne 0 ] || [ "${passed:-0}" -lt 8 ] || [ "$clean" -ne 0 ]; then
  echo "nvim-diagnostics: FAILED (nvim exit $rc; logs in $WORK)" >&2
  cat "$WORK/nvim.out" >&2 || true
  exit 1
fi
rm -rf "$WORK"
