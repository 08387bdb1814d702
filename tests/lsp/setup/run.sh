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
CLAUDE_CONFIG_DIR="$ccd" "$bin" setup claude --user --undo >"$scratch/undo.out"
check "claude CLAUDE_CONFIG_DIR --undo: points at the ~/.claude.json entry made without it" \
  grep -q "note: setup also changed $HOME/.claude.json .*env -u CLAUDE_CONFIG_DIR hashline setup claude --user --undo" "$scratch/undo.out"
env -u CLAUDE_CONFIG_DIR "$bin" setup claude --user --undo >/dev/null
check "claude: that undo restores ~/.claude.json" cmp "$HOME/.claude.json" "$here/fixtures/home/.claude.json"

# --- claude --undo after Claude rewrote its config: found by name, command and args -----------
claude_rewrites() { # claude_rewrites FILE: what Claude Code does to ~/.claude.json at every start
  python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = d['mcpServers']['hashline']
d['mcpServers']['hashline'] = {'args': e['args'], 'env': {}, 'command': e['command'], 'type': e['type']}
d = {'firstStartTime': '2026-12-06T03:13:24.597Z', **d, 'userID': 'b2d9'}
d['numStartups'] += 1
d['projects']['/home/me/src/app']['lastCost'] = 0
open(sys.argv[1], 'w').write(json.dumps(d, indent=2))  # JSON.stringify: no newline at the end
PY
}
fresh
state_files() { find "$HASHLINE_STATE_DIR" -type f 2>/dev/null | wc -l; }
"$bin" setup claude --user --prefer-hashline >/dev/null
claude_rewrites "$HOME/.claude.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); del d['mcpServers']['hashline']; json.dump(d, open(sys.argv[2], 'w'))" \
  "$HOME/.claude.json" "$scratch/expected.json"
cp "$HOME/.claude.json" "$scratch/rewritten.json"
"$bin" setup claude --user --undo --dry-run >"$scratch/dry.out"
check "claude --undo --dry-run after Claude's rewrite: the entry's removal, nothing written" \
  bash -c "grep -q '^-  *\"hashline\": {' '$scratch/dry.out' && cmp '$HOME/.claude.json' '$scratch/rewritten.json'"
"$bin" setup claude --user --undo >"$scratch/undo.out"
check "claude --undo after Claude's rewrite: says it removed the entry" \
  grep -qx "removed hashline from: $HOME/.claude.json" "$scratch/undo.out"
check "claude --undo after Claude's rewrite: exactly hashline's entry is gone, Claude's keys kept" \
  python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))" \
  "$HOME/.claude.json" "$scratch/expected.json"
check "claude --undo after Claude's rewrite: the backup is gone" test ! -e "$HOME/.claude.json.hashline-backup"
check "claude --undo: the settings.json it created is gone, and the ~/.claude/ it created" test ! -e "$HOME/.claude"
check "claude --undo: no record left" test "$(state_files)" = 0
"$bin" setup claude --user --undo >"$scratch/undo2.out"
check "claude: a second --undo says nothing is left, removes nothing" \
  bash -c "grep -qx 'nothing left to undo: $HOME/.claude.json' '$scratch/undo2.out' && ! grep -q removed '$scratch/undo2.out'"
# setup again on the rewritten file: the same entry in another key order is "already set up".
"$bin" setup claude --user >/dev/null
claude_rewrites "$HOME/.claude.json"
"$bin" setup claude --user >"$scratch/again.out"
check "claude: setup after Claude's rewrite finds its entry (already set up)" grep -q "already set up" "$scratch/again.out"
# An undo interrupted after it wrote the file (record and backup still there) is finished by the next.
cp -r "$HASHLINE_STATE_DIR" "$scratch/state-copy"
cp "$HOME/.claude.json.hashline-backup" "$scratch/backup-copy"
"$bin" setup claude --user --undo >/dev/null
rm -rf "$HASHLINE_STATE_DIR" && cp -r "$scratch/state-copy" "$HASHLINE_STATE_DIR"
cp "$scratch/backup-copy" "$HOME/.claude.json.hashline-backup"
cp "$HOME/.claude.json" "$scratch/undone.json"
"$bin" setup claude --user --undo >"$scratch/finish.out"
check "claude: --undo finishes an interrupted undo without claiming a removal" \
  bash -c "grep -q 'already gone from $HOME/.claude.json: the undo is finished' '$scratch/finish.out' && ! grep -q '^removed' '$scratch/finish.out'"
