#!/usr/bin/env bash
# Runs one command on another Node.js than the one on PATH, e.g. the jest suites on the oldest
# Node users run n8n on:
#   scripts/on-node.sh 20.19 -- npx jest
# VERSION is a major (`22`) or a floor within one (`20.19`); see use_node in use-node.sh. The
# command sees that Node first on PATH (npm and npx then run on it too).
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/use-node.sh"

[ $# -ge 3 ] && [ "$2" = "--" ] || {
	echo "usage: $(basename "$0") VERSION -- command [args...]" >&2
	exit 2
}
version="$1"
shift 2
use_node "${version}" || {
	echo "$(basename "$0"): no Node.js ${version} (installing it failed)" >&2
	exit 1
}
echo "Using Node $(node --version) for: $*"
exec "$@"
