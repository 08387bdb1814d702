#!/usr/bin/env bash
# A real editor as the client of `hashline lsp`: headless Neovim ($HASHLINE_NVIM, default nvim;
# see tests/editors/neovim/nvim-env.sh) types into buffers (API edits, insert-mode keys,
# undo/redo, :s, paste, random multibyte edits, a CRLF buffer) and after each step checks
# hashline/snapshot against the buffer's own text.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-mirror/run.sh
# Prints PASS/FAIL per check and "N passed, N failed"; exits non-zero on any failure, a
# deprecation message included.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export HASHLINE_BIN="${HASHLINE_BIN:-$root/build/hashline}"
if [ ! -x "$HASHLINE_BIN" ]; then
  echo "nvim-mirror: no hashline binary at $HASHLINE_BIN (build first or set HASHLINE_BIN)" >&2
  exit 2
fi
source "$root/tests/editors/neovim/nvim-env.sh"
export WORK="${WORK:-$(mktemp -d /tmp/hashline-nvim-mirror.XXXXXX)}"
nvim_guard_init nvim-mirror "$WORK" || exit 2
rc=0
timeout 180 "$nvim_bin" "${nvim_guard[@]}" --headless --clean -n -i NONE -c "luafile $here/mirror_test.lua" \
  >"$WORK/nvim.out" 2>&1 || rc=$?
if [ -f "$WORK/results.txt" ]; then
  cat "$WORK/results.txt"
else
  echo "nvim-mirror: no results (nvim exit $rc)"; cat "$WORK/nvim.out"; rc=1
fi
nvim_guard_check "$WORK/nvim.out" || rc=1
if [ "$rc" -ne 0 ]; then
  echo "nvim-mirror: FAILED (logs in $WORK: nvim.out, hashline.log)" >&2
  exit 1
fi
rm -rf "$WORK"
