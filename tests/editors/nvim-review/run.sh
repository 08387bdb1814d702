#!/usr/bin/env bash
# The review UI of the Neovim plugin (issue 9): headless Neovim ($HASHLINE_NVIM, default nvim;
# see tests/editors/neovim/nvim-env.sh) with editors/nvim on 'runtimepath' and require('hashline').setup{}; an agent op of 3 hunks through the `hashline`
# CLI gets 3 signs at the right lines, the signs follow the user's typing, :HashlineReview lists
# the hunks in the quickfix list at their current lines, the quickfix mappings reject / accept
# hunks (the user's typing kept, the buffer unsaved), and an edit sent with `confirm` (LSP change
# annotations, needsConfirmation) applies — or is refused when the user declines; without
# confirm_prompt 0.12+ asks once (a "No" is refused) and older versions apply without asking;
# :checkhealth hashline has no warning or error. Any deprecation fails.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-review/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export HASHLINE_BIN="${HASHLINE_BIN:-$root/build/hashline}"
[ -x "$HASHLINE_BIN" ] || { echo "nvim-review: no hashline binary at $HASHLINE_BIN" >&2; exit 2; }
source "$root/tests/editors/neovim/nvim-env.sh"
export WORK="$(mktemp -d /tmp/hashline-nvim-review.XXXXXX)"
nvim_guard_init nvim-review "$WORK" || exit 2
export RESULTS="$WORK/results.txt"
export HASHLINE_STATE_DIR="$WORK/state" HASHLINE_RUNTIME_DIR="$WORK/run"
mkdir -p "$HASHLINE_STATE_DIR" "$HASHLINE_RUNTIME_DIR"
rc=0
timeout 180 "$nvim_bin" "${nvim_guard[@]}" --headless --clean -n -i NONE --cmd "set rtp^=$root/editors/nvim" \
  -c "luafile $here/review_test.lua" >"$WORK/nvim.out" 2>&1 || rc=$?
[ -f "$RESULTS" ] && cat "$RESULTS"
passed=$(grep -c '^PASS' "$RESULTS" 2>/dev/null || true)
failed=$(grep -c '^FAIL' "$RESULTS" 2>/dev/null || true)
echo "nvim-review: ${passed:-0} passed, ${failed:-0} failed (Neovim $nvim_version)"
clean=0
nvim_guard_check "$WORK/nvim.out" || clean=1
if [ "$rc" -ne 0 ] || [ "${failed:-0}" -ne 0 ] || [ "${passed:-0}" -lt 15 ] || [ "$clean" -ne 0 ]; then
  echo "nvim-review: FAILED (nvim exit $rc; logs in $WORK)" >&2
  cat "$WORK/nvim.out" >&2 || true
  exit 1
fi
rm -rf "$WORK"
