#!/usr/bin/env bash
# `hashline setup` against copies of real agent config files holding other entries (MCP servers,
# TOML comments, unrelated settings): merge keeps them, a second run changes nothing, the backup
# holds the original, --dry-run writes nothing, --undo restores the files byte-exact (and, after
# a user edit, removes only hashline's entries). Also `hashline doctor` on the same homes.
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
json_is() { # json_is FILE PYTHON-EXPR: the expression over `d` (the parsed file) is true
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}
fresh() { # a fresh copy of the fixtures; HOME and the project point into it
  rm -rf "$scratch/case"
  cp -r "$here/fixtures" "$scratch/case"
  export HOME="$scratch/case/home" HASHLINE_STATE_DIR="$scratch/case/state"
  export XDG_CONFIG_HOME="$HOME/.config" HASHLINE_RUNTIME_DIR="$scratch/case/run"
  unset CODEX_HOME CLAUDE_CONFIG_DIR
  project="$scratch/case/project"
  cd "$project"
}
snapshot() { (cd "$scratch/case" && find home project -type f -print0 | sort -z | xargs -0 sha256sum); }

# --- claude, user and project, with --prefer-hashline -----------------------------------------
fresh
before="$(snapshot)"
"$bin" setup claude --user --prefer-hashline >/dev/null
check "claude user: hashline registered" json_is "$HOME/.claude.json" \
  "d['mcpServers']['hashline']['command'] == '$bin' and d['mcpServers']['hashline']['args'] == ['mcp']"
check "claude user: other servers and settings kept" json_is "$HOME/.claude.json" \
  "'filesystem' in d['mcpServers'] and d['numStartups'] == 42 and d['projects']['/home/me/src/app']['hasTrustDialogAccepted']"
check "claude user: deny rules" json_is "$HOME/.claude/settings.json" \
  "d['permissions']['deny'] == ['Edit', 'Write', 'MultiEdit']"
check "claude user: backup is the original" cmp "$HOME/.claude.json.hashline-backup" \
  "$here/fixtures/home/.claude.json"
"$bin" setup claude --prefer-hashline >/dev/null
check "claude project: .mcp.json created" json_is "$project/.mcp.json" "'hashline' in d['mcpServers']"
check "claude project: deny rules merged after the user's" json_is "$project/.claude/settings.json" \
  "d['permissions']['deny'] == ['Read(./.env)', 'Edit', 'Write', 'MultiEdit'] and d['permissions']['allow'] == ['Bash(npm run test:*)'] and d['env']['CLAUDE_CODE_ENABLE_TELEMETRY'] == '0'"
after="$(snapshot)"
"$bin" setup claude --user --prefer-hashline >"$scratch/again.out"
"$bin" setup claude --prefer-hashline >>"$scratch/again.out"
check "claude: second run changes nothing" test "$after" = "$(snapshot)"
check "claude: second run says so" grep -q "already set up" "$scratch/again.out"
"$bin" setup claude --user --undo >/dev/null
"$bin" setup claude --undo >/dev/null
check "claude: --undo restores every file byte-exact" test "$before" = "$(snapshot)"
check "claude: --undo removes the backup" test ! -e "$HOME/.claude.json.hashline-backup"

# --- claude with CLAUDE_CONFIG_DIR: every path uses $CLAUDE_CONFIG_DIR/.claude.json and settings.json
fresh
mkdir -p "$scratch/case/claude-config"
cp "$HOME/.claude.json" "$scratch/case/claude-config/.claude.json"
before="$(snapshot)"
ccd="$scratch/case/claude-config"
CLAUDE_CONFIG_DIR="$ccd" "$bin" setup claude --user --prefer-hashline --dry-run >"$scratch/dry.out"
check "claude CLAUDE_CONFIG_DIR --dry-run: writes nothing" test "$before" = "$(snapshot)"
check "claude CLAUDE_CONFIG_DIR --dry-run: diff of \$CLAUDE_CONFIG_DIR/.claude.json" \
  grep -q "^+++ $ccd/.claude.json" "$scratch/dry.out"
check "claude CLAUDE_CONFIG_DIR --dry-run: diff of \$CLAUDE_CONFIG_DIR/settings.json" \
  grep -q "^+++ $ccd/settings.json" "$scratch/dry.out"
