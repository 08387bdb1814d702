#!/usr/bin/env bash
# The Neovim chaos suite of issue 31 on one Neovim ($HASHLINE_NVIM; see
# tests/editors/neovim/nvim-env.sh): chaos_test.lua kills the sidecar CHAOS_KILLS times (default
# 50) under a stream of CLI and MCP agent edits and user typing, and checks what survives (see
# its header). Not named run.sh on purpose: scripts/test runs every tests/editors/*/run.sh, and
# this takes minutes; scripts/chaos runs it on every Neovim scripts/get-nvim provides.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-chaos/chaos.sh
#        (CHAOS_SEED=N repeats a run; KEEP=1 keeps the work dir; SIDECAR_LOG=1 logs each sidecar)
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../neovim/nvim-env.sh"
nvim_suite_run --timeout "${CHAOS_TIMEOUT:-1800}" nvim-chaos 7 "$here/chaos_test.lua"
