#!/usr/bin/env bash
# The journal against a real editor: headless Neovim ($HASHLINE_NVIM, default nvim; see
# tests/editors/neovim/nvim-env.sh) runs `hashline lsp` (a plain LSP client); agent edits go
# through hashline/<method> requests and land in the buffers; undo, rewind and reject are checked
# against what the user typed meanwhile (issues 6 and 9): undo keeps the user's line, refuses with
# CONFLICT when the user touched the agent's lines, a turn rewinds across an open buffer and a
# disk file (and is refused whole on a conflict), and rejecting hunks 1 and 3 of a 3-hunk op keeps
# hunk 2 and all the typing. Fails on any deprecation message.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-journal/run.sh   (KEEP=1 keeps the work dir)
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../neovim/nvim-env.sh"
nvim_suite_run --plain nvim-journal 9 "$here/journal_test.lua"
