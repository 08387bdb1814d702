#!/usr/bin/env bash
# The user's selection and visible windows for agents (issue 21): headless Neovim ($HASHLINE_NVIM,
# default nvim; see tests/editors/neovim/nvim-env.sh) with the plugin (setup{}); the user moves,
# selects linewise and characterwise (a multi-byte character), clicks elsewhere and splits a
# window, and `hashline context` (a separate process) reports each: the selection's text, its
# anchored rows (an edit follows them without a read), the latest selection, the visible windows.
# A second run with share_selection = false: the sidecar has nothing. Any deprecation fails.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-context/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export HASHLINE_BIN="${HASHLINE_BIN:-$root/build/hashline}"
[ -x "$HASHLINE_BIN" ] || { echo "nvim-context: no hashline binary at $HASHLINE_BIN" >&2; exit 2; }
source "$root/tests/editors/neovim/nvim-env.sh"
export WORK="$(mktemp -d /tmp/hashline-nvim-context.XXXXXX)"
nvim_guard_init nvim-context "$WORK" || exit 2
export RESULTS="$WORK/results.txt"
export HASHLINE_STATE_DIR="$WORK/state" HASHLINE_RUNTIME_DIR="$WORK/run"
mkdir -p "$HASHLINE_STATE_DIR" "$HASHLINE_RUNTIME_DIR"
: >"$RESULTS"
rc=0
for off in 0 1; do
  HASHLINE_CONTEXT_OFF=$off timeout 120 "$nvim_bin" "${nvim_guard[@]}" --headless --clean -n -i NONE \
    --cmd "set rtp^=$root/editors/nvim" -c "luafile $here/context_test.lua" >>"$WORK/nvim.out" 2>&1 || rc=$?
  rm -rf "$WORK/ws"
done
cat "$RESULTS"
passed=$(grep -c '^PASS' "$RESULTS" 2>/dev/null || true)
failed=$(grep -c '^FAIL' "$RESULTS" 2>/dev/null || true)
echo "nvim-context: ${passed:-0} passed, ${failed:-0} failed (Neovim $nvim_version)"
clean=0
nvim_guard_check "$WORK/nvim.out" || clean=1
if [ "$rc" -ne 0 ] || [ "${failed:-0}" -ne 0 ] || [ "${passed:-0}" -lt 13 ] || [ "$clean" -ne 0 ]; then
  echo "nvim-context: FAILED (nvim exit $rc; logs in $WORK)" >&2
  cat "$WORK/nvim.out" >&2 || true
  exit 1
fi
rm -rf "$WORK"
