#!/usr/bin/env bash
# Installs @ethereumjs/client (the interop test partner for svc-node's devp2p, see
# test/p2p/interop-ethereumjs.test.ts) into a folder OUTSIDE this package, so it never enters
# svc-node's dependency tree or lockfile. Idempotent: does nothing when that version is already there.
#
# Usage: scripts/interop/install-ethereumjs-client.sh [dir]
#   dir defaults to ${SVC_INTEROP_DIR:-${TMPDIR:-/tmp}/svc-node-ethereumjs-client}
# The last line of stdout is the absolute path of the client's entry script (run it with `node`).
set -euo pipefail

VERSION="${ETHEREUMJS_CLIENT_VERSION:-0.10.5}"
DIR="${1:-${SVC_INTEROP_DIR:-${TMPDIR:-/tmp}/svc-node-ethereumjs-client}}"
PKG_JSON="$DIR/node_modules/@ethereumjs/client/package.json"

installed_version() {
  [ -f "$PKG_JSON" ] && node -e 'process.stdout.write(require(process.argv[1]).version)' "$PKG_JSON" 2>/dev/null || true
}

# The entry script named by the package's own "bin" field (not a hard-coded dist path).
entry_script() {
  node -e '
    const path = require("path");
    const pkgPath = process.argv[1];
    const pkg = require(pkgPath);
    const bin = typeof pkg.bin === "string" ? pkg.bin : Object.values(pkg.bin)[0];
    process.stdout.write(path.resolve(path.dirname(pkgPath), bin));
  ' "$PKG_JSON"
}

if [ "$(installed_version)" = "$VERSION" ]; then
  echo "@ethereumjs/client@$VERSION already installed in $DIR" >&2
else
  mkdir -p "$DIR"
  # A private package.json makes $DIR its own npm project: npm will not walk up into a parent one.
  if [ ! -f "$DIR/package.json" ]; then
    printf '{\n  "name": "svc-node-ethereumjs-client",\n  "private": true\n}\n' >"$DIR/package.json"
  fi
  echo "installing @ethereumjs/client@$VERSION into $DIR ..." >&2
  # A plain registry spec (no git or tarball URL), resolved through the caller's npm config.
  (cd "$DIR" && npm install --no-audit --no-fund --save-exact "@ethereumjs/client@$VERSION" >&2)
  if [ "$(installed_version)" != "$VERSION" ]; then
    echo "install failed: found '$(installed_version)' in $PKG_JSON, wanted $VERSION" >&2
    exit 1
  fi
fi

entry_script
echo
