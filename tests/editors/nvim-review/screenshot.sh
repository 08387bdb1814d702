#!/usr/bin/env bash
# The README's picture of the review in Neovim, made by the suite: a real Neovim TUI ($HASHLINE_NVIM,
# default nvim) in a detached tmux window of 92x20 runs screenshot_scene.lua (an agent's edit of
# app.py, the removed lines above the hunk); the screen is captured with its colours (tmux
# capture-pane -e), turned into HTML (ansi_to_html.py) and photographed by headless chromium.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-review/screenshot.sh OUT.png
# Exit 0 with OUT.png written, 1 otherwise (the reason on stderr).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${1:?usage: screenshot.sh OUT.png}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
nvim_bin="${HASHLINE_NVIM:-nvim}"
HASHLINE_BIN="${HASHLINE_BIN:-$root/build/hashline}"
case "$HASHLINE_BIN" in /*) ;; *) HASHLINE_BIN="$PWD/$HASHLINE_BIN" ;; esac
for tool in tmux chromium python3; do
  command -v "$tool" > /dev/null || { echo "screenshot.sh: $tool is not installed" >&2; exit 1; }
done
work="$(mktemp -d /tmp/hashline-nvim-shot.XXXXXX)"
session="hashline-shot-$$"
cleanup() { tmux kill-session -t "$session" 2> /dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work/ws/.git" "$work/run" "$work/state" "$work/config" "$work/data"
chmod 700 "$work/run"
cat > "$work/ws/app.py" <<'PY'
# prices of the cart
from dataclasses import dataclass


def cart_total(items):
    """Total of the cart."""
    total = 0
    for item in items:
        total += item.price * item.qty
    return total


@dataclass
class Item:
    price: float
    qty: int
PY
tmux -f /dev/null new-session -d -s "$session" -x 92 -y 20 \
  env -u VIMRUNTIME -u VIM TERM=tmux-256color COLORTERM=truecolor WORK="$work" HASHLINE_BIN="$HASHLINE_BIN" \
  XDG_RUNTIME_DIR="$work/run" XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" \
  "$nvim_bin" --clean -n -i NONE --cmd "set rtp^=$root/editors/nvim" -c "runtime plugin/hashline.lua" \
  -c "luafile $here/screenshot_scene.lua"
for _ in $(seq 1 150); do
  [ -e "$work/ready" ] || [ -e "$work/failed" ] && break
  sleep 0.1
done
[ -e "$work/ready" ] || { echo "screenshot.sh: the scene did not come up: $(cat "$work/failed" 2> /dev/null || echo timeout)" >&2; exit 1; }
tmux capture-pane -t "$session" -e -p > "$work/screen.txt"
python3 "$here/ansi_to_html.py" "$work/screen.txt" "$work/screen.html"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=790,340 \
  --user-data-dir="$work/chrome" --screenshot="$out" "file://$work/screen.html" > "$work/chromium.log" 2>&1 ||
  { tail -5 "$work/chromium.log" >&2; exit 1; }
[ -s "$out" ] || { echo "screenshot.sh: chromium wrote no $out" >&2; exit 1; }
grep -q -- '- .*total = 0' "$work/screen.txt" || { echo "screenshot.sh: the removed lines are not on the screen" >&2; exit 1; }
echo "screenshot.sh: $out"
