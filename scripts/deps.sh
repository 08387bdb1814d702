#!/usr/bin/env bash
# Installs what hashline needs to build and test on Debian 12 (run as root); a no-op when present.
# Usage: scripts/deps.sh [build|test|fuzz|ci]   (test adds the headless editors and Node packages;
#        ci is test + fuzz + ccache, what .ci/run needs)
set -euo pipefail
want="${1:-build}"
pkgs=(cmake ninja-build g++ pkg-config nlohmann-json3-dev libboost-dev libxxhash-dev libre2-dev
      libgtest-dev libgmock-dev git libbsd-dev) # libbsd-dev: getpeereid for `--preset portable`
case "$want" in
  test) pkgs+=(neovim nodejs npm chromium build-essential python3 libkrb5-dev ripgrep zip curl file man-db
             debian-archive-keyring clangd) ;;
  fuzz) pkgs+=(clang libclang-rt-14-dev) ;;
  ci) "$0" test && "$0" fuzz; pkgs+=(ccache) ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node may come from outside Debian (a newer build on PATH); only install Debian's when absent.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))
if [ ${#missing[@]} -gt 0 ]; then
  echo "hashline: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
