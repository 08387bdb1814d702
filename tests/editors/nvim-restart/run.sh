#!/usr/bin/env bash
# The plugin brings a crashed sidecar back (issue 31, editors/nvim/lua/hashline/supervisor.lua):
# headless Neovim ($HASHLINE_NVIM, default nvim; see tests/editors/neovim/nvim-env.sh) with the
# plugin, two files with unsaved typing and a pending agent edit; `kill -9` of `hashline lsp`:
# restarted by the plugin, both buffers re-attached and mirrored as they are (typing while it
# restarts and after included), one message, the journal and the pending review as before,
# `hashline undo` of the old op works; the third crash within the window gives up (error message,
# :checkhealth says why, nothing attaches on its own); a buffer typed into meanwhile is named as
# untracked and refused; :HashlineRestart brings the other back; a stop the user asked for is not
# restarted; on 0.11+ the same through vim.lsp.enable('hashline') (restart_enable_test.lua); an
# open conflict of a merged disk write is listed by the new sidecar with its id and resolves
# (restart_conflicts_test.lua). The chaos suite (scripts/chaos) kills it at random moments under
# load; this is the fast regression.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-restart/run.sh   (KEEP=1 keeps the work dir)
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../neovim/nvim-env.sh"
nvim_suite_run nvim-restart 10 "$here/restart_test.lua" "$here/restart_enable_test.lua" \
  "$here/restart_conflicts_test.lua"
