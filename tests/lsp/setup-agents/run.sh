#!/usr/bin/env bash
# `hashline setup opencode|copilot|pi` and `hashline doctor` on scratch homes holding the agents'
# own config files with other entries: the entry each agent reads (opencode `mcp.hashline`,
# Copilot CLI `mcpServers.hashline`, pi `extensions`), the config-dir variables each honours
# (XDG_CONFIG_HOME, COPILOT_HOME, PI_CODING_AGENT_DIR), --prefer-hashline, --dry-run, a second
# run changing nothing, and --undo leaving every file byte-exact with no backup behind. The real
# CLIs reading these files: tests/editors/agent-setup.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin="$(cd "$(dirname "${HASHLINE_BIN:-$root/build/hashline}")" && pwd)/hashline"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0
check() { # check NAME COMMAND...
  local name="$1"
  shift
  if "$@" >"$scratch/check.out" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name" >&2
    sed 's/^/  /' "$scratch/check.out" >&2
  fi
}
json_is() { # json_is FILE PYTHON-EXPR over `d`
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}
fresh() { # a home and a project holding the agents' files with other entries
  rm -rf "$scratch/case"
  mkdir -p "$scratch/case/home/.config/opencode" "$scratch/case/home/.copilot" \
    "$scratch/case/home/.pi/agent" "$scratch/case/project" "$scratch/case/state"
  export HOME="$scratch/case/home" HASHLINE_STATE_DIR="$scratch/case/state"
  export HASHLINE_RUNTIME_DIR="$scratch/case/run"
  unset XDG_CONFIG_HOME COPILOT_HOME PI_CODING_AGENT_DIR CODEX_HOME CLAUDE_CONFIG_DIR
  printf '{\n  "$schema": "https://opencode.ai/config.json",\n  "model": "anthropic/claude-sonnet-4",\n  "mcp": {\n    "other": {"type": "local", "command": ["other-mcp"], "enabled": true}\n  }\n}\n' \
    >"$HOME/.config/opencode/opencode.json"
  printf '{\n  "mcpServers": {\n    "github": {\n      "type": "http",\n      "url": "https://example.invalid/mcp",\n      "tools": ["*"]\n    }\n  }\n}\n' \
    >"$HOME/.copilot/mcp-config.json"
  printf '{\n  "defaultProvider": "anthropic",\n  "extensions": ["./extensions/mine.ts"]\n}\n' \
    >"$HOME/.pi/agent/settings.json"
  project="$scratch/case/project"
  cd "$project"
}
snapshot() { (cd "$scratch/case" && find home project -type f -print0 | sort -z | xargs -0 sha256sum); }
extension="$("$bin" setup pi --dry-run | sed -n 's/^+ *"\(\/.*hashline\.ts\)".*/\1/p' | head -1)"

# --- opencode ---------------------------------------------------------------------------------
fresh
before="$(snapshot)"
"$bin" setup opencode --user --dry-run >"$scratch/dry.out"
check "opencode --dry-run writes nothing" test "$before" = "$(snapshot)"
check "opencode --dry-run prints the entry" grep -q '"type": "local"' "$scratch/dry.out"
"$bin" setup opencode --user --prefer-hashline >/dev/null
check "opencode user: mcp.hashline is a local command array, enabled" \
  json_is "$HOME/.config/opencode/opencode.json" \
  "d['mcp']['hashline'] == {'type': 'local', 'command': ['$bin', 'mcp'], 'enabled': True}"
check "opencode user: other server, model and \$schema kept" json_is "$HOME/.config/opencode/opencode.json" \
  "'other' in d['mcp'] and d['model'] == 'anthropic/claude-sonnet-4' and list(d)[0] == '\$schema'"
check "opencode --prefer-hashline denies its edit permission" \
  json_is "$HOME/.config/opencode/opencode.json" "d['permission'] == {'edit': 'deny'}"
"$bin" setup opencode >/dev/null
check "opencode project: opencode.json created" json_is "$project/opencode.json" \
  "d == {'\$schema': 'https://opencode.ai/config.json', 'mcp': {'hashline': {'type': 'local', 'command': ['$bin', 'mcp'], 'enabled': True}}}"
after="$(snapshot)"
"$bin" setup opencode --user --prefer-hashline >"$scratch/again.out"
check "opencode: second run changes nothing" test "$after" = "$(snapshot)"
check "opencode: second run says so" grep -q "already set up" "$scratch/again.out"
"$bin" doctor >"$scratch/doctor.out" || true
check "doctor: opencode user and project registered" \
  bash -c "grep -q 'ok    opencode (user): registered in $HOME/.config/opencode/opencode.json ($bin)' '$scratch/doctor.out' && grep -q 'ok    opencode (project): registered' '$scratch/doctor.out'"
