#!/usr/bin/env bash
# Installs what the code-server editor test needs, idempotently, from Debian apt and the npm
# registry only: chromium and the native build tools (apt), code-server 4.100.3 = VS Code 1.100.3
# (npm, native modules built from source against the system Node headers), playwright-core.
# Everything npm installs goes to .cache/ next to this script (gitignored); CS_CACHE overrides.
# Called by run.sh; safe to run again (a finished install takes < 1 s).
# Exit status: 0 installed, non-zero with a "code-server install FAILED: …" line otherwise.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${CS_CACHE:-$here/.cache}"
cs_version=4.100.3          # newest code-server whose engines.node is 20 (4.103+ want 22, 4.139 wants 24)
fail() { echo "code-server install FAILED: $*" >&2; exit 1; }

# --- Debian packages -------------------------------------------------------------------------
# build-essential/python3/pkg-config/libkrb5-dev: native modules (node-pty, spdlog, kerberos,
# argon2, …); ripgrep: stands in for @vscode/ripgrep's GitHub download; chromium: the browser.
pkgs=(build-essential python3 pkg-config libkrb5-dev ripgrep chromium curl)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "code-server test: apt-get install ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq || fail "apt-get update"
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    fail "apt-get install ${missing[*]}"
fi
command -v node >/dev/null || fail "node is not installed (Node.js 20 is needed)"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 20 ] || fail "Node.js $(node --version) is too old; code-server $cs_version needs 20"
[ "$node_major" -eq 20 ] || echo "code-server test: warning: Node $(node --version); code-server $cs_version declares Node 20" >&2
# node-gyp must build against the installed headers (--nodedir=/usr), never download them.
[ -f /usr/include/node/node.h ] || fail "/usr/include/node/node.h missing (the nodejs package's headers)"

mkdir -p "$cache/tmp"
export TMPDIR="$cache/tmp"

# --- code-server -----------------------------------------------------------------------------
cs_dir="$cache/code-server-$cs_version"
cs_bin="$cs_dir/node_modules/.bin/code-server"
if [ ! -f "$cs_dir/.installed" ]; then
  # @vscode/ripgrep's postinstall downloads rg from GitHub unless its cache already holds the
  # release tarball: $TMPDIR/vscode-ripgrep-cache-<package version>/<asset>. Seed it with Debian's
  # rg. Version and asset are those code-server 4.100.3 pins (lib/vscode/npm-shrinkwrap.json).
  rg_cache="$TMPDIR/vscode-ripgrep-cache-1.15.11"
  rg_asset="ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
  if [ ! -f "$rg_cache/$rg_asset" ]; then
    rm -rf "$rg_cache/stage" && mkdir -p "$rg_cache/stage"
    cp /usr/bin/rg "$rg_cache/stage/rg"
    tar czf "$rg_cache/$rg_asset" -C "$rg_cache/stage" rg
    rm -rf "$rg_cache/stage"
  fi
  rm -rf "$cs_dir" && mkdir -p "$cs_dir"
  echo '{"name":"hashline-code-server-test","private":true}' > "$cs_dir/package.json"
  echo "code-server test: npm install code-server@$cs_version (native builds, ~1 min)" >&2
  # unsafe_perm: code-server's postinstall refuses to run as root without it.
  # yes: node-pty's postinstall runs `npx node-gyp`; an ~/.npmrc with yes=false would cancel it.
  # nodedir: build native modules against /usr/include/node instead of downloading headers.
  # Scripts must run (code-server's postinstall installs VS Code's own dependencies).
  if ! (cd "$cs_dir" && npm_config_unsafe_perm=true npm_config_yes=true npm_config_nodedir=/usr \
        npm install --no-audit --no-fund --save-exact --ignore-scripts=false \
        "code-server@$cs_version" > "$cache/code-server-npm.log" 2>&1); then
    tail -40 "$cache/code-server-npm.log" >&2
    fail "npm install code-server@$cs_version (log: $cache/code-server-npm.log)"
  fi
  "$cs_bin" --version > /dev/null 2>&1 || fail "code-server was installed but does not run ($cs_bin --version)"
  [ -x "$cs_dir/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ] ||
    fail "@vscode/ripgrep has no rg binary (did its cache version change? see $rg_cache)"
  touch "$cs_dir/.installed"
fi

# --- playwright-core (drives Debian's chromium; downloads no browser) ------------------------
drv_dir="$cache/driver"
if ! cmp -s "$here/driver/package-lock.json" "$drv_dir/package-lock.json" || [ ! -d "$drv_dir/node_modules/playwright-core" ]; then
  rm -rf "$drv_dir" && mkdir -p "$drv_dir"
  cp "$here/driver/package.json" "$here/driver/package-lock.json" "$drv_dir/"
  (cd "$drv_dir" && npm ci --no-audit --no-fund > "$cache/driver-npm.log" 2>&1) ||
    { tail -20 "$cache/driver-npm.log" >&2; fail "npm ci playwright-core (log: $cache/driver-npm.log)"; }
fi

echo "code-server test: ready: $("$cs_bin" --version 2>/dev/null | head -1), $(chromium --version 2>/dev/null)" >&2
