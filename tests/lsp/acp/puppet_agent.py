#!/usr/bin/env python3
# A scripted ACP agent for tests/lsp/acp: the test, playing the ACP client, drives it through
# the proxy with notifications of its own (unknown methods pass through `hashline acp`):
#   _puppet/send {line}            write `line` (raw, as given) to stdout as one message
#   _puppet/exit {code}            exit now with `code`
#   _puppet/spawn_child {}         start a grandchild (sleep) in the agent's process group and
#                                  report {pid, child} as _puppet/child
#   _puppet/write_big {sessionId, path, bytes, id}
#                                  send fs/write_text_file with `bytes` bytes of content
# Every other line it receives is reported back verbatim as _puppet/received {line}, so the test
# sees exactly what reached the agent. It answers `initialize` (agentInfo.name = $PUPPET_NAME or
# "puppet-agent") and `session/new` (sessionId "sess-N") itself unless PUPPET_SILENT=1; with
# PUPPET_STUBBORN=1 it keeps running after its stdin closes.
import json
import os
import subprocess
import sys
import time

out = sys.stdout


def write(line):
    out.write(line + "\n")
    out.flush()


def report(method, params):
    write(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}))


sessions = 0
silent = os.environ.get("PUPPET_SILENT") == "1"
for raw in sys.stdin:
    line = raw.rstrip("\n")
    try:
        message = json.loads(line)
    except ValueError:
        report("_puppet/received", {"line": line})
        continue
    method = message.get("method") if isinstance(message, dict) else None
    params = message.get("params") if isinstance(message, dict) else None
    if method == "_puppet/send":
        write(params["line"])
        continue
    if method == "_puppet/exit":
        sys.exit(params.get("code", 0))
    if method == "_puppet/spawn_child":
        child = subprocess.Popen(["sleep", "600"])
        report("_puppet/child", {"pid": os.getpid(), "child": child.pid})
        continue
    if method == "_puppet/write_big":
        content = "x" * (params["bytes"] - 1) + "\n"
        write(json.dumps({"jsonrpc": "2.0", "id": params["id"], "method": "fs/write_text_file",
                          "params": {"sessionId": params["sessionId"], "path": params["path"],
                                     "content": content}}))
        continue
    report("_puppet/received", {"line": line})
    if silent or "id" not in message:
        continue
    if method == "initialize":
        write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {
            "protocolVersion": 1,
            "agentInfo": {"name": os.environ.get("PUPPET_NAME", "puppet-agent"), "version": "1.0"},
            "agentCapabilities": {"loadSession": True}}}))
    elif method == "session/new":
        sessions += 1
        write(json.dumps({"jsonrpc": "2.0", "id": message["id"],
                          "result": {"sessionId": "sess-%d" % sessions}}))

if os.environ.get("PUPPET_STUBBORN") == "1":
    while True:
        time.sleep(60)
