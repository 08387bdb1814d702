#!/usr/bin/env bash
# `hashline setup opencode|copilot|pi|zed|jetbrains` and `hashline doctor` on scratch homes holding
# the agents' own config files with other entries: the entry each agent reads (opencode `mcp.hashline`,
# Copilot CLI `mcpServers.hashline`, pi `extensions`), the config-dir variables each honours
# (XDG_CONFIG_HOME, COPILOT_HOME, PI_CODING_AGENT_DIR), --prefer-hashline, --dry-run, a second
# run changing nothing, and --undo leaving every file byte-exact with no backup behind; for the ACP
# clients Zed (settings.json with comments) and JetBrains (acp.json) the agents on PATH wrapped
# with `hashline acp --`, --agent, the comments kept, and the undo after the user edited the file.
# The real CLIs reading these files: tests/editors/agent-setup.
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
  bash -c "! '$bin' setup nope 2>&1 | grep -q 'copilot, pi, zed or jetbrains' && false || '$bin' setup nope 2>&1 | grep -q 'copilot, pi, zed or jetbrains'"

# --- Zed and JetBrains: ACP agents wrapped with `hashline acp --` -----------------------------
jsonc_is() { # jsonc_is FILE PYTHON-EXPR over `d`: FILE read as JSON with comments and trailing commas
  python3 - "$1" "$2" <<'PY'
import json, re, sys
t = open(sys.argv[1]).read()
out, i, in_string = [], 0, False
while i < len(t):
    c = t[i]
    if in_string:
        out.append(c)
        if c == '\\':
            out.append(t[i + 1]); i += 2; continue
        if c == '"':
            in_string = False
    elif c == '"':
        in_string = True; out.append(c)
    elif t.startswith('//', i):
        j = t.find('\n', i); i = len(t) if j < 0 else j; continue
    elif t.startswith('/*', i):
        i = t.find('*/', i) + 2; continue
    else:
        out.append(c)
    i += 1
d = json.loads(re.sub(r',(\s*[}\]])', r'\1', ''.join(out)))
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}
fresh
agents_dir="$scratch/acp-bin"
mkdir -p "$agents_dir" "$HOME/.config/zed" "$HOME/.jetbrains"
for program in gemini claude-agent-acp opencode; do
  printf '#!/bin/sh\nexit 0\n' >"$agents_dir/$program" && chmod +x "$agents_dir/$program"
done
acp_path="$agents_dir:/usr/bin:/bin"
printf '// Zed settings\n//\n// For information on how to configure Zed, see the Zed documentation.\n{\n  "ui_font_size": 16, // bigger\n  /* the theme */\n  "theme": { "mode": "system", "dark": "One Dark" },\n}\n' \
  >"$HOME/.config/zed/settings.json"
printf '{\n  "default_mcp_settings": {"use_idea_mcp": true},\n  "agent_servers": {\n    "Mine": {"command": "/opt/mine", "args": ["acp"], "env": {}}\n  }\n}\n' \
  >"$HOME/.jetbrains/acp.json"
before="$(snapshot)"
PATH="$acp_path" "$bin" setup zed --dry-run >"$scratch/dry.out"
check "zed --dry-run writes nothing" test "$before" = "$(snapshot)"
check "zed --dry-run prints the wrapped command" grep -q "\"$agents_dir/gemini\"" "$scratch/dry.out"
PATH="$acp_path" "$bin" setup zed >"$scratch/zed.out"
check "zed: the agents on PATH, each started through hashline acp" jsonc_is "$HOME/.config/zed/settings.json" \
  "d['agent_servers'] == {
     'Gemini CLI (hashline)': {'type': 'custom', 'command': '$bin', 'args': ['acp', '--', '$agents_dir/gemini', '--acp'], 'env': {}},
     'Claude Code (hashline)': {'type': 'custom', 'command': '$bin', 'args': ['acp', '--', '$agents_dir/claude-agent-acp'], 'env': {}},
     'opencode (hashline)': {'type': 'custom', 'command': '$bin', 'args': ['acp', '--', '$agents_dir/opencode', 'acp'], 'env': {}}}"
check "zed: the user's settings and every comment kept" bash -c "
  grep -q '^// Zed settings\$' '$HOME/.config/zed/settings.json' &&
  grep -q '\"ui_font_size\": 16, // bigger' '$HOME/.config/zed/settings.json' &&
  grep -q '/\* the theme \*/' '$HOME/.config/zed/settings.json'"
check "zed: says what the agent panel offers" grep -q "Zed's agent panel now offers Gemini CLI (hashline)" "$scratch/zed.out"
after="$(snapshot)"
PATH="$acp_path" "$bin" setup zed >"$scratch/again.out"
check "zed: second run changes nothing" test "$after" = "$(snapshot)"
"$bin" doctor >"$scratch/doctor.out" || true
check "doctor: zed's agents through hashline acp" \
  grep -q "ok    zed: Gemini CLI (hashline), Claude Code (hashline), opencode (hashline) start through hashline acp ($HOME/.config/zed/settings.json)\|ok    zed: .*Gemini CLI (hashline).* start through hashline acp" "$scratch/doctor.out"