check "claude: the finished undo leaves the file, drops backup and record" \
  bash -c "cmp '$HOME/.claude.json' '$scratch/undone.json' && test ! -e '$HOME/.claude.json.hashline-backup' && test \"\$(find '$HASHLINE_STATE_DIR' -type f | wc -l)\" = 0"
check "claude: then nothing left to undo" bash -c "'$bin' setup claude --user --undo | grep -qx 'nothing left to undo: $HOME/.claude.json'"
# Another command under hashline's name is not setup's: undo leaves it and says so.
"$bin" setup claude --user >/dev/null
sed -i "s|\"$bin\"|\"/opt/other/hashline\"|" "$HOME/.claude.json"
"$bin" setup claude --user --undo >"$scratch/foreign.out"
check "claude: --undo leaves an entry with another command, and says so" \
  bash -c "grep -q 'another value than setup wrote' '$scratch/foreign.out' && ! grep -q '^removed' '$scratch/foreign.out' && grep -q /opt/other/hashline '$HOME/.claude.json'"
# An entry setup has no record of: not removed, and not "nothing to undo".
fresh
printf '{\n  "mcpServers": {\n    "hashline": {"type": "stdio", "command": "%s", "args": ["mcp"]}\n  }\n}\n' "$bin" >"$project/.mcp.json"
cp "$project/.mcp.json" "$scratch/hand.json"
"$bin" setup claude --undo >"$scratch/hand.out"
check "claude --undo: an entry without a record is reported, not removed" \
  bash -c "grep -q 'not undone: $project/.mcp.json holds hashline' '$scratch/hand.out' && cmp '$project/.mcp.json' '$scratch/hand.json'"

# --- claude --local: the user file's projects["<dir>"] entry, undone apart from --user ------------
fresh
before="$(snapshot)"
"$bin" setup claude --local --prefer-hashline >/dev/null
"$bin" setup claude --user >/dev/null
check "claude --local: projects[dir].mcpServers.hashline, the others kept" json_is "$HOME/.claude.json" \
  "d['projects']['$project']['mcpServers']['hashline']['command'] == '$bin' and d['projects']['/home/me/src/app']['hasTrustDialogAccepted'] and d['mcpServers']['hashline']['args'] == ['mcp']"
check "claude --local --prefer-hashline: .claude/settings.local.json" json_is "$project/.claude/settings.local.json" \
  "d['permissions']['deny'] == ['Edit', 'Write', 'MultiEdit']"
"$bin" setup claude --user --undo >/dev/null
check "claude --user --undo leaves the --local entry" json_is "$HOME/.claude.json" \
  "'hashline' not in d['mcpServers'] and d['projects']['$project']['mcpServers']['hashline']['args'] == ['mcp']"
"$bin" setup claude --local --undo >/dev/null
check "claude --local --undo: then every file byte-exact" test "$before" = "$(snapshot)"
check "setup --local is Claude Code's only" bash -c "! '$bin' setup gemini --local 2>&1 | grep -q registered"

# --- undo removes the directories setup created once empty ---------------------------------------
fresh
mkdir -p "$scratch/case/bare"
"$bin" setup claude --prefer-hashline --project-dir "$scratch/case/bare" >/dev/null
check "claude --project in a bare folder: .mcp.json and .claude/settings.json" \
  test -f "$scratch/case/bare/.mcp.json" -a -f "$scratch/case/bare/.claude/settings.json"
"$bin" setup claude --undo --project-dir "$scratch/case/bare" >/dev/null
check "claude --undo: the bare folder is bare again (no .claude/)" test -z "$(ls -A "$scratch/case/bare")"
"$bin" setup claude --prefer-hashline --project-dir "$scratch/case/bare" >/dev/null
echo '{}' >"$scratch/case/bare/.claude/settings.local.json" # Claude's own file in that directory
"$bin" setup claude --undo --project-dir "$scratch/case/bare/" >/dev/null
check "claude --undo: a created directory holding Claude's file stays, with only that file" \
  test "$(ls -A "$scratch/case/bare/.claude")" = settings.local.json

# --- opencode: the same identity-based undo after opencode rewrote its file ------------------
fresh
mkdir -p "$XDG_CONFIG_HOME/opencode"
printf '{\n  "model": "anthropic/claude-sonnet-4"\n}\n' >"$XDG_CONFIG_HOME/opencode/opencode.json"
"$bin" setup opencode --user >/dev/null
python3 - "$XDG_CONFIG_HOME/opencode/opencode.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = d['mcp']['hashline']
d['mcp']['hashline'] = {'enabled': True, 'command': e['command'], 'type': 'local', 'timeout': 5000}
d['autoupdate'] = False
json.dump(d, open(sys.argv[1], 'w'), indent=4)
PY
"$bin" setup opencode --user --undo >"$scratch/undo.out"
# ("$schema" goes too: setup set it, the file lacked it.)
check "opencode --undo after a rewrite: only hashline's entry goes" json_is "$XDG_CONFIG_HOME/opencode/opencode.json" \
  "d == {'model': 'anthropic/claude-sonnet-4', 'autoupdate': False}"