check "claude CLAUDE_CONFIG_DIR --dry-run: nothing creates the config dir" test ! -e "$ccd/settings.json"
CLAUDE_CONFIG_DIR="$ccd" "$bin" setup claude --user --prefer-hashline >"$scratch/ccd.out"
check "claude CLAUDE_CONFIG_DIR --user: registered in \$CLAUDE_CONFIG_DIR/.claude.json" \
  json_is "$ccd/.claude.json" "d['mcpServers']['hashline']['command'] == '$bin' and 'filesystem' in d['mcpServers']"
check "claude CLAUDE_CONFIG_DIR --user: ~/.claude.json untouched" cmp "$HOME/.claude.json" \
  "$here/fixtures/home/.claude.json"
check "claude CLAUDE_CONFIG_DIR --prefer-hashline: \$CLAUDE_CONFIG_DIR/settings.json" \
  json_is "$ccd/settings.json" "d['permissions']['deny'] == ['Edit', 'Write', 'MultiEdit']"
check "claude CLAUDE_CONFIG_DIR --prefer-hashline: no ~/.claude/settings.json" test ! -e "$HOME/.claude"
PATH="$(dirname "$bin"):$PATH" CLAUDE_CONFIG_DIR="$ccd" "$bin" doctor >"$scratch/doctor.out" 2>&1 || true
check "doctor CLAUDE_CONFIG_DIR: the file Claude reads is registered" \
  grep -q "ok    claude (user): registered in $ccd/.claude.json" "$scratch/doctor.out"
PATH="$(dirname "$bin"):$PATH" "$bin" doctor >"$scratch/doctor.out" 2>&1 || true
check "doctor without CLAUDE_CONFIG_DIR: ~/.claude.json is not registered" \
  bash -c "! grep -q 'claude (user): registered' '$scratch/doctor.out'"
CLAUDE_CONFIG_DIR="$ccd" "$bin" setup claude --user --undo >/dev/null
check "claude CLAUDE_CONFIG_DIR --undo: both files as they were" test "$before" = "$(snapshot)"
# An entry in ~/.claude.json (setup run before CLAUDE_CONFIG_DIR was set) is one Claude ignores.
"$bin" setup claude --user >/dev/null
PATH="$(dirname "$bin"):$PATH" CLAUDE_CONFIG_DIR="$ccd" "$bin" doctor >"$scratch/doctor.out" 2>&1 &&
  status=0 || status=$?
check "doctor CLAUDE_CONFIG_DIR: an entry only in ~/.claude.json fails (exit 1)" test "$status" = 1
check "doctor CLAUDE_CONFIG_DIR: says Claude reads the other file, and the fix" \
  bash -c "grep -q 'CLAUDE_CONFIG_DIR is set: Claude Code reads $ccd/.claude.json instead' '$scratch/doctor.out' && grep -q 'fix: hashline setup claude --user' '$scratch/doctor.out'"

# --- codex: TOML table appended, comments and other tables byte-identical -------------------------
fresh
before="$(snapshot)"
"$bin" setup codex --dry-run >"$scratch/dry.out"
check "codex --dry-run writes nothing" test "$before" = "$(snapshot)"
check "codex --dry-run prints the diff" grep -qx '+\[mcp_servers.hashline\]' "$scratch/dry.out"
"$bin" setup codex --prefer-hashline >"$scratch/codex.out"
check "codex: the original is a prefix of the new file" \
  cmp -n "$(stat -c %s "$here/fixtures/home/.codex/config.toml")" "$HOME/.codex/config.toml" \
  "$here/fixtures/home/.codex/config.toml"
check "codex: table appended" grep -qx "command = \"$bin\"" "$HOME/.codex/config.toml"
check "codex: --prefer-hashline explains AGENTS.md" grep -q "AGENTS.md" "$scratch/codex.out"
check "codex: --project refused" bash -c "! '$bin' setup codex --project 2>/dev/null"
after="$(snapshot)"
"$bin" setup codex >/dev/null
check "codex: second run changes nothing" test "$after" = "$(snapshot)"
# A stale registration (another path) is replaced in place, its neighbours untouched.
sed -i "s|command = \"$bin\"|command = \"/old/hashline\"|" "$HOME/.codex/config.toml"
printf '\n[zzz]\nkey = 1\n' >>"$HOME/.codex/config.toml"
"$bin" setup codex >/dev/null
check "codex: stale table replaced in place" grep -qx "command = \"$bin\"" "$HOME/.codex/config.toml"
check "codex: one hashline table" test "$(grep -c '^\[mcp_servers.hashline\]' "$HOME/.codex/config.toml")" = 1
check "codex: the user's later table kept" grep -qx "key = 1" "$HOME/.codex/config.toml"
"$bin" setup codex --undo >/dev/null
check "codex: --undo after a user edit keeps the user's edit" grep -qx "key = 1" "$HOME/.codex/config.toml"
check "codex: --undo after a user edit removes hashline's table" \
  bash -c "! grep -q 'hashline' '$HOME/.codex/config.toml'"

