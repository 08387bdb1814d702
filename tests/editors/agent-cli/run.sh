#!/usr/bin/env bash
# Real agent CLIs editing files open with unsaved typing in headless Neovim (issues 13, 20):
# installs Claude Code, OpenAI Codex CLI and Gemini CLI from npm into this directory (npm ci:
# package.json + package-lock.json), then runs agent_test.lua in headless Neovim with the plugin
# (editors/nvim) on 'runtimepath'. The CLIs are driven by fake_model.mjs, a scripted local model
# endpoint. Prints PASS / FAIL / NOTE lines and "agent-cli: N passed, M failed". Exits non-zero
# on any failure, a missing node/npm or an `npm ci` that cannot install the CLIs included: a suite
# that could not run has not passed.
# Usage: HASHLINE_BIN=build/hashline tests/editors/agent-cli/run.sh
# Env: KEEP=1 keeps the work dir; SIDECAR_LOG=1 gives the sidecar a debug log there;
# AGENTS (default claude,codex,gemini); AGENT_TIMEOUT_MS (default 120000) per CLI run; CODEX_SANDBOX
# (default workspace-write).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin="${HASHLINE_BIN:-$root/build/hashline}"
case "$bin" in /*) ;; *) bin="$root/$bin" ;; esac
[ -x "$bin" ] || { echo "agent-cli: no hashline binary at $bin (set HASHLINE_BIN)" >&2; exit 2; }
command -v nvim >/dev/null || { echo "agent-cli: nvim not installed (apt-get install -y neovim)" >&2; exit 2; }
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "FAIL agent-cli: node/npm not installed, so the agent CLIs cannot be installed (apt-get install -y nodejs npm)"
  exit 1
fi
codex="$here/node_modules/@openai/codex/bin/codex.js"
gemini="$here/node_modules/@google/gemini-cli/bundle/gemini.js"
# Claude Code's native binary comes in a per-platform optional dependency; its postinstall copies
# it over bin/claude.exe (a placeholder until then); run the binary itself.
case "$(uname -m)" in aarch64 | arm64) claude_arch=arm64 ;; *) claude_arch=x64 ;; esac
claude="$here/node_modules/@anthropic-ai/claude-code-linux-$claude_arch/claude"
if [ ! -f "$codex" ] || [ ! -f "$gemini" ] || [ ! -x "$claude" ] || ! (cd "$here" && npm ls --silent >/dev/null 2>&1); then
  if ! install_log="$(cd "$here" && timeout 600 npm ci --no-audit --no-fund 2>&1)"; then
    echo "FAIL agent-cli: npm ci of @anthropic-ai/claude-code, @openai/codex and @google/gemini-cli failed (is the npm registry reachable?): $(echo "$install_log" | tail -3 | tr '\n' ' ')"
    exit 1
  fi
fi
versions=()
if ! version="$(cd /tmp && timeout 60 "$claude" --version 2>&1)"; then
  echo "FAIL agent-cli: the installed claude does not run: $version"
  exit 1
fi
versions+=("claude $version")
for cli in "$codex" "$gemini"; do
  if ! version="$(cd /tmp && timeout 60 node "$cli" --version 2>&1)"; then
    echo "FAIL agent-cli: the installed $(basename "$cli") does not run: $version"
    exit 1
  fi
  versions+=("$(basename "$cli" .js) $version")
done

work="$(mktemp -d /tmp/hashline-agent-cli.XXXXXX)"
trap '[ "${KEEP:-0}" = 1 ] || rm -rf "$work"' EXIT
results="$work/results.txt"
: > "$results"
# Private discovery/state dirs: the CLI finds only this run's sidecar.
mkdir -p "$work/run" "$work/state" && chmod 700 "$work/run"
export HASHLINE_RUNTIME_DIR="$work/run" HASHLINE_STATE_DIR="$work/state"
export XDG_RUNTIME_DIR="$work/run" XDG_STATE_HOME="$work/state"
unset HASHLINE_NO_SIDECAR HASHLINE_WORKSPACE HASHLINE_SESSION HASHLINE_AGENT

start=$(date +%s)
echo "NOTE ${versions[*]}" >> "$results"
rc=0
WORK="$work" REPO_ROOT="$root" HASHLINE_BIN="$bin" RESULTS="$results" CLAUDE_BIN="$claude" CODEX_BIN="$codex" GEMINI_BIN="$gemini" \
  timeout 600 nvim --headless --clean -n -i NONE --cmd "set rtp^=$root/editors/nvim" \
    -c "luafile $here/agent_test.lua" > "$work/nvim.out" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] || ! grep -q '^\(PASS\|FAIL\)' "$results"; then
  echo "FAIL agent-cli: nvim exited $rc: $(tail -c 800 "$work/nvim.out" | tr '\n' ' ')" >> "$results"
fi
cat "$results"
passed=$(grep -c '^PASS' "$results" || true)
failed=$(grep -c '^FAIL' "$results" || true)
echo "agent-cli: ${passed} passed, ${failed} failed ($(( $(date +%s) - start )) s)"
if [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  KEEP=1
  echo "agent-cli: FAILED (work dir kept: $work)" >&2
  exit 1
fi
