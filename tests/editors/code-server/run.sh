#!/usr/bin/env bash
# Real-editor test of the VS Code extension: code-server 4.100.3 (VS Code 1.100.3, web) in headless
# Debian chromium, driven by playwright-core. Installs what is missing (install.sh), runs the
# extension's unit tests and builds its .vsix (npm ci, npm test, npm run package), installs it
# into a fresh code-server profile with files.autoSave off, starts code-server on a free loopback
# port and runs driver/drive.mjs (see there for the checks). Called by scripts/test with HASHLINE_BIN set.
# The part `claude` also runs the real Claude Code CLI (tests/editors/claude-ide/install.sh gives
# the binary; a failed install fails the run) with a private CLAUDE_CONFIG_DIR in the scratch dir,
# which code-server (and so the sidecar, for its lock file) gets too.
#
# Env: HASHLINE_BIN  the hashline binary (default: <repo>/build/hashline)
#      CS_PARTS      which parts run: mirror,tools,commands,cli,review,confirm,reconcile,eyes,claude,restart,chaos
#                    (default below, all but chaos, which scripts/chaos runs; parts left out print NOT RUN)
#      CS_TEST_DIR   scratch dir (default: a new /tmp/hashline-code-server.XXXXXX, kept on failure)
#      CS_CACHE      install cache (default: .cache next to this script)   CS_VERBOSE=1 more output
# Exit 0 only when every check that ran passed. If code-server cannot be installed, it says so and
# fails; it never skips.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export CS_CACHE="${CS_CACHE:-$here/.cache}"
HASHLINE_BIN="${HASHLINE_BIN:-$root/build/hashline}"
# Every part runs by default; leave one out (CS_PARTS=...) only to narrow down a failure.
CS_PARTS="${CS_PARTS:-mirror,tools,commands,cli,review,confirm,reconcile,eyes,claude,restart}"
cs_version=4.100.3

setup_failed() {
  echo "code-server test FAILED: $*" >&2
  echo "0 passed, 1 failed"
  exit 1
}

# 1. code-server, chromium, playwright-core
"$here/install.sh" || setup_failed "code-server $cs_version could not be installed (see the lines above)"
cs_bin="$CS_CACHE/code-server-$cs_version/node_modules/.bin/code-server"

