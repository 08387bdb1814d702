#!/usr/bin/env bash
# The editor's diagnostics in agents' edit results (issue 21): headless Neovim ($HASHLINE_NVIM,
# default nvim; see tests/editors/neovim/nvim-env.sh) with the plugin (setup{}) and a real
# language server, clangd (Debian's `clangd`), attached to a C++ file with unsaved typing. An
# agent edit through the `hashline` CLI that breaks a call gets clangd's error back in the same
# result, anchored on the right line; the edit that fixes it reports it removed; `hashline
# diagnostics` lists it; a file no server reports on answers at once with none available; bad
# input gets its error code. Any deprecation fails. Needs clangd (scripts/deps.sh test).
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-diagnostics/run.sh   (KEEP=1 keeps the work dir)
here="$(cd "$(dirname "$0")" && pwd)"
command -v clangd >/dev/null || { echo "nvim-diagnostics: clangd not installed (scripts/deps.sh test installs it)" >&2; exit 2; }
source "$here/../neovim/nvim-env.sh"
nvim_suite_run nvim-diagnostics 8 "$here/diagnostics_test.lua"