# --- gemini: mcpServers and tools.exclude merged ------------------------------------------------
fresh
before="$(snapshot)"
"$bin" setup gemini --user --prefer-hashline >/dev/null
check "gemini: registered, other server kept" json_is "$HOME/.gemini/settings.json" \
  "d['mcpServers']['hashline']['args'] == ['mcp'] and 'git' in d['mcpServers'] and d['general']['vimMode']"
check "gemini: tools.exclude extended" json_is "$HOME/.gemini/settings.json" \
  "d['tools']['exclude'] == ['run_shell_command', 'replace', 'write_file']"
# The user edits the file afterwards: undo removes only hashline's entries.
python3 - "$HOME/.gemini/settings.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d['ui']['theme'] = 'Dracula'
json.dump(d, open(sys.argv[1], 'w'), indent=2)
PY
"$bin" setup gemini --user --undo >/dev/null
check "gemini: --undo after a user edit keeps the edit" json_is "$HOME/.gemini/settings.json" \
  "d['ui']['theme'] == 'Dracula' and 'hashline' not in d['mcpServers'] and d['tools']['exclude'] == ['run_shell_command'] and 'git' in d['mcpServers']"

# --- vscode-copilot: 4-space indentation kept ------------------------------------------------------
fresh
before="$(snapshot)"
"$bin" setup vscode-copilot >/dev/null
check "vscode-copilot: servers.hashline" json_is "$project/.vscode/mcp.json" \
  "d['servers']['hashline']['type'] == 'stdio' and 'playwright' in d['servers'] and d['inputs'] == []"
check "vscode-copilot: indentation kept" grep -q '^        "playwright"' "$project/.vscode/mcp.json"
printf '{\n  // a comment\n  "servers": {}\n}\n' >"$HOME/commented.json"
mkdir -p "$XDG_CONFIG_HOME/Code/User" && cp "$HOME/commented.json" "$XDG_CONFIG_HOME/Code/User/mcp.json"
check "vscode-copilot: a file with comments is refused, untouched" \
  bash -c "! '$bin' setup vscode-copilot --user 2>/dev/null && cmp '$HOME/commented.json' '$XDG_CONFIG_HOME/Code/User/mcp.json'"
rm "$HOME/commented.json" "$XDG_CONFIG_HOME/Code/User/mcp.json"
rmdir -p "$XDG_CONFIG_HOME/Code/User" 2>/dev/null || true
"$bin" setup vscode-copilot --undo >/dev/null
check "vscode-copilot: --undo restores byte-exact" test "$before" = "$(snapshot)"

# --- doctor --------------------------------------------------------------------------------------
if "$bin" doctor --help >/dev/null 2>&1; then
  fresh
  "$bin" doctor >"$scratch/doctor.out" 2>&1 && status=0 || status=$?
  check "doctor: unhealthy without registration (exit 1)" test "$status" = 1
  check "doctor: a fix line for the missing registration" grep -q "fix: hashline setup" "$scratch/doctor.out"
  check "doctor: the binary and its version" grep -q "hashline [0-9]" "$scratch/doctor.out"
  "$bin" setup claude >/dev/null
  PATH="$(dirname "$bin"):$PATH" "$bin" doctor >"$scratch/doctor2.out" 2>&1 && status=0 || status=$?
  check "doctor: registered claude (project) shown" grep -q "claude (project): registered" "$scratch/doctor2.out"
  check "doctor: healthy once registered and on PATH (exit 0)" test "$status" = 0
  # A registration whose command is gone is a problem with its fix.
  "$bin" setup claude --user >/dev/null
  sed -i "s|\"$bin\"|\"/gone/hashline\"|" "$HOME/.claude.json"
  PATH="$(dirname "$bin"):$PATH" "$bin" doctor >"$scratch/doctor3.out" 2>&1 && status=0 || status=$?
  check "doctor: a registration whose command is gone fails (exit 1)" test "$status" = 1
  check "doctor: its fix" grep -q "fix: hashline setup claude --user" "$scratch/doctor3.out"
fi

echo "setup suite: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
