#!/usr/bin/env bash
# The 25 codex apply_patch scenarios through the real CLI on disk: `hashline patch` in a fresh
# copy of each scenario's input/, compared with expected/ (same files, identical bytes).
# 015 is the deliberate difference (see README.md): hashline refuses the whole patch and the
# work directory stays empty. Needs HASHLINE_BIN (scripts/test sets it), else build/hashline.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${HASHLINE_BIN:-$here/../../../build/hashline}"
[ -x "$bin" ] || { echo "hashline binary not found: $bin (set HASHLINE_BIN)" >&2; exit 2; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export HASHLINE_STATE_DIR="$scratch/state" HASHLINE_RUNTIME_DIR="$scratch/run"
export HASHLINE_NO_SIDECAR=1 # never route into an editor that happens to run here
mkdir -p "$HASHLINE_STATE_DIR" "$HASHLINE_RUNTIME_DIR"

passed=0 failed=0 total=0
for scenario in "$here"/scenarios/*/; do
  name="$(basename "$scenario")"
  total=$((total + 1))
  work="$scratch/work/$name"
  mkdir -p "$work"
  [ -d "$scenario/input" ] && cp -a "$scenario/input/." "$work/"
  # An agent reads before it edits (patches need a read too, like every form): read every file.
  (cd "$work" && find . -type f -printf '%P\n' | while read -r file; do
     "$bin" read --workspace "$work" "$file" >/dev/null 2>&1 || true; done)
  set +e
  (cd "$work" && "$bin" patch --workspace "$work" "$scenario/patch.txt") >"$scratch/out" 2>"$scratch/err"
  code=$?
  ok=1
  if [ "$name" = "015_failure_after_partial_success_leaves_changes" ]; then
    # Refused whole: exit 1, nothing created.
    [ "$code" -eq 1 ] || { echo "  expected exit 1, got $code"; ok=0; }
    if [ -n "$(ls -A "$work")" ]; then echo "  work directory not empty:"; ls -A "$work"; ok=0; fi
  else
    expected="$scenario/expected"
    if [ -d "$expected" ]; then
      if ! diff -r "$expected" "$work" >"$scratch/diff" 2>&1; then ok=0; cat "$scratch/diff" | head -20; fi
    elif [ -n "$(ls -A "$work")" ]; then
      echo "  expected an empty tree"; ok=0
    fi
    # Patches that must fail exit 1 (refused), never 0 or a crash.
    if [ -d "$scenario/input" ] && diff -r "$scenario/input" "$work" >/dev/null 2>&1 &&
       [ -d "$expected" ] && diff -r "$scenario/input" "$expected" >/dev/null 2>&1; then
      [ "$code" -eq 1 ] || { echo "  a refused patch must exit 1, got $code"; ok=0; }
    elif [ "$ok" -eq 1 ] && [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
      echo "  unexpected exit $code"; ok=0
    fi
  fi
  if [ "$ok" -eq 1 ]; then
    passed=$((passed + 1)); echo "ok   $name (exit $code)"
  else
    failed=$((failed + 1)); echo "FAIL $name (exit $code)"; sed 's/^/  stderr: /' "$scratch/err" | head -5
  fi
done
echo "codex-apply-patch: $passed passed, $failed failed"
[ "$total" -eq 25 ] || { echo "expected 25 scenarios, found $total" >&2; exit 1; }
[ "$failed" -eq 0 ]
