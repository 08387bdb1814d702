#!/usr/bin/env bash
# Symbols through the editor's language server (issue 21): headless Neovim ($HASHLINE_NVIM,
# default nvim; see tests/editors/neovim/nvim-env.sh) with the plugin (setup{}) and clangd
# (Debian's `clangd`) attached to a C++ file with unsaved typing. `hashline outline` lists every
# function of the file with its lines, `hashline read --symbol` returns exactly a symbol's lines
# of the live buffer (and an edit follows that read), and the errors: an unknown symbol, a file no
# language server is attached to, a file not open in Neovim. Any deprecation fails.
# Needs clangd (scripts/deps.sh test).
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-symbols/run.sh   (KEEP=1 keeps the work dir)
here="$(cd "$(dirname "$0")" && pwd)"
command -v clangd >/dev/null || { echo "nvim-symbols: clangd not installed (scripts/deps.sh test installs it)" >&2; exit 2; }
source "$here/../neovim/nvim-env.sh"
nvim_suite_run nvim-symbols 7 "$here/symbols_test.lua"
