#!/usr/bin/env bash
# The user's selection and visible windows for agents (issue 21): headless Neovim ($HASHLINE_NVIM,
# default nvim; see tests/editors/neovim/nvim-env.sh) with the plugin (setup{}); the user moves,
# selects linewise and characterwise (a multi-byte character), clicks elsewhere and splits a
# window, and `hashline context` (a separate process) reports each: the selection's text, its
# anchored rows (an edit follows them without a read), the latest selection, the visible windows.
# A second run with share_selection = false: the sidecar has nothing. Any deprecation fails.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-context/run.sh   (KEEP=1 keeps the work dir)
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../neovim/nvim-env.sh"
nvim_suite_run --timeout 120 nvim-context 13 \
  "$here/context_test.lua" HASHLINE_CONTEXT_OFF=0 "$here/context_test.lua" HASHLINE_CONTEXT_OFF=1
