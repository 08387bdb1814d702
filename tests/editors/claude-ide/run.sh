#!/usr/bin/env bash
# The real Claude Code CLI uses hashline as its IDE (issue 22): install.sh installs
# @anthropic-ai/claude-code (pinned in package.json / package-lock.json, npm ci), then
# claude_ide_test.lua runs in headless Neovim ($HASHLINE_NVIM, default nvim;
# tests/editors/neovim/nvim-env.sh) with the plugin and claudeIde on. Claude Code runs
# interactively under a pty (drive_claude.py; `claude -p` never connects to an IDE) against the
# scripted endpoint tests/editors/agent-cli/fake_model.mjs. Prints PASS / FAIL / NOTE lines and
# "claude-ide: N passed, M failed (T s, Neovim V)"; any FAIL fails the run. When Claude Code
# cannot be installed (no node/npm/python3, npm ci failed) it prints "FAIL claude-ide: ..." with
# a hint and exits 1: it never skips.
# Usage: HASHLINE_BIN=build/hashline tests/editors/claude-ide/run.sh
# Env: KEEP=1 keeps the work dir; CAPTURE=1 puts ws_capture.py between Claude Code and hashline
# and prints every WebSocket message (the evidence in docs/claude-ide.md); CLAUDE_TIMEOUT_MS
# (default 300000, an upper bound for the whole session); CLAUDE_PERMISSION_ARGS (default --permission-mode default).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
source "$root/tests/editors/neovim/nvim-env.sh"

setup_failed() { # REASON HINT
  echo "FAIL claude-ide: $1"
  echo "  hint: $2"
  echo "claude-ide: 0 passed, 1 failed"
  exit 1
}
install_err="$(mktemp)"
claude="$("$here/install.sh" 2> "$install_err")"
install_rc=$?
cat "$install_err" >&2
reason="$(grep -m1 'install FAILED' "$install_err" | sed 's/^claude-ide install FAILED: //')"
rm -f "$install_err"
[ "$install_rc" -eq 0 ] && [ -x "$claude" ] ||
  setup_failed "Claude Code could not be installed: ${reason:-install.sh exited $install_rc}" \
    "it needs node, npm and python3 (Debian: apt-get install nodejs npm python3) and the npm registry; run $here/install.sh to retry"
version="$(cd /tmp && timeout 60 "$claude" --version 2>&1)" ||
  setup_failed "the installed claude does not run: $version" "rm -rf $here/node_modules and run $here/install.sh"

nvim_suite_report() { # RESULTS WORKDIR: the WebSocket messages ws_capture.py logged
  if [ "${CAPTURE:-0}" = 1 ] && [ -f "$2/claude_ide/ws.jsonl" ]; then
    echo "--- WebSocket messages (ws_capture.py, $2/claude_ide/ws.jsonl)"
    cat "$2/claude_ide/ws.jsonl"
  fi
}
nvim_suite_run --timeout 600 claude-ide 11 "$here/claude_ide_test.lua" \
  CLAUDE_BIN="$claude" CLAUDE_VERSION="$version" FAKE_MODEL="$root/tests/editors/agent-cli/fake_model.mjs"
