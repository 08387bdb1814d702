#!/usr/bin/env bash
# Installs Claude Code for the suites that run it (claude-ide; code-server calls it too),
# idempotently: @anthropic-ai/claude-code as pinned in package.json / package-lock.json next to
# this script, with `npm ci --no-audit --no-fund --ignore-scripts` into node_modules/ here when
# that does not hold exactly the pinned packages (a finished install takes about 1 s to check).
# Needs node, npm and python3 (drive_claude.py) and the npm registry.
# The binary: the package's bin/claude.exe is only a placeholder that its postinstall script
# (install.cjs, skipped by --ignore-scripts) replaces with the native binary of the platform's
# optional dependency @anthropic-ai/claude-code-linux-<arch>; that native binary is what runs.
# Contract: on success prints only the absolute path of that binary on stdout (after checking
# that `claude --version` runs) and exits 0; otherwise exits 1 with
# "claude-ide install FAILED: ..." on stderr. Progress and npm's output go to stderr.
set -euo pipefail
unset CDPATH
here="$(cd "$(dirname "$0")" && pwd)"
fail() { echo "claude-ide install FAILED: $*" >&2; exit 1; }

for tool in node npm python3; do
  command -v "$tool" > /dev/null || fail "$tool is not installed (Debian: apt-get install nodejs npm python3)"
done
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) fail "no Claude Code native package for $(uname -sm)" ;;
esac
claude="$here/node_modules/@anthropic-ai/claude-code-linux-$arch/claude"

if [ ! -x "$claude" ] || ! (cd "$here" && npm ls --silent > /dev/null 2>&1); then
  echo "claude-ide: npm ci --ignore-scripts (@anthropic-ai/claude-code $(cd "$here" && node -p 'require("./package.json").dependencies["@anthropic-ai/claude-code"]'))" >&2
  if ! log="$(cd "$here" && timeout 600 npm ci --no-audit --no-fund --ignore-scripts 2>&1)"; then
    printf '%s\n' "$log" | tail -20 >&2
    fail "npm ci of @anthropic-ai/claude-code in $here failed (is the npm registry reachable?)"
  fi
  [ -x "$claude" ] || fail "npm ci installed no $claude (was the optional dependency left out, e.g. omit=optional in an .npmrc?)"
fi
if ! version="$(cd /tmp && timeout 60 "$claude" --version 2>&1)"; then
  fail "the installed claude does not run ($claude --version): $version"
fi
echo "$claude"
