#!/usr/bin/env python3
"""Turns a terminal screen captured with `tmux capture-pane -e -p` (text with SGR colour escapes)
into one HTML page, so headless chromium can take a PNG of it (screenshot.sh). Handles the SGR
attributes Neovim's TUI sends: reset, bold, italic, underline, reverse, the 16/256 colours and
24-bit colours, default foreground/background. Usage: ansi_to_html.py SCREEN.txt PAGE.html"""
import html
import re
import sys

DEFAULT_FG, DEFAULT_BG = "#e0e2ea", "#14161b"  # Neovim 0.10+'s default dark scheme
BASE16 = ["#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
          "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"]


def color256(n):
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    level = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (level, level, level)


def apply_sgr(params, state):
    codes = [int(p) if p else 0 for p in params.split(";")] if params else [0]
    i = 0
    while i < len(codes):
        c = codes[i]
        if c == 0:
            state.clear()
        elif c in (1, 3, 4, 7):
            state[{1: "bold", 3: "italic", 4: "underline", 7: "reverse"}[c]] = True
        elif c in (22, 23, 24, 27):
            state.pop({22: "bold", 23: "italic", 24: "underline", 27: "reverse"}[c], None)
        elif 30 <= c <= 37 or 90 <= c <= 97:
            state["fg"] = BASE16[c - 30 if c < 90 else c - 90 + 8]
        elif 40 <= c <= 47 or 100 <= c <= 107:
            state["bg"] = BASE16[c - 40 if c < 100 else c - 100 + 8]
        elif c in (38, 48) and i + 1 < len(codes):
            key = "fg" if c == 38 else "bg"
            if codes[i + 1] == 5 and i + 2 < len(codes):
                state[key] = color256(codes[i + 2])
                i += 2
            elif codes[i + 1] == 2 and i + 4 < len(codes):
                state[key] = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5])
                i += 4
        elif c == 39:
            state.pop("fg", None)
        elif c == 49:
            state.pop("bg", None)
        i += 1


def style_of(state):
    fg, bg = state.get("fg", DEFAULT_FG), state.get("bg", DEFAULT_BG)
    if state.get("reverse"):
        fg, bg = bg, fg
    css = [f"color:{fg}", f"background:{bg}"]
    if state.get("bold"):
        css.append("font-weight:bold")
    if state.get("italic"):
        css.append("font-style:italic")
    if state.get("underline"):
        css.append("text-decoration:underline")
    return ";".join(css)


def convert(screen):
    out, state = [], {}
    for token in re.split(r"(\x1b\[[0-9;]*m)", screen):
        match = re.fullmatch(r"\x1b\[([0-9;]*)m", token)
        if match:
            apply_sgr(match.group(1), state)
        elif token:
            out.append(f'<span style="{style_of(state)}">{html.escape(token)}</span>')
    return "".join(out)


def main():
    screen = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    body = convert(screen.rstrip("\n"))
    page = ("<!doctype html><meta charset=utf-8><style>body{margin:0;background:%s}"
            "pre{margin:0;padding:6px;font:14px/1.25 'DejaVu Sans Mono',monospace;color:%s}</style>"
            "<pre>%s</pre>" % (DEFAULT_BG, DEFAULT_FG, body))
    open(sys.argv[2], "w", encoding="utf-8").write(page)


if __name__ == "__main__":
    main()
