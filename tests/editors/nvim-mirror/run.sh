#!/usr/bin/env bash
# A real editor as the client of `hashline lsp`: headless Neovim ($HASHLINE_NVIM, default nvim;
# see tests/editors/neovim/nvim-env.sh) types into buffers (API edits, insert-mode keys,
# undo/redo, :s, paste, random multibyte edits, a CRLF buffer) and after each step checks
# hashline/snapshot against the buffer's own text. Prints PASS/FAIL per check and
# "nvim-mirror: N passed, M failed"; exits non-zero on any failure, a deprecation message included.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-mirror/run.sh   (KEEP=1 keeps the work dir)
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../neovim/nvim-env.sh"
nvim_suite_run --plain nvim-mirror 31 "$here/mirror_test.lua"
