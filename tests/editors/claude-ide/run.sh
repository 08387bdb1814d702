#!/usr/bin/env bash
# The real Claude Code CLI uses hashline as its IDE (issue 22): installs @anthropic-ai/claude-code
# (pinned in package.json / package-lock.json, npm ci), then runs claude_ide_test.lua in headless
# Neovim ($HASHLINE_NVIM, default nvim; tests/editors/neovim/nvim-env.sh) with the plugin and
# claudeIde on. Claude Code runs interactively under a pty (drive_claude.py; `claude -p` never
# connects to an IDE) against the scripted endpoint tests/editors/agent-cli/fake_model.mjs.
# Prints PASS / FAIL / XFAIL (a known product bug, see README.md) / NOTE lines and "claude-ide: N
# passed, M failed, K known bug(s)"; any FAIL fails the run. Exits 0 with a SKIP line
# only when node/npm/python3 are missing or npm ci cannot install Claude Code.
# Usage: HASHLINE_BIN=build/hashline tests/editors/claude-ide/run.sh
# Env: KEEP=1 keeps the work dir; CAPTURE=1 puts ws_capture.py between Claude Code and hashline
# and prints every WebSocket message (the evidence in docs/claude-ide.md); CLAUDE_TIMEOUT_MS
# (default 120000).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export HASHLINE_BIN="${HASHLINE_BIN:-$root/build/hashline}"
case "$HASHLINE_BIN" in /*) ;; *) HASHLINE_BIN="$root/$HASHLINE_BIN" ;; esac
[ -x "$HASHLINE_BIN" ] || { echo "claude-ide: no hashline binary at $HASHLINE_BIN (set HASHLINE_BIN)" >&2; exit 2; }
for tool in node npm python3; do
  command -v "$tool" >/dev/null || { echo "SKIP claude-ide: $tool not installed"; exit 0; }
done
case "$(uname -m)" in aarch64 | arm64) claude_arch=arm64 ;; *) claude_arch=x64 ;; esac
# The native binary of the per-platform optional dependency, run directly (bin/claude.exe is a
# stub until a postinstall script copies it over).
export CLAUDE_BIN="$here/node_modules/@anthropic-ai/claude-code-linux-$claude_arch/claude"
if [ ! -x "$CLAUDE_BIN" ] || ! (cd "$here" && npm ls --silent >/dev/null 2>&1); then
  if ! install_log="$(cd "$here" && timeout 600 npm ci --no-audit --no-fund --ignore-scripts 2>&1)"; then
    echo "SKIP claude-ide: npm ci of @anthropic-ai/claude-code failed: $(echo "$install_log" | tail -3 | tr '\n' ' ')"
    exit 0
  fi
fi
if ! version="$(cd /tmp && timeout 60 "$CLAUDE_BIN" --version 2>&1)"; then
  echo "FAIL claude-ide: the installed claude does not run: $version"
  exit 1
fi
export FAKE_MODEL="$root/tests/editors/agent-cli/fake_model.mjs"
source "$root/tests/editors/neovim/nvim-env.sh"
export WORK="$(mktemp -d /tmp/hashline-claude-ide.XXXXXX)"
nvim_guard_init claude-ide "$WORK" || exit 2
export RESULTS="$WORK/results.txt" REPO_ROOT="$root"
: > "$RESULTS"
echo "NOTE claude $version" >> "$RESULTS"
# Private discovery/state dirs: the CLI finds only this run's sidecar.
mkdir -p "$WORK/run" "$WORK/state" && chmod 700 "$WORK/run"
export HASHLINE_RUNTIME_DIR="$WORK/run" HASHLINE_STATE_DIR="$WORK/state"
export XDG_RUNTIME_DIR="$WORK/run" XDG_STATE_HOME="$WORK/state"
unset HASHLINE_NO_SIDECAR HASHLINE_WORKSPACE HASHLINE_SESSION HASHLINE_AGENT CLAUDE_CODE_SSE_PORT ENABLE_IDE_INTEGRATION
start=$(date +%s)
rc=0
timeout 400 "$nvim_bin" "${nvim_guard[@]}" --headless --clean -n -i NONE --cmd "set rtp^=$root/editors/nvim" \
  -c "luafile $here/claude_ide_test.lua" >"$WORK/nvim.out" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] || ! grep -q '^\(PASS\|FAIL\)' "$RESULTS"; then
  echo "FAIL claude-ide: nvim exited $rc: $(tail -c 800 "$WORK/nvim.out" | tr '\n' ' ')" >> "$RESULTS"
fi
cat "$RESULTS"
if [ "${CAPTURE:-0}" = 1 ] && [ -f "$WORK/ws.jsonl" ]; then
  echo "--- WebSocket messages (ws_capture.py, $WORK/ws.jsonl)"
  cat "$WORK/ws.jsonl"
fi
passed=$(grep -c '^PASS' "$RESULTS" || true)
failed=$(grep -c '^FAIL' "$RESULTS" || true)
xfailed=$(grep -c '^XFAIL' "$RESULTS" || true)
echo "claude-ide: ${passed} passed, ${failed} failed, ${xfailed} known bug(s) ($(( $(date +%s) - start )) s, Neovim $nvim_version)"
clean=0
nvim_guard_check "$WORK/nvim.out" || clean=1
if [ "$failed" -ne 0 ] || [ "$passed" -lt 6 ] || [ "$clean" -ne 0 ]; then
  echo "claude-ide: FAILED (work dir kept: $WORK)" >&2
  exit 1
fi
[ "${KEEP:-0}" = 1 ] || rm -rf "$WORK"
