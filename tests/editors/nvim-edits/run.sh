#!/usr/bin/env bash
# Every edit form landing in open, unsaved Neovim buffers (issue 5): the 25 codex apply_patch
# scenarios through a running sidecar (codex_test.lua), and each form racing a user who types
# while the CLI edits (race_test.lua). Each *_test.lua runs in its own headless Neovim
# ($HASHLINE_NVIM, default nvim; see tests/editors/neovim/nvim-env.sh) with the plugin
# (editors/nvim) on 'runtimepath' and writes PASS / FAIL / NOTE lines; any deprecation fails.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-edits/run.sh [codex] [race]
# Env: KEEP=1 keeps the work dir; SIDECAR_LOG=1 gives each sidecar a debug log there;
# RACE_ROUNDS (default 20), RACE_DEBOUNCES (default 0,40).
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../neovim/nvim-env.sh"
parts=("$@")
[ $# -gt 0 ] || parts=(codex race)
files=()
for part in "${parts[@]}"; do
  [ -f "$here/${part}_test.lua" ] || { echo "nvim-edits: no suite $here/${part}_test.lua" >&2; exit 2; }
  files+=("$here/${part}_test.lua")
done
nvim_suite_report() { # RESULTS WORKDIR: the codex total
  local passed total
  passed=$(grep -c '^PASS codex [0-9]' "$1" || true)
  total=$(grep -c '^\(PASS\|FAIL\) codex [0-9]' "$1" || true)
  [ "$total" -eq 0 ] || echo "nvim-edits: codex scenarios in open buffers: $passed/$total passed"
}
# Both parts: 41 checks (codex 29: the 25 scenarios and 4 more; race 12); one part alone: at least one.
min=41
[ $# -eq 0 ] || min=1
nvim_suite_run --timeout 900 nvim-edits "$min" "${files[@]}"
