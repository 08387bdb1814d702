#!/usr/bin/env bash
# The CLI against a real editor: headless Neovim 0.7.2 runs `hashline lsp` (plain
# vim.lsp.start_client), holds a buffer with unsaved text, and `hashline read/edit` — separate
# processes that find the sidecar through its discovery file — read that buffer and edit it: the
# edit lands in the buffer, the disk stays untouched, a stale anchor is refused.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-cli/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export HASHLINE_BIN="${HASHLINE_BIN:-$root/build/hashline}"
[ -x "$HASHLINE_BIN" ] || { echo "nvim-cli: no hashline binary at $HASHLINE_BIN" >&2; exit 2; }
command -v nvim >/dev/null || { echo "nvim-cli: nvim not installed (apt-get install -y neovim)" >&2; exit 2; }
export WORK="$(mktemp -d /tmp/hashline-nvim-cli.XXXXXX)"
export RESULTS="$WORK/results.txt"
export HASHLINE_STATE_DIR="$WORK/state" HASHLINE_RUNTIME_DIR="$WORK/run"
mkdir -p "$HASHLINE_STATE_DIR" "$HASHLINE_RUNTIME_DIR"
rc=0
timeout 120 nvim --headless --clean -n -i NONE -c "luafile $here/cli_test.lua" >"$WORK/nvim.out" 2>&1 || rc=$?
[ -f "$RESULTS" ] && cat "$RESULTS"
passed=$(grep -c '^PASS' "$RESULTS" 2>/dev/null || true)
failed=$(grep -c '^FAIL' "$RESULTS" 2>/dev/null || true)
echo "nvim-cli: ${passed:-0} passed, ${failed:-0} failed"
if [ "$rc" -ne 0 ] || [ "${failed:-0}" -ne 0 ] || [ "${passed:-0}" -lt 5 ]; then
  echo "nvim-cli: FAILED (nvim exit $rc; logs in $WORK)" >&2
  cat "$WORK/nvim.out" >&2 || true
  exit 1
fi
rm -rf "$WORK"
