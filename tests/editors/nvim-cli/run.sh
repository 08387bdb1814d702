#!/usr/bin/env bash
# The CLI against a real editor: headless Neovim ($HASHLINE_NVIM, default nvim; see
# tests/editors/neovim/nvim-env.sh) runs `hashline lsp` (a plain LSP client), holds a buffer with
# unsaved text, and `hashline read/edit` — separate processes that find the sidecar through its
# discovery file — read that buffer and edit it: the edit lands in the buffer, the disk stays
# untouched, a stale anchor is refused. Fails on any deprecation message.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-cli/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export HASHLINE_BIN="${HASHLINE_BIN:-$root/build/hashline}"
[ -x "$HASHLINE_BIN" ] || { echo "nvim-cli: no hashline binary at $HASHLINE_BIN" >&2; exit 2; }
source "$root/tests/editors/neovim/nvim-env.sh"
export WORK="$(mktemp -d /tmp/hashline-nvim-cli.XXXXXX)"
nvim_guard_init nvim-cli "$WORK" || exit 2
export RESULTS="$WORK/results.txt"
export HASHLINE_STATE_DIR="$WORK/state" HASHLINE_RUNTIME_DIR="$WORK/run"
mkdir -p "$HASHLINE_STATE_DIR" "$HASHLINE_RUNTIME_DIR"
rc=0
timeout 120 "$nvim_bin" "${nvim_guard[@]}" --headless --clean -n -i NONE -c "luafile $here/cli_test.lua" >"$WORK/nvim.out" 2>&1 || rc=$?
[ -f "$RESULTS" ] && cat "$RESULTS"
passed=$(grep -c '^PASS' "$RESULTS" 2>/dev/null || true)
failed=$(grep -c '^FAIL' "$RESULTS" 2>/dev/null || true)
echo "nvim-cli: ${passed:-0} passed, ${failed:-0} failed (Neovim $nvim_version)"
clean=0
nvim_guard_check "$WORK/nvim.out" || clean=1
if [ "$rc" -ne 0 ] || [ "${failed:-0}" -ne 0 ] || [ "${passed:-0}" -lt 5 ] || [ "$clean" -ne 0 ]; then
  echo "nvim-cli: FAILED (nvim exit $rc; logs in $WORK)" >&2
  cat "$WORK/nvim.out" >&2 || true
  exit 1
fi
rm -rf "$WORK"