# 2. the hashline binary and the extension package
case "$HASHLINE_BIN" in /*) ;; *) HASHLINE_BIN="$PWD/$HASHLINE_BIN" ;; esac
[ -x "$HASHLINE_BIN" ] || setup_failed "no hashline binary at $HASHLINE_BIN (build it, or set HASHLINE_BIN)"
export HASHLINE_BIN
ext="$root/editors/vscode"
stamp="$ext/node_modules/.hashline-lock"
if ! cmp -s "$ext/package-lock.json" "$stamp"; then
  (cd "$ext" && npm ci --no-audit --no-fund > "$CS_CACHE/vscode-npm-ci.log" 2>&1) ||
    { tail -20 "$CS_CACHE/vscode-npm-ci.log" >&2; setup_failed "npm ci in editors/vscode"; }
  cp "$ext/package-lock.json" "$stamp"
fi
(cd "$ext" && npm test > "$CS_CACHE/vscode-unit-tests.log" 2>&1) ||
  { grep -E -A12 '^not ok' "$CS_CACHE/vscode-unit-tests.log" >&2 || tail -30 "$CS_CACHE/vscode-unit-tests.log" >&2
    setup_failed "the extension's unit tests (npm test in editors/vscode)"; }
echo "code-server test: extension unit tests: $(grep -E '^# (pass|fail) ' "$CS_CACHE/vscode-unit-tests.log" | tr '\n' ' ')" >&2
(cd "$ext" && npm run package > "$CS_CACHE/vscode-package.log" 2>&1) ||
  { tail -30 "$CS_CACHE/vscode-package.log" >&2; setup_failed "npm run package in editors/vscode"; }
[ -f "$ext/hashline.vsix" ] || setup_failed "npm run package made no editors/vscode/hashline.vsix"

# 2b. Claude Code, for the part `claude` (install.sh prints only the binary's path)
CLAUDE_BIN=""
if [[ ",$CS_PARTS," == *",claude,"* ]]; then
  CLAUDE_BIN="$("$root/tests/editors/claude-ide/install.sh")" ||
    setup_failed "Claude Code could not be installed (tests/editors/claude-ide/install.sh, see the lines above)"
  [ -x "$CLAUDE_BIN" ] || setup_failed "tests/editors/claude-ide/install.sh gave no runnable binary: '$CLAUDE_BIN'"
fi

# 3. a fresh profile and workspace
T="${CS_TEST_DIR:-$(mktemp -d /tmp/hashline-code-server.XXXXXX)}"
rm -rf "$T" && mkdir -p "$T/ws" "$T/exts" "$T/user/User" "$T/hooks" "$T/state"
mkdir -m 0700 "$T/run"
# Claude Code's config dir (its lock files ide/<port>.lock, .claude.json) and HOME stay in here, never ~/.claude.
mkdir -p "$T/claude/home" && mkdir -m 0700 "$T/claude/config"
greek=(alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma
       tau upsilon phi chi psi omega)
for i in "${!greek[@]}"; do printf '%s %02d\n' "${greek[$i]}" $((i + 1)); done > "$T/ws/sample.txt"
cp "$ext/hashline.vsix" "$T/hashline.vsix"
"$cs_bin" --extensions-dir "$T/exts" --user-data-dir "$T/user" --install-extension "$T/hashline.vsix" --force \
  > "$T/install-extension.log" 2>&1 || { cat "$T/install-extension.log" >&2; setup_failed "code-server --install-extension"; }
ls "$T/exts" | grep -q '^hashline\.hashline-' || setup_failed "the .vsix did not install (see $T/install-extension.log)"
# VS Code *web* defaults files.autoSave to afterDelay; an unsaved-buffer test needs it off.
cat > "$T/user/User/settings.json" <<JSON
{
  "files.autoSave": "off",
  "hashline.path": "$HASHLINE_BIN",
  "hashline.logLevel": "debug",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "workbench.startupEditor": "none",
  "editor.quickSuggestions": { "other": "off", "comments": "off", "strings": "off" },
  "editor.wordBasedSuggestions": "off",
  "editor.suggestOnTriggerCharacters": false,
  "workbench.enableExperiments": false,
  "telemetry.telemetryLevel": "off",
  "security.workspace.trust.enabled": false,
  "hashline.claudeIde": "on"
}
JSON

# hashline.path is machine-overridable: after the extension rewrote a user setting (the confirm
# part switches one), code-server's extension host read it as unset unless the machine settings held it.
mkdir -p "$T/user/Machine"
printf '{\n  "hashline.path": "%s"\n}\n' "$HASHLINE_BIN" > "$T/user/Machine/settings.json"

# 4. code-server on a free loopback port. The sidecar it starts and the CLI the driver runs share
# a private runtime/state dir, so the CLI finds this sidecar and nothing else.
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
export XDG_RUNTIME_DIR="$T/run" XDG_STATE_HOME="$T/state" HASHLINE_VSCODE_TEST_DIR="$T/hooks"
export CLAUDE_CONFIG_DIR="$T/claude/config"
setsid "$cs_bin" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override --ignore-last-opened \
  --user-data-dir "$T/user" --extensions-dir "$T/exts" "$T/ws" > "$T/code-server.log" 2>&1 &
cs_pid=$!
cleanup() { kill -TERM -- "-$cs_pid" 2>/dev/null || true; wait "$cs_pid" 2>/dev/null || true; }
trap cleanup EXIT
up=0
for _ in $(seq 1 150); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then up=1; break; fi
  kill -0 "$cs_pid" 2>/dev/null || break
  sleep 0.2
done
[ "$up" = 1 ] || { tail -20 "$T/code-server.log" >&2; setup_failed "code-server did not come up on port $port"; }

# 5. the browser scenario
rc=0
CS_URL="http://127.0.0.1:$port/?folder=$T/ws" CS_WS="$T/ws" CS_TEST_DIR="$T" CS_PARTS="$CS_PARTS" \
  CLAUDE_BIN="$CLAUDE_BIN" CS_CLAUDE_DIR="$T/claude" node "$here/driver/drive.mjs" || rc=$?
cleanup; trap - EXIT
if [ "$rc" != 0 ]; then
  echo "--- code-server test failed; scratch dir kept: $T (driver.log, screen.png, code-server.log; the claude part: claude/tty.out, claude/requests.jsonl, claude/drive_claude.log)" >&2
  for f in $(find "$T/user/logs" -name '*hashline.log' 2>/dev/null | head -2); do
    echo "--- $f (last 30 lines)" >&2; tail -30 "$f" >&2
  done
else
  [ -n "${CS_TEST_DIR:-}" ] || rm -rf "$T"
fi
exit "$rc"
