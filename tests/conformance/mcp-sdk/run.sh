#!/usr/bin/env bash
# `hashline mcp` against the official MCP TypeScript SDK client (@modelcontextprotocol/sdk, pinned
# by package-lock.json): lists tools, reads, edits, and gets isError for a stale anchor.
# Needs HASHLINE_BIN (scripts/test sets it), else build/hashline; Node 18+ and npm.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${HASHLINE_BIN:-$here/../../../build/hashline}"
[ -x "$bin" ] || { echo "hashline binary not found: $bin (set HASHLINE_BIN)" >&2; exit 2; }
cd "$here"
npm ci --no-audit --no-fund --silent
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/ws" "$scratch/state" "$scratch/run"
export HASHLINE_STATE_DIR="$scratch/state" HASHLINE_RUNTIME_DIR="$scratch/run" HASHLINE_NO_SIDECAR=1
node client.mjs "$bin" "$scratch/ws"
