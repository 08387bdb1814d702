#!/usr/bin/env bash
# The install suite: `cmake --install --strip` of the build tree HASHLINE_BIN lives in into a scratch
# prefix (the binary runs, the Neovim plugin loads from the installed packpath and its health check
# finds the installed binary, the man page renders, the bash completion completes), then the
# CPack .deb: its file list, its Depends, and an install into a scratch dpkg root.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${HASHLINE_BIN:-$root/build/hashline}"
build="$(cd "$(dirname "$bin")" && pwd)"
version="$(sed -n 's/^project(hashline VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0
check() { # check NAME COMMAND...: one named assertion
  local name="$1"
  shift
  if "$@" >"$scratch/check.out" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name" >&2
    sed 's/^/  /' "$scratch/check.out" >&2
  fi
}
contains() { grep -qF -- "$2" "$1" || { echo "'$2' not in $1:"; cat "$1"; return 1; }; }

# --- cmake --install into a prefix ----------------------------------------------------------
prefix="$scratch/prefix"
cmake --install "$build" --prefix "$prefix" --strip >/dev/null
plugin="$prefix/share/nvim/site/pack/hashline/start/hashline"
for f in bin/hashline share/man/man1/hashline.1 share/bash-completion/completions/hashline \
  share/zsh/vendor-completions/_hashline share/fish/vendor_completions.d/hashline.fish \
  share/nvim/site/pack/hashline/start/hashline/plugin/hashline.lua \
  share/nvim/site/pack/hashline/start/hashline/lua/hashline/init.lua \
  share/nvim/site/pack/hashline/start/hashline/doc/hashline.txt share/hashline/pi/hashline.ts; do
  check "installed $f" test -f "$prefix/$f"
done
check "installed setup pi finds the installed extension" bash -c \
  "'$prefix/bin/hashline' setup pi --user --dry-run | grep -q '$prefix/share/hashline/pi/hashline.ts'"
"$prefix/bin/hashline" --version >"$scratch/version.out"
check "installed binary prints its version" contains "$scratch/version.out" "hashline $version"
check "installed binary is stripped" bash -c "! file '$prefix/bin/hashline' | grep -q 'not stripped'"
check "installed binary is smaller than the build's" \
  test "$(stat -c %s "$prefix/bin/hashline")" -lt "$(stat -c %s "$bin")"

# Neovim with nothing but the installed packpath: the plugin's commands exist, the module loads,
# and :checkhealth finds the installed binary on PATH.
if command -v nvim >/dev/null; then
  PATH="$prefix/bin:$PATH" HOME="$scratch" XDG_STATE_HOME="$scratch/state" nvim --headless -u NONE -i NONE \
    --cmd "set packpath=$prefix/share/nvim/site" --cmd 'packloadall' \
    -c "lua local ok = pcall(require, 'hashline'); vim.fn.writefile({'require=' .. tostring(ok), 'command=' .. vim.fn.exists(':HashlineStatus')}, '$scratch/nvim.out')" \
    -c 'checkhealth hashline' -c "w! $scratch/health.out" -c 'qa!' >/dev/null 2>&1 || true
  check "nvim: require('hashline') from the installed plugin" contains "$scratch/nvim.out" "require=true"
  check "nvim: :HashlineStatus defined by the installed plugin" contains "$scratch/nvim.out" "command=2"
  check "nvim: checkhealth finds the installed binary" \
    contains "$scratch/health.out" "hashline $version ($prefix/bin/hashline)"
else
  echo "skip: nvim not installed"
fi

# man justifies lines (runs of spaces) and may hyphenate; squeeze blanks so a check finds a phrase.
MANWIDTH=80 man -l "$prefix/share/man/man1/hashline.1" 2>&1 | tr -s ' ' >"$scratch/man.out" || true
check "man page renders" contains "$scratch/man.out" "HASHLINE(1)"
check "man page lists setup" contains "$scratch/man.out" "register hashline mcp with an agent"
bash -c "source '$prefix/share/bash-completion/completions/hashline'; COMP_WORDS=(hashline se); COMP_CWORD=1; _hashline; printf '%s\n' \"\${COMPREPLY[@]}\"" >"$scratch/complete.out"
check "bash completion completes subcommands" contains "$scratch/complete.out" "setup"

# --- the Debian package ----------------------------------------------------------------------
if command -v dpkg-deb >/dev/null && command -v cpack >/dev/null; then
  (cd "$scratch" && cpack --config "$build/CPackConfig.cmake" -G DEB -B "$scratch/deb" >/dev/null 2>&1)
  deb="$(ls "$scratch"/deb/hashline_"$version"_*.deb)"
  dpkg -c "$deb" | awk '{print $6}' >"$scratch/deb.files"
  for f in ./usr/bin/hashline ./usr/share/man/man1/hashline.1 \
    ./usr/share/bash-completion/completions/hashline ./usr/share/zsh/vendor-completions/_hashline \
    ./usr/share/fish/vendor_completions.d/hashline.fish \
    ./usr/share/nvim/site/pack/hashline/start/hashline/plugin/hashline.lua \
    ./usr/share/nvim/site/pack/hashline/start/hashline/lua/hashline/init.lua; do
    check "deb holds $f" contains "$scratch/deb.files" "$f"
  done
  dpkg-deb -f "$deb" Depends >"$scratch/depends.out"
  for lib in libc6 libstdc++6 libre2- libgcc-s1; do
    check "deb Depends on $lib" contains "$scratch/depends.out" "$lib"
  done
  check "deb does not depend on OpenSSL (SHA-256 is built in)" bash -c \
    "! grep -q libssl '$scratch/depends.out'"
  # dpkg -i into a scratch root with its own database (the root holds no libc, hence
  # --force-depends); then the installed binary runs against the host's libraries.
  droot="$scratch/root"
  mkdir -p "$droot/var/lib/dpkg/info" "$droot/var/lib/dpkg/updates"
  touch "$droot/var/lib/dpkg/status"
  check "dpkg -i into a scratch root" dpkg --root="$droot" --force-depends --force-not-root \
    --force-script-chrootless --log=/dev/null -i "$deb"
  dpkg --root="$droot" -L hashline >"$scratch/listed.out" 2>&1 || true
  check "dpkg -L lists the installed binary" contains "$scratch/listed.out" "/usr/bin/hashline"
  "$droot/usr/bin/hashline" --version >"$scratch/deb-version.out" 2>&1 || true
  check "binary from the deb prints its version" contains "$scratch/deb-version.out" "hashline $version"
else
  echo "skip: dpkg-deb or cpack not installed"
fi

echo "install suite: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
