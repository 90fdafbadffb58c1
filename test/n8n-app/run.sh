#!/usr/bin/env bash
# End-to-end test in the real n8n app (`npm run test:n8n`):
#   1. installs n8n (pinned in test/n8n-app/package.json) into a cache folder outside the
#      repository, once per machine (see lib.sh);
#   2. builds and packs this package, and installs the tarball into a fresh N8N_USER_FOLDER the
#      way n8n's community-package install does (unpack, drop dev/peer/optional dependencies,
#      `npm install --ignore-scripts`), so no second n8n-workflow is installed next to n8n's;
#   3. runs test/n8n-app/e2e.ts (with tsx): the local service, n8n's CLI (export:nodes,
#      import:credentials, import:workflow, execute) on examples/*.json, `n8n start` for the
#      credential test, and every check; it prints the summary.
# Exits non-zero on any failure. The work folder (logs of every n8n command) is kept on failure,
# or always with KEEP_WORK=1.
#
# Usage: test/n8n-app/run.sh [--n8n VERSION]   (npm run test:n8n -- --n8n 1.123)
#   VERSION       an n8n line of test/n8n-app/versions/ (1.123, 2.41, also written 1.123.x) or an
#                 exact release of one; default N8N_VERSION, else 2.41. Each line runs on the
#                 Node.js major its .nvmrc names (fetched into .tools/ when missing).
# Environment:
#   N8N_VERSION   the default for --n8n.
#   N8N_APP_DIR   where n8n is installed (default ~/.cache/n8n-nodes-ideal-house/n8n-<release>-node<major>).
#   KEEP_WORK=1   keep the work folder after a passing run.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "${HERE}/../../scripts/node24.sh" >/dev/null
source "${HERE}/lib.sh"
cd "${REPO}"

select_n8n_from_args "$@"
ensure_n8n_app

make_work n8n-app-e2e
trap 'keep_or_remove_work $? "n8n logs in ${WORK}/logs"' EXIT

install_package "${WORK}"

E2E_REPO="${REPO}" E2E_WORK="${WORK}" E2E_USER_FOLDER="${USER_FOLDER}" E2E_N8N_APP="${APP_DIR}" \
	E2E_TARBALL_PATH="${WORK}/${TARBALL}" \
	E2E_TARBALL="${TARBALL} ($(du -k "${WORK}/${TARBALL}" | cut -f1) kB, $(tar -tzf "${WORK}/${TARBALL}" | wc -l) files)" \
	E2E_SHELL_STEPS="${STEPS}" \
	npx --no-install tsx "${HERE}/e2e.ts"
