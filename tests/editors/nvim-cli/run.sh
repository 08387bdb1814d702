#!/usr/bin/env bash
# The CLI against a real editor: headless Neovim ($HASHLINE_NVIM, default nvim; see
# tests/editors/neovim/nvim-env.sh) runs `hashline lsp` (a plain LSP client), holds a buffer with
# unsaved text, and `hashline read/edit` — separate processes that find the sidecar through its
# discovery file — read that buffer and edit it: the edit lands in the buffer, the disk stays
# untouched, a stale anchor is refused. Fails on any deprecation message.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-cli/run.sh   (KEEP=1 keeps the work dir)
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../neovim/nvim-env.sh"
nvim_suite_run --plain --timeout 120 nvim-cli 5 "$here/cli_test.lua"