check "opencode --undo after a rewrite: says so, backup gone" \
  bash -c "grep -qx 'removed hashline from: $XDG_CONFIG_HOME/opencode/opencode.json' '$scratch/undo.out' && test ! -e '$XDG_CONFIG_HOME/opencode/opencode.json.hashline-backup'"
check "opencode: a second --undo says nothing is left" \
  bash -c "'$bin' setup opencode --user --undo | grep -qx 'nothing left to undo: $XDG_CONFIG_HOME/opencode/opencode.json'"

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
  "$bin" setup claude >"$scratch/setup.out"
  check "setup claude --project: says .mcp.json waits for approval" grep -q "pending approval" "$scratch/setup.out"
  doctor() { PATH="$(dirname "$bin"):$PATH" "$bin" doctor >"$scratch/doctor2.out" 2>&1 && status=0 || status=$?; }
  doctor
  check "doctor: .mcp.json not yet approved is pending, a problem (exit 1)" test "$status" = 1
  check "doctor: pending approval, and how to fix it" bash -c "grep -q 'claude (project): registered in $project/.mcp.json .*pending approval' '$scratch/doctor2.out' && grep -q 'fix: run .claude. in $project and approve hashline .*hashline setup claude --local' '$scratch/doctor2.out'"
  # Approval in the project's local settings counts only in a trusted folder (as Claude Code 2.1.332).
  printf '{"enabledMcpjsonServers": ["hashline"]}\n' >"$project/.claude/settings.local.json"
  doctor
  check "doctor: approved in an untrusted folder's settings.local.json is still pending" \
    grep -q "claude (project): .*pending approval" "$scratch/doctor2.out"
  python3 - "$HOME/.claude.json" "$project" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d['projects'][sys.argv[2]] = {'hasTrustDialogAccepted': True}
json.dump(d, open(sys.argv[1], 'w'), indent=2)
PY
  doctor
  check "doctor: approved in a trusted folder's settings.local.json" \
    grep -q "ok    claude (project): registered in $project/.mcp.json ($bin), approved in $project/.claude/settings.local.json" "$scratch/doctor2.out"
  check "doctor: healthy once registered, approved and on PATH (exit 0)" test "$status" = 0
  printf '{"enableAllProjectMcpServers": true}\n' >"$project/.claude/settings.local.json"
  mkdir -p "$HOME/.claude"
  printf '{"disabledMcpjsonServers": ["hashline"]}\n' >"$HOME/.claude/settings.json"
  doctor
  check "doctor: disabled in the user's settings wins, with its fix" bash -c "grep -q 'claude (project): .*but disabled in $HOME/.claude/settings.json' '$scratch/doctor2.out' && grep -q 'fix: take \"hashline\" out of disabledMcpjsonServers' '$scratch/doctor2.out' && test '$status' = 1"
  printf '{"enabledMcpjsonServers": ["hashline"]}\n' >"$HOME/.claude/settings.json"
  rm "$project/.claude/settings.local.json"
  doctor
  check "doctor: approved in the user's settings, trusted or not" \
    grep -q "ok    claude (project): .*approved in $HOME/.claude/settings.json" "$scratch/doctor2.out"
  "$bin" setup claude --local >/dev/null
  doctor
  check "doctor: the local scope (the user file's projects entry)" \
    grep -q "ok    claude (local): registered in $HOME/.claude.json projects\\[\"$project\"\\] ($bin)" "$scratch/doctor2.out"
  # A registration whose command is gone is a problem with its fix.
  "$bin" setup claude --user >/dev/null
  sed -i "s|\"$bin\"|\"/gone/hashline\"|" "$HOME/.claude.json"
  PATH="$(dirname "$bin"):$PATH" "$bin" doctor >"$scratch/doctor3.out" 2>&1 && status=0 || status=$?
  check "doctor: a registration whose command is gone fails (exit 1)" test "$status" = 1
  check "doctor: its fix" grep -q "fix: hashline setup claude --user" "$scratch/doctor3.out"
fi

echo "setup suite: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
