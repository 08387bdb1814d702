#!/usr/bin/env bash
# The journal against a real editor: headless Neovim ($HASHLINE_NVIM, default nvim; see
# tests/editors/neovim/nvim-env.sh) runs `hashline lsp` (a plain LSP client); agent edits go through hashline/<method> requests and land in the
# buffers; undo, rewind and reject are checked against what the user typed meanwhile (issues 6
# and 9): undo keeps the user's line, refuses with CONFLICT when the user touched the agent's
# lines, a turn rewinds across an open buffer and a disk file (and is refused whole on a
# conflict), and rejecting hunks 1 and 3 of a 3-hunk op keeps hunk 2 and all the typing. Fails
# on any deprecation message.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-journal/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export HASHLINE_BIN="${HASHLINE_BIN:-$root/build/hashline}"
[ -x "$HASHLINE_BIN" ] || { echo "nvim-journal: no hashline binary at $HASHLINE_BIN" >&2; exit 2; }
source "$root/tests/editors/neovim/nvim-env.sh"
export WORK="$(mktemp -d /tmp/hashline-nvim-journal.XXXXXX)"
nvim_guard_init nvim-journal "$WORK" || exit 2
export RESULTS="$WORK/results.txt"
export HASHLINE_STATE_DIR="$WORK/state" HASHLINE_RUNTIME_DIR="$WORK/run"
mkdir -p "$HASHLINE_STATE_DIR" "$HASHLINE_RUNTIME_DIR"
rc=0
timeout 180 "$nvim_bin" "${nvim_guard[@]}" --headless --clean -n -i NONE -c "luafile $here/journal_test.lua" >"$WORK/nvim.out" 2>&1 || rc=$?
[ -f "$RESULTS" ] && cat "$RESULTS"
passed=$(grep -c '^PASS' "$RESULTS" 2>/dev/null || true)
failed=$(grep -c '^FAIL' "$RESULTS" 2>/dev/null || true)
echo "nvim-journal: ${passed:-0} passed, ${failed:-0} failed (Neovim $nvim_version)"
clean=0
nvim_guard_check "$WORK/nvim.out" || clean=1
if [ "$rc" -ne 0 ] || [ "${failed:-0}" -ne 0 ] || [ "${passed:-0}" -lt 9 ] || [ "$clean" -ne 0 ]; then
  echo "nvim-journal: FAILED (nvim exit $rc; logs in $WORK)" >&2
  cat "$WORK/nvim.out" >&2 || true
  exit 1
fi
rm -rf "$WORK"
