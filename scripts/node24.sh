#!/usr/bin/env bash
# Puts Node.js 24 first on PATH, installing it from the npm registry into .tools/ when the
# machine's own Node is older (the tools and tests run on Node 24).
# Use: source scripts/node24.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/use-node.sh"
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt 24 ]; then
	use_node 24
fi
echo "Using Node $(node --version), npm $(npm --version 2>/dev/null)"
