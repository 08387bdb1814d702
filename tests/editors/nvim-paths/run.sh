#!/usr/bin/env bash
# The Neovim plugin's path rules (editors/nvim/lua/hashline/paths.lua) in headless Neovim:
# Windows-style paths (either separator, any case, drive and UNC roots), macOS's case rule and
# POSIX, checked on this machine through paths.for_os; then attach.root_for on real directories.
# A few seconds. Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-paths/run.sh
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../neovim/nvim-env.sh"
nvim_suite_run --timeout 60 nvim-paths 6 "$here/paths_test.lua"