"$bin" setup opencode --user --undo >/dev/null
"$bin" setup opencode --undo >/dev/null
check "opencode: --undo leaves both scopes as they were" test "$before" = "$(snapshot)"
mkdir -p "$scratch/xdg"
XDG_CONFIG_HOME="$scratch/xdg" "$bin" setup opencode --user >/dev/null
check "opencode --user honours XDG_CONFIG_HOME" json_is "$scratch/xdg/opencode/opencode.json" "'hashline' in d['mcp']"

# --- Copilot CLI ------------------------------------------------------------------------------
fresh
before="$(snapshot)"
"$bin" setup copilot --user >/dev/null
check "copilot user: mcpServers.hashline as copilot mcp add writes it" json_is "$HOME/.copilot/mcp-config.json" \
  "d['mcpServers']['hashline'] == {'type': 'local', 'command': '$bin', 'args': ['mcp'], 'tools': ['*']}"
check "copilot user: the github server kept" json_is "$HOME/.copilot/mcp-config.json" \
  "d['mcpServers']['github']['url'] == 'https://example.invalid/mcp'"
check "copilot user: backup is the original" bash -c "json_is() { :; }; test -f '$HOME/.copilot/mcp-config.json.hashline-backup'"
"$bin" setup copilot --prefer-hashline >"$scratch/copilot.out"
check "copilot project: .github/mcp.json" json_is "$project/.github/mcp.json" "'hashline' in d['mcpServers']"
check "copilot: notes on folder trust and --deny-tool" \
  bash -c "grep -q 'trust' '$scratch/copilot.out' && grep -q -- '--deny-tool' '$scratch/copilot.out'"
"$bin" setup copilot --user --undo >/dev/null
"$bin" setup copilot --undo >/dev/null
check "copilot: --undo leaves every file as it was, no backup" test "$before" = "$(snapshot)"
mkdir -p "$scratch/copilot-home"
COPILOT_HOME="$scratch/copilot-home" "$bin" setup copilot --user >/dev/null
check "copilot --user honours COPILOT_HOME" json_is "$scratch/copilot-home/mcp-config.json" "'hashline' in d['mcpServers']"
COPILOT_HOME="$scratch/copilot-home" "$bin" doctor >"$scratch/doctor.out" || true
check "doctor: copilot (user) under COPILOT_HOME" grep -q "ok    copilot (user): registered in $scratch/copilot-home/mcp-config.json" "$scratch/doctor.out"

# --- pi ---------------------------------------------------------------------------------------
fresh
before="$(snapshot)"
check "pi: the extension exists next to the binary" test -f "$extension"
"$bin" setup pi --user >"$scratch/pi.out"
check "pi user: extension appended after the user's own" json_is "$HOME/.pi/agent/settings.json" \
  "d['extensions'] == ['./extensions/mine.ts', '$extension'] and d['defaultProvider'] == 'anthropic'"
check "pi: says it has no MCP" grep -q "pi has no MCP" "$scratch/pi.out"
"$bin" setup pi >/dev/null
check "pi project: .pi/settings.json" json_is "$project/.pi/settings.json" "d == {'extensions': ['$extension']}"
"$bin" doctor >"$scratch/doctor.out" || true
check "doctor: pi user and project registered" \
  bash -c "grep -q 'ok    pi (user): registered in $HOME/.pi/agent/settings.json ($extension)' '$scratch/doctor.out' && grep -q 'ok    pi (project)' '$scratch/doctor.out'"
"$bin" setup pi --user --undo >/dev/null
"$bin" setup pi --undo >/dev/null
check "pi: --undo leaves no trace" test "$before" = "$(snapshot)"
mkdir -p "$scratch/pi-dir"
PI_CODING_AGENT_DIR="$scratch/pi-dir" "$bin" setup pi --user >/dev/null
check "pi --user honours PI_CODING_AGENT_DIR" json_is "$scratch/pi-dir/settings.json" "d['extensions'] == ['$extension']"
mkdir -p "$scratch/lonely/bin" && cp "$bin" "$scratch/lonely/bin/hashline"
check "pi: no extension next to the binary is a usage error with a fix" \
  bash -c "'$scratch/lonely/bin/hashline' setup pi --user 2>'$scratch/err'; test \$? = 2 && grep -q 'cmake --install' '$scratch/err'"
check "unknown agent names the new ones" \
  bash -c "! '$bin' setup nope 2>&1 | grep -q 'opencode, copilot or pi' && false || '$bin' setup nope 2>&1 | grep -q 'opencode, copilot or pi'"

echo "setup-agents: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
