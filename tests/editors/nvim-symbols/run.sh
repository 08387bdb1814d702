#!/usr/bin/env bash
# Symbols through the editor's language server (issue 21): headless Neovim ($HASHLINE_NVIM,
# default nvim; see tests/editors/neovim/nvim-env.sh) with the plugin (setup{}) and clangd
# (Debian's `clangd`) attached to a C++ file with unsaved typing. `hashline outline` lists every
# function of the file with its lines, `hashline read --symbol` returns exactly a symbol's lines
# of the live buffer (and an edit follows that read), and the errors: an unknown symbol, a file no
# language server is attached to, a file not open in Neovim. Any deprecation fails.
# Needs clangd (scripts/deps.sh test).
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-symbols/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export HASHLINE_BIN="${HASHLINE_BIN:-$root/build/hashline}"
[ -x "$HASHLINE_BIN" ] || { echo "nvim-symbols: no hashline binary at $HASHLINE_BIN" >&2; exit 2; }
command -v clangd >/dev/null || { echo "nvim-symbols: clangd not installed (scripts/deps.sh test installs it)" >&2; exit 2; }
source "$root/tests/editors/neovim/nvim-env.sh"
export WORK="$(mktemp -d /tmp/hashline-nvim-symbols.XXXXXX)"
nvim_guard_init nvim-symbols "$WORK" || exit 2
export RESULTS="$WORK/results.txt"
export HASHLINE_STATE_DIR="$WORK/state" HASHLINE_RUNTIME_DIR="$WORK/run"
mkdir -p "$HASHLINE_STATE_DIR" "$HASHLINE_RUNTIME_DIR"
rc=0
timeout 180 "$nvim_bin" "${nvim_guard[@]}" --headless --clean -n -i NONE --cmd "set rtp^=$root/editors/nvim" \
  -c "luafile $here/symbols_test.lua" >"$WORK/nvim.out" 2>&1 || rc=$?
[ -f "$RESULTS" ] && cat "$RESULTS"
passed=$(grep -c '^PASS' "$RESULTS" 2>/dev/null || true)
failed=$(grep -c '^FAIL' "$RESULTS" 2>/dev/null || true)
echo "nvim-symbols: ${passed:-0} passed, ${failed:-0} failed (Neovim $nvim_version)"
clean=0
nvim_guard_check "$WORK/nvim.out" || clean=1
if [ "$rc" -ne 0 ] || [ "${failed:-0}" -ne 0 ] || [ "${passed:-0}" -lt 7 ] || [ "$clean" -ne 0 ]; then
  echo "nvim-symbols: FAILED (nvim exit $rc; logs in $WORK)" >&2
  cat "$WORK/nvim.out" >&2 || true
  exit 1
fi
rm -rf "$WORK"
