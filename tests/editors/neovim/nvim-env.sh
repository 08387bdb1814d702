# Sourced by every Neovim suite's run.sh: which nvim runs the suite, its version, and the
# deprecation check (guard.lua). scripts/test runs each suite once per version scripts/get-nvim
# provides, with HASHLINE_NVIM set; by hand: HASHLINE_NVIM=/path/to/nvim tests/editors/<suite>/run.sh
#   nvim_bin            $HASHLINE_NVIM, else `nvim` on PATH
#   nvim_version        e.g. 0.12.4 (empty when that nvim does not run)
#   nvim_guard          arguments that load guard.lua first: "$nvim_bin" "${nvim_guard[@]}" ...
#   nvim_guard_init SUITE DIR   prints "SUITE: Neovim <version> (<path>)", starts
#                       DIR/deprecations.txt; returns 1 (with the reason) when nvim does not run
#   nvim_guard_check OUT...     prints every deprecation guard.lua recorded and every line of the
#                       files OUT (nvim's stdout/stderr) that mentions one; returns 1 if any
nvim_bin="${HASHLINE_NVIM:-nvim}"
# Each nvim finds its own runtime next to its binary; an inherited VIMRUNTIME (a shell started
# inside another Neovim) would hand it another version's runtime.
unset VIMRUNTIME VIM
nvim_version="$("$nvim_bin" --version 2>/dev/null | head -1 | sed -n 's/^NVIM v\([0-9][0-9.]*\).*/\1/p')"
nvim_guard=(--cmd "luafile $(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/guard.lua")

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
