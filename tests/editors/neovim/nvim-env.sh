# Sourced by every Neovim suite's run.sh: which nvim runs the suite, its version, the
# deprecation check (guard.lua), and the whole run of a suite (nvim_suite_run). scripts/test runs
# each suite once per version scripts/get-nvim provides, with HASHLINE_NVIM set; by hand:
# HASHLINE_NVIM=/path/to/nvim tests/editors/<suite>/run.sh
#   nvim_bin            $HASHLINE_NVIM, else `nvim` on PATH
#   nvim_version        e.g. 0.12.4 (empty when that nvim does not run)
#   nvim_guard          arguments that load guard.lua first: "$nvim_bin" "${nvim_guard[@]}" ...
#   nvim_guard_init SUITE DIR   prints "SUITE: Neovim <version> (<path>)", starts
#                       DIR/deprecations.txt; returns 1 (with the reason) when nvim does not run
#   nvim_guard_check OUT...     prints every deprecation guard.lua recorded and every line of the
#                       files OUT (nvim's stdout/stderr) that mentions one; returns 1 if any
#   nvim_suite_run [--plain] [--timeout S] NAME MIN_PASSES LUA_FILE [VAR=VALUE...] [LUA_FILE ...]
#                       runs a suite whose Lua files write "PASS name" / "FAIL name: why" /
#                       "NOTE ..." lines to $RESULTS (common.lua); see below
nvim_bin="${HASHLINE_NVIM:-nvim}"
# Each nvim finds its own runtime next to its binary; an inherited VIMRUNTIME (a shell started
# inside another Neovim) would hand it another version's runtime.
unset VIMRUNTIME VIM
nvim_version="$("$nvim_bin" --version 2>/dev/null | head -1 | sed -n 's/^NVIM v\([0-9][0-9.]*\).*/\1/p')"
nvim_env_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
nvim_guard=(--cmd "luafile $nvim_env_dir/guard.lua")

nvim_guard_init() {
  local suite=$1 dir=$2
  if [ -z "$nvim_version" ]; then
    echo "$suite: cannot run Neovim '$nvim_bin' (install neovim, or point HASHLINE_NVIM at an nvim; scripts/get-nvim lists the tested ones)" >&2
    return 1
  fi
  export HASHLINE_NVIM_DEPRECATIONS="$dir/deprecations.txt"
  mkdir -p "$dir" && : > "$HASHLINE_NVIM_DEPRECATIONS"
  echo "$suite: Neovim $nvim_version ($(command -v "$nvim_bin" || echo "$nvim_bin"))"
}

nvim_guard_check() {
  local found=0 out
  if [ -s "${HASHLINE_NVIM_DEPRECATIONS:-/nonexistent}" ]; then
    echo "FAIL deprecated API used on Neovim $nvim_version:"
    sed 's/^/  /' "$HASHLINE_NVIM_DEPRECATIONS"
    found=1
  fi
  for out in "$@"; do
    [ -f "$out" ] || continue
    if grep -qi 'deprecat' "$out"; then
      echo "FAIL deprecation message in $(basename "$out") on Neovim $nvim_version:"
      grep -i 'deprecat' "$out" | head -20 | sed 's/^/  /'
      found=1
    fi
  done
  return $found
}

