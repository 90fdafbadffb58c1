#!/usr/bin/env bash
# The nodes as AI tools in the real n8n app (`npm run test:n8n-agent`):
#   1. installs n8n once per machine (see ../n8n-app/lib.sh), builds and packs this package and
#      installs the tarball into a fresh n8n user folder, as test:n8n does;
#   2. runs agent.ts (with tsx): the local service, the scripted chat model, `n8n start` with the
#      examples ai-agent-photo-assistant.json and mcp-photo-tools.json published; the agent is
#      driven through the Chat Trigger's chat endpoint, the MCP Server Trigger through the official
#      MCP client; every check, then the summary.
# Exits non-zero on any failure. The work folder (n8n's log) is kept on failure, or with KEEP_WORK=1.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "${HERE}/../../scripts/node24.sh" >/dev/null
FAIL_PREFIX="n8n agent test"
source "${HERE}/../n8n-app/lib.sh"
cd "${REPO}"
STARTED_AT="$(date +%s)"

ensure_n8n_app

make_work n8n-agent
trap 'keep_or_remove_work $? "n8n logs in ${WORK}/logs"' EXIT

install_package "${WORK}"

AGENT_REPO="${REPO}" AGENT_WORK="${WORK}" AGENT_USER_FOLDER="${USER_FOLDER}" AGENT_N8N_APP="$(cd "${APP_DIR}" && pwd -P)" \
	AGENT_SHELL_STEPS="${STEPS}" AGENT_STARTED_AT="${STARTED_AT}" \
	npx --no-install tsx "${HERE}/agent.ts"
