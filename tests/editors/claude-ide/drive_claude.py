#!/usr/bin/env python3
"""Drives the interactive Claude Code TUI under a pseudo-terminal (stdlib only: pty, select).

Claude Code connects to an IDE only when interactive (`claude -p` never does), so the test types
into its input box like a user. The steps come from a JSON file: a list of
  {"wait_file": PATH?, "prompt": TEXT, "until_turn": N}
For each step: wait until wait_file exists (if given), wait until the TUI shows its input box and
has been quiet for a moment, type the prompt and Enter, then wait until the fake model's request
log (JSON lines, {"n": turn}) shows turn N served. After the last step: /exit, then Ctrl-C twice
if it is still running. The raw terminal output goes to --transcript.
Usage: drive_claude.py --steps steps.json --log requests.jsonl --transcript tty.out
       [--timeout 120] -- claude ARGS...
Exit code: claude's (or 124 on a timeout, 125 when a step's turn never came).
"""
import argparse
import errno
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time


def served_turns(log_path):
    top = 0
    try:
        with open(log_path, encoding="utf-8") as f:
            for line in f:
                try:
                    n = json.loads(line).get("n")
                except ValueError:
                    continue
                if isinstance(n, int):
                    top = max(top, n)
    except FileNotFoundError:
        pass
    return top


ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-B]|\x1b[=>78]")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--transcript", required=True)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("cmd", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cmd = args.cmd[1:] if args.cmd and args.cmd[0] == "--" else args.cmd
    with open(args.steps, encoding="utf-8") as f:
        steps = json.load(f)

    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.execvp(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
    out = open(args.transcript, "wb")
    screen = bytearray()  # everything seen, escapes stripped
    state = {"last_output": time.monotonic(), "exited": None}
    deadline = time.monotonic() + args.timeout

    def pump(seconds):
        end = time.monotonic() + seconds
        while state["exited"] is None:
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([fd], [], [], min(left, 0.05))
            if ready:
                try:
                    data = os.read(fd, 65536)
                except OSError as e:
                    if e.errno != errno.EIO:
                        raise
                    data = b""
                if not data:
                    reap(block=True)
                    return
                out.write(data)
                out.flush()
                screen.extend(ANSI.sub(b"", data))
                state["last_output"] = time.monotonic()
                # Answer the terminal queries an Ink app may wait for.
                if b"\x1b[6n" in data:
                    os.write(fd, b"\x1b[1;1R")
                if b"\x1b[c" in data:
                    os.write(fd, b"\x1b[?62;22c")
            reap(block=False)

    def reap(block):
        if state["exited"] is not None:
            return
        try:
            done, status = os.waitpid(pid, 0 if block else os.WNOHANG)
        except ChildProcessError:
            state["exited"] = 0
            return
        if done == pid:
            state["exited"] = os.waitstatus_to_exitcode(status)

    def typed(text):
        # A bracketed paste would be cleaner, but plain keystrokes are what a user sends.
        for ch in text:
            os.write(fd, ch.encode())
            pump(0.01)

    def wait_quiet(quiet=1.5, limit=30):
        end = min(deadline, time.monotonic() + limit)
        while time.monotonic() < end and state["exited"] is None:
            pump(0.1)
            if time.monotonic() - state["last_output"] >= quiet:
                return True
        return False

    def fail(code, why):
        sys.stderr.write("drive_claude: " + why + "\n")
        finish()
        out.close()
        sys.exit(code)

    def finish():
        if state["exited"] is None:
            typed("/exit")
            pump(0.5)
            os.write(fd, b"\r")
            pump(3)
        for _ in range(2):
            if state["exited"] is None:
                os.write(fd, b"\x03")
                pump(1)
        if state["exited"] is None:
            os.kill(pid, signal.SIGTERM)
            pump(3)
        if state["exited"] is None:
            os.kill(pid, signal.SIGKILL)
            reap(block=True)

    # The input box: Claude Code's prompt line starts with U+276F (❯).
    while "\u276f".encode() not in screen and time.monotonic() < deadline and state["exited"] is None:
        pump(0.1)
    if state["exited"] is not None:
        out.close()
        sys.stderr.write("drive_claude: claude exited before its input box showed\n")
        sys.exit(state["exited"] or 1)
    for number, step in enumerate(steps, 1):
        if step.get("wait_file"):
            while not os.path.exists(step["wait_file"]):
                if time.monotonic() > deadline:
                    fail(124, "step %d: %s never appeared" % (number, step["wait_file"]))
                pump(0.1)
        wait_quiet()
        typed(step["prompt"])
        pump(0.5)
        os.write(fd, b"\r")
        sys.stderr.write("drive_claude: step %d typed\n" % number)
        while served_turns(args.log) < step["until_turn"]:
            if time.monotonic() > deadline or state["exited"] is not None:
                fail(125, "step %d: turn %d never requested (served %d)"
                     % (number, step["until_turn"], served_turns(args.log)))
            pump(0.1)
        sys.stderr.write("drive_claude: step %d reached turn %d\n" % (number, step["until_turn"]))
    wait_quiet(quiet=2, limit=30)
    finish()
    out.close()
    sys.exit(state["exited"] or 0)


if __name__ == "__main__":
    main()
