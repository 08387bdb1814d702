#!/usr/bin/env bash
# `hashline setup opencode|copilot|pi` checked with the real CLIs (npm, pinned in package.json /
# package-lock.json, `npm ci` here): per agent, in a scratch HOME, setup registers hashline, the
# CLI runs non-interactively (opencode run, copilot -p with COPILOT_OFFLINE, pi -p) against
# chat_model.mjs, a scripted local OpenAI-compatible endpoint, whose model calls the hashline read
# tool on a 31-line file and then the edit tool with an anchor copied from the read; the edit must
# reach the file, and `setup --undo` must leave every file of the home and project as before.
# Then the same run while the editor's sidecar is gone (a record whose sidecar died while its
# editor runs): the read reaches the model with the SIDECAR_GONE warning first, the edit comes
# back refused SIDECAR_GONE, and the file is untouched — MCP (opencode, Copilot) and pi alike.
# Prints the bytes each CLI handed the model for the read beside the plain `hashline read`.
# Not yet: the run beside headless Neovim with unsaved typing (see README.md).
# Usage: HASHLINE_BIN=build/hashline tests/editors/agent-setup/run.sh   (AGENTS=opencode,pi,copilot)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin="${HASHLINE_BIN:-$root/build/hashline}"
case "$bin" in /*) ;; *) bin="$root/$bin" ;; esac
[ -x "$bin" ] || { echo "agent-setup: no hashline binary at $bin (set HASHLINE_BIN)" >&2; exit 2; }
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "FAIL agent-setup: node/npm not installed, so the agent CLIs cannot be installed (apt-get install -y nodejs npm)"; exit 1
fi
if ! (cd "$here" && npm ls --silent >/dev/null 2>&1); then
  # npm ci refuses this lock file where the registry lacks the CLIs' other-platform optional
  # packages (opencode-darwin-*, ...: "Missing ... from lock file"); npm install --no-save then
  # installs the same pinned versions from it without rewriting it.
  if ! log="$(cd "$here" && { timeout 900 npm ci --no-audit --no-fund 2>&1 ||
    timeout 900 npm install --no-save --no-audit --no-fund 2>&1; })"; then
    echo "FAIL agent-setup: npm ci failed (is the npm registry reachable?): $(echo "$log" | tail -3 | tr '\n' ' ')"; exit 1
  fi
fi
nm="$here/node_modules/.bin"
work="$(mktemp -d /tmp/hashline-agent-setup.XXXXXX)"
trap '[ "${KEEP:-0}" = 1 ] || rm -rf "$work"' EXIT
passed=0 failed=0
check() { # check NAME COMMAND...
  local name="$1"; shift
  if "$@" >"$work/check.out" 2>&1; then passed=$((passed + 1)); echo "PASS $name"
  else failed=$((failed + 1)); echo "FAIL $name"; sed 's/^/  /' "$work/check.out" | tail -20; fi
}
snapshot() { (cd "$1" && find home project -type f ! -path '*/.cache/*' ! -path '*/state/*' -print0 | sort -z | xargs -0 sha256sum); }
start=$(date +%s)
no_trace() { # no_trace CASE FILE...: each FILE as in CASE/before.sha (absent if it was), no backup
  local case="$1" f want left; shift
  for f in "$@"; do
    want="$(awk -v p="${f#"$case/"}" '$2 == p {print $1}' "$case/before.sha")"
    if [ -z "$want" ]; then
      [ ! -e "$f" ] || { echo "$f left behind:"; cat "$f"; return 1; }
    else
      [ "$(sha256sum <"$f" | cut -d' ' -f1)" = "$want" ] || { echo "$f changed:"; cat "$f"; return 1; }
    fi
  done
  left="$(find "$case/home" "$case/project" -name '*.hashline-backup' -o -name '*.hashline-tmp')"
  [ -z "$left" ] || { echo "left behind: $left"; return 1; }
  [ "$#" -gt 0 ] || { echo "setup registered no file"; return 1; }
}

model=""
start_model() { # start_model CASE LOG AGENT: the scripted endpoint on CASE/port ($model: its pid)
  rm -f "$1/port"
  node "$here/chat_model.mjs" "$1/port" "$1/$2" a.txt 5 "line 5, edited by $3" &
  model=$!
  for _ in $(seq 50); do [ -s "$1/port" ] && break; sleep 0.1; done
}

run_cli() { # run_cli AGENT CASE PORT OUT: the agent CLI, non-interactive, on the prompt
  local agent="$1" case="$2" port="$3" out="$2/$4"
  case "$agent" in
    opencode) (cd "$case/project" && OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1 \
      timeout 180 "$nm/opencode" run -m fake/fake-model "Edit a.txt with the hashline tools.") >"$out" 2>&1 ;;
    pi) (cd "$case/project" && HASHLINE_BIN="$bin" timeout 180 "$nm/pi" -p --provider fake --model fake-model \
      "Edit a.txt with the hashline tools.") >"$out" 2>&1 ;;
    copilot) (cd "$case/project" && COPILOT_OFFLINE=true COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$port/v1" \
      COPILOT_PROVIDER_API_KEY=k COPILOT_MODEL=fake-model COPILOT_AUTO_UPDATE=false \
      timeout 180 "$nm/copilot" -p "Edit a.txt with the hashline tools." --allow-all-tools) >"$out" 2>&1 ;;
  esac
}

sidecar_gone() { # sidecar_gone AGENT CASE PORT: the same run while the editor's sidecar is gone
  # (issue 31): a discovery record whose sidecar died while its editor — a sleep standing in for
  # it — runs. The read must reach the model with the SIDECAR_GONE warning first, the edit come
  # back refused with SIDECAR_GONE, and a.txt stay byte for byte as it was.
  local agent="$1" case="$2" port="$3"
  sleep 600 & local editor=$!
  local dead; dead="$(sh -c 'echo $$')" # a process that has exited
  local project; project="$(realpath "$case/project")"
  printf '{"pid":%s,"roots":["%s"],"socket":"%s/sidecar-%s.sock","version":"test","started":"x","editorPid":%s}\n' \
    "$dead" "$project" "$HASHLINE_RUNTIME_DIR" "$dead" "$editor" >"$HASHLINE_RUNTIME_DIR/sidecar-$dead.json"
  cp "$case/project/a.txt" "$case/a.before"
  # The endpoint must listen on the port the CLI's provider config names.
  kill "$model" 2>/dev/null; wait "$model" 2>/dev/null
  node "$here/chat_model.mjs" "$case/port.gone" "$case/gone.jsonl" a.txt 5 "line 5, edited by $agent" "$port" &
  model=$!
  for _ in $(seq 50); do [ -s "$case/port.gone" ] && break; sleep 0.1; done
  run_cli "$agent" "$case" "$port" gone.out
  kill "$model" "$editor" 2>/dev/null; wait "$model" "$editor" 2>/dev/null
  rm -f "$HASHLINE_RUNTIME_DIR/sidecar-$dead.json"
  check "$agent: sidecar gone: a.txt untouched" cmp "$case/a.before" "$case/project/a.txt"
  check "$agent: sidecar gone: the read warns SIDECAR_GONE first, the edit is refused SIDECAR_GONE" \
    python3 - "$case/gone.jsonl" <<'PY'
import json, sys
def text(m):
    c = m.get("content")
    return c if isinstance(c, str) else "".join(p.get("text", "") for p in (c or []))
results = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    results = [text(m) for m in r["body"].get("messages", []) if m.get("role") == "tool"] or results
if len(results) < 2: sys.exit("want a read and an edit result, got %d: %r" % (len(results), results))
if not results[0].startswith("warning: SIDECAR_GONE: "): sys.exit("read result: " + results[0][:300])
if "SIDECAR_GONE: " not in results[1]: sys.exit("edit result: " + results[1][:300])
print("read: " + results[0].splitlines()[0][:120]); print("edit: " + results[1][:120])
PY
}

run_agent() { # run_agent NAME: one scratch home + project, setup, CLI run, checks, undo
  local agent="$1" case="$work/$1"
  mkdir -p "$case/home" "$case/project/.git" "$case/state" "$case/run" && chmod 700 "$case/run"
  export HOME="$case/home" HASHLINE_STATE_DIR="$case/state" HASHLINE_RUNTIME_DIR="$case/run"
  export XDG_RUNTIME_DIR="$case/run" XDG_CONFIG_HOME="$case/home/.config"
  unset COPILOT_HOME PI_CODING_AGENT_DIR HASHLINE_SESSION
  seq -f "line %g of a.txt" 31 >"$case/project/a.txt"
  start_model "$case" requests.jsonl "$agent"
  local port; port="$(cat "$case/port")"
  # The provider config each CLI needs for the local endpoint (not hashline's business).
  case "$agent" in
    opencode)
      mkdir -p "$XDG_CONFIG_HOME/opencode"
      printf '{"provider":{"fake":{"npm":"@ai-sdk/openai-compatible","name":"fake","options":{"baseURL":"http://127.0.0.1:%s/v1","apiKey":"k"},"models":{"fake-model":{"name":"fake","tool_call":true}}}},"model":"fake/fake-model"}\n' "$port" \
        >"$XDG_CONFIG_HOME/opencode/opencode.json" ;;
    pi)
      mkdir -p "$HOME/.pi/agent"
      printf '{"providers":{"fake":{"baseUrl":"http://127.0.0.1:%s/v1","api":"openai-completions","apiKey":"k","models":[{"id":"fake-model","name":"fake"}]}}}\n' "$port" \
        >"$HOME/.pi/agent/models.json" ;;
  esac
  snapshot "$case" >"$case/before.sha"
  local scope=""; [ "$agent" = copilot ] && scope=--user # a project's .github/mcp.json needs folder trust
  (cd "$case/project" && "$bin" setup "$agent" $scope >"$case/setup.out" 2>&1)
  check "$agent: setup registers hashline" grep -q '^registered: ' "$case/setup.out"
  (cd "$case/project" && "$bin" read a.txt --session plain >"$case/plain.txt")
  local rc=0
  run_cli "$agent" "$case" "$port" agent.out || rc=$?
  kill "$model" 2>/dev/null; wait "$model" 2>/dev/null
  check "$agent: the CLI exits 0" bash -c "[ $rc = 0 ] || { tail -20 '$case/agent.out'; false; }"
  check "$agent: the edit the model made through hashline is in a.txt" \
    bash -c "[ \"\$(sed -n 5p '$case/project/a.txt')\" = 'line 5, edited by $agent' ] && [ \$(wc -l <'$case/project/a.txt') = 31 ]"
  local limit=1.2
  python3 - "$case/requests.jsonl" "$case/plain.txt" "$agent" "$limit" >"$case/bytes.out" 2>&1 <<'PY'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
plain = open(sys.argv[2], "rb").read()
def text(m):
    c = m.get("content")
    return c if isinstance(c, str) else "".join(p.get("text", "") for p in (c or []))
results = []
for r in reqs:
    results = [text(m) for m in r["body"].get("messages", []) if m.get("role") == "tool"] or results
tools = sorted({(t.get("function") or t).get("name", "") for r in reqs for t in r["body"].get("tools", [])})
hl = [t for t in tools if "hashline_read" in t or "hashline_edit" in t]
if not hl: sys.exit("no hashline tool offered: " + ", ".join(tools))
if len(results) < 2: sys.exit("want a read and an edit result, got %d" % len(results))
read, limit = results[0].encode(), float(sys.argv[4])
print("%s: tools %s; 31-line read result %d B vs plain hashline read %d B (%.2fx); edit result %d B"
      % (sys.argv[3], " ".join(hl), len(read), len(plain), len(read) / len(plain), len(results[1].encode())))
if limit and len(read) > limit * len(plain): sys.exit("read result over %.1fx the plain rows" % limit)
PY
  local bytes_rc=$?
  check "$agent: hashline tools offered, read and edit results handed back$([ "$limit" = 0 ] || echo " (read <= ${limit}x plain)")" \
    bash -c "cat '$case/bytes.out'; [ $bytes_rc = 0 ]"
  echo "NOTE $(head -1 "$case/bytes.out")"
  sidecar_gone "$agent" "$case" "$port"
  (cd "$case/project" && "$bin" setup "$agent" $scope --undo >"$case/undo.out" 2>&1)
  # No trace: every file setup registered in is as it was before setup (absent again if setup
  # created it), no backup or temp file of hashline's is left, and no config names hashline. The
  # CLIs' own session logs and caches are not setup's.
  local touched; touched="$(sed -n 's/^registered: //p' "$case/setup.out")"
  check "$agent: --undo leaves no trace (files as before, no backup)" no_trace "$case" $touched
}

IFS=, read -ra agents <<<"${AGENTS:-opencode,pi,copilot}"
for agent in "${agents[@]}"; do run_agent "$agent"; done
echo "agent-setup: $passed passed, $failed failed ($(( $(date +%s) - start )) s)"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ] || { KEEP=1; echo "agent-setup: work dir kept: $work" >&2; exit 1; }