# nvim_suite_run [--plain] [--timeout SECONDS] NAME MIN_PASSES LUA_FILE [VAR=VALUE...] [LUA_FILE [VAR=VALUE...]]...
# One suite, start to end. In a fresh work dir /tmp/hashline-NAME.XXXXXX with private runtime and
# state dirs (the CLI finds only this run's sidecars), each LUA_FILE runs in its own
# `nvim --headless --clean -n -i NONE` (guard.lua first; editors/nvim first on 'runtimepath'
# unless --plain, for the suites that run a plain LSP client), at most SECONDS (default 180),
# with WORK=<work dir>/<file name without _test.lua>, RESULTS, HASHLINE_BIN, REPO_ROOT and the
# VAR=VALUE words after it in its environment (the same file may come twice, with other words).
# An nvim that exits non-zero or writes no line adds "FAIL <run>: nvim exited ...", a deprecation
# adds FAIL lines (nvim_guard_check), fewer than MIN_PASSES passes adds "FAIL NAME: ...". Prints
# the lines, then (when defined) the output of the function nvim_suite_report RESULTS WORKDIR,
# then "NAME: N passed, M failed (T s, Neovim V)". Returns 0 when nothing failed (and removes the
# work dir unless KEEP=1), 1 on a failure (the work dir kept, each nvim's output shown on
# stderr), 2 when the hashline binary ($HASHLINE_BIN, default build/hashline) or nvim cannot run.
nvim_suite_run() {
  local plain=0 limit=180
  while [ $# -gt 0 ]; do
    case "$1" in
      --plain) plain=1; shift ;;
      --timeout) limit=$2; shift 2 ;;
      *) break ;;
    esac
  done
  local name=$1 min=$2
  shift 2
  local root bin
  root="$(cd "$nvim_env_dir/../../.." && pwd)"
  bin="${HASHLINE_BIN:-$root/build/hashline}"
  case "$bin" in
    /*) ;;
    *) if [ -x "$PWD/$bin" ]; then bin="$PWD/$bin"; else bin="$root/$bin"; fi ;;
  esac
  if [ ! -x "$bin" ]; then
    echo "$name: no hashline binary at $bin (build it, or set HASHLINE_BIN)" >&2
    return 2
  fi
  local work
  work="$(mktemp -d "/tmp/hashline-$name.XXXXXX")"
  if ! nvim_guard_init "$name" "$work"; then
    rm -rf "$work"
    return 2
  fi
  local results="$work/results.txt" start=$SECONDS
  : > "$results"
  mkdir -p "$work/run" "$work/state" && chmod 700 "$work/run"
  local rtp=()
  [ "$plain" = 1 ] || rtp=(--cmd "set rtp^=$root/editors/nvim")
  local args=("$@") i=0 file base run n before rc
  local -a vars
  while [ "$i" -lt ${#args[@]} ]; do
    file=${args[$i]}
    i=$((i + 1))
    vars=()
    while [ "$i" -lt ${#args[@]} ] && [[ ${args[$i]} =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do
      vars+=("${args[$i]}")
      i=$((i + 1))
    done
    base="$(basename "$file" .lua)"
    base=${base%_test}
    run=$base
    n=1
    while [ -e "$work/$run" ]; do
      n=$((n + 1))
      run="$base-$n"
    done
    mkdir -p "$work/$run"
    before=$(wc -l < "$results")
    rc=0
    env -u HASHLINE_NO_SIDECAR -u HASHLINE_WORKSPACE -u HASHLINE_SESSION -u HASHLINE_AGENT \
      -u CLAUDE_CODE_SSE_PORT -u ENABLE_IDE_INTEGRATION \
      HASHLINE_RUNTIME_DIR="$work/run" HASHLINE_STATE_DIR="$work/state" \
      XDG_RUNTIME_DIR="$work/run" XDG_STATE_HOME="$work/state" \
      WORK="$work/$run" RESULTS="$results" HASHLINE_BIN="$bin" REPO_ROOT="$root" "${vars[@]}" \
      timeout "$limit" "$nvim_bin" "${nvim_guard[@]}" --headless --clean -n -i NONE "${rtp[@]}" \
        -c "luafile $file" > "$work/$run.out" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ] || [ "$(wc -l < "$results")" -eq "$before" ]; then
      echo "FAIL $run: nvim exited $rc$([ "$rc" -eq 124 ] && echo " (timeout after $limit s)"): $(tail -c 800 "$work/$run.out" | tr '\n' ' ')" >> "$results"
    fi
  done
  nvim_guard_check "$work"/*.out >> "$results" || true
  local passed failed
  passed=$(grep -c '^PASS' "$results" || true)
  failed=$(grep -c '^FAIL' "$results" || true)
  if [ "$failed" -eq 0 ] && [ "$passed" -lt "$min" ]; then
    echo "FAIL $name: $passed checks passed, want at least $min (a check stopped running?)" >> "$results"
    failed=1
  fi
  cat "$results"
  if declare -F nvim_suite_report > /dev/null; then
    nvim_suite_report "$results" "$work"
  fi
  echo "$name: $passed passed, $failed failed ($((SECONDS - start)) s, Neovim $nvim_version)"
  if [ "$failed" -ne 0 ]; then
    local out
    for out in "$work"/*.out; do
      [ -s "$out" ] || continue
      echo "--- $out (last 40 lines)" >&2
      tail -n 40 "$out" >&2
      echo >&2
    done
    echo "$name: FAILED (work dir kept: $work)" >&2
    return 1
  fi
  [ "${KEEP:-0}" = 1 ] || rm -rf "$work"
  return 0
}