check "doctor: jetbrains without hashline's entries says how to add them" \
  grep -q "info  jetbrains: no ACP agent starts through hashline acp in $HOME/.jetbrains/acp.json (hashline setup jetbrains)" "$scratch/doctor.out"
PATH="$acp_path" "$bin" setup zed --agent goose >/dev/null
check "zed --agent: an agent not on PATH by its bare name" jsonc_is "$HOME/.config/zed/settings.json" \
  "d['agent_servers']['goose (hashline)']['args'] == ['acp', '--', 'goose', 'acp'] and len(d['agent_servers']) == 4"
PATH="$acp_path" "$bin" setup zed --undo >"$scratch/undo.out"
check "zed --undo: the settings byte-exact, no backup" test "$before" = "$(snapshot)"
PATH="$acp_path" "$bin" setup zed >/dev/null
sed -i 's|"ui_font_size": 16, // bigger|"vim_mode": true, // mine\n  "ui_font_size": 16, // bigger|' "$HOME/.config/zed/settings.json"
PATH="$acp_path" "$bin" setup zed --undo >/dev/null
check "zed --undo after the user edited the file: only hashline's entries go" bash -c "
  grep -q '\"vim_mode\": true, // mine' '$HOME/.config/zed/settings.json' &&
  grep -q '^// Zed settings\$' '$HOME/.config/zed/settings.json' &&
  ! grep -q 'agent_servers\|hashline' '$HOME/.config/zed/settings.json' &&
  test ! -e '$HOME/.config/zed/settings.json.hashline-backup'"
check "zed --project is a usage error" bash -c "PATH='$acp_path' '$bin' setup zed --project 2>'$scratch/err'; test \$? = 2 && grep -q 'use --user' '$scratch/err'"
check "zed with no ACP agent on PATH says how to name one" \
  bash -c "PATH=/usr/bin:/bin '$bin' setup zed 2>'$scratch/err'; test \$? = 2 && grep -q -- '--agent NAME' '$scratch/err'"
check "zed --agent with an unknown agent names the known ones" \
  bash -c "PATH='$acp_path' '$bin' setup zed --agent nope 2>'$scratch/err'; test \$? = 2 && grep -q 'gemini, claude, codex, opencode, goose' '$scratch/err'"
check "--agent is only for the ACP clients" bash -c "'$bin' setup gemini --agent claude 2>/dev/null; test \$? = 2"
mkdir -p "$scratch/zed-xdg"
XDG_CONFIG_HOME="$scratch/zed-xdg" PATH="$acp_path" "$bin" setup zed --agent gemini >/dev/null
check "zed honours XDG_CONFIG_HOME (a new settings.json)" jsonc_is "$scratch/zed-xdg/zed/settings.json" \
  "list(d['agent_servers']) == ['Gemini CLI (hashline)']"
XDG_CONFIG_HOME="$scratch/zed-xdg" "$bin" setup zed --undo >/dev/null
check "zed --undo removes the file it created" test ! -e "$scratch/zed-xdg/zed/settings.json"
jetbrains_before="$(snapshot)"
PATH="$acp_path" "$bin" setup jetbrains >/dev/null
check "jetbrains: the user's agent and MCP settings kept, ours beside it without a type" \
  json_is "$HOME/.jetbrains/acp.json" \
  "d['default_mcp_settings'] == {'use_idea_mcp': True} and d['agent_servers']['Mine']['command'] == '/opt/mine' and
   d['agent_servers']['Gemini CLI (hashline)'] == {'command': '$bin', 'args': ['acp', '--', '$agents_dir/gemini', '--acp'], 'env': {}} and
   len(d['agent_servers']) == 4"
PATH="$acp_path" "$bin" setup jetbrains --undo >/dev/null
check "jetbrains --undo: acp.json byte-exact" test "$jetbrains_before" = "$(snapshot)"
mkdir -p "$scratch/old" && cp "$bin" "$scratch/old/hashline"
PATH="$acp_path" "$scratch/old/hashline" setup jetbrains >/dev/null && rm "$scratch/old/hashline"
"$bin" doctor >"$scratch/doctor.out" || true
check "doctor: an entry whose hashline is gone is a problem with the fix" bash -c "
  grep -q 'FAIL  jetbrains: agent \"Gemini CLI (hashline)\" in $HOME/.jetbrains/acp.json runs .$scratch/old/hashline.' '$scratch/doctor.out' &&
  grep -q 'fix: hashline setup jetbrains (rewrites the entries with this binary)' '$scratch/doctor.out'"
PATH="$acp_path" "$bin" setup jetbrains >/dev/null
check "jetbrains: setup again rewrites the stale entries" json_is "$HOME/.jetbrains/acp.json" \
  "d['agent_servers']['Gemini CLI (hashline)']['command'] == '$bin' and d['agent_servers']['Mine']['command'] == '/opt/mine'"
PATH="$acp_path" "$bin" setup jetbrains --undo >/dev/null
check "jetbrains --undo after the rewrite: acp.json byte-exact" test "$jetbrains_before" = "$(snapshot)"

echo "setup-agents: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
