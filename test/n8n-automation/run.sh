#!/usr/bin/env bash
# The automations users run, in a live n8n (`npm run test:n8n-automation`):
#   1. installs n8n and PostgreSQL 17 once per machine (test/n8n-app/lib.sh);
#   2. builds, packs and installs this package into a fresh N8N_USER_FOLDER;
#   3. starts its own PostgreSQL on a free loopback port, its data in the work folder (no system
#      service is used or touched), with two databases: `n8n` (n8n's own) and `brokerage` (the
#      listings table the scheduled example writes to);
#   4. runs test/n8n-automation/automation.ts (with tsx): the local service, the MLS feed and the
#      CRM stand-ins, `n8n start`, the scheduled example activated on a seconds interval while the
#      feed changes between runs, then the CRM webhook called for several listings at once; it
#      prints the summary.
# Everything it started is stopped on exit, pass or fail. Exits non-zero on any failed check. The
# work folder (logs of every process) is kept on failure, or always with KEEP_WORK=1.
#
# Usage: run.sh [--n8n VERSION]
#   VERSION       an n8n line of test/n8n-app/versions/ (1.123, 2.41) or an exact release of one;
#                 default N8N_VERSION, else 2.41. Each line runs on the Node.js its .nvmrc names.
# Environment:
#   N8N_VERSION   the default for --n8n.
#   N8N_APP_DIR   where n8n is installed (default ~/.cache/n8n-nodes-ideal-house/n8n-<release>-node<major>).
#   PG_INSTALL_DIR  where PostgreSQL 17 is installed (default ~/.cache/n8n-nodes-ideal-house/postgresql-<version>).
#   KEEP_WORK=1   keep the work folder after a passing run.
#   AUTOMATION_INTERVAL_SECONDS   the Schedule Trigger's interval in the test (default 10).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "${HERE}/../../scripts/node24.sh" >/dev/null
source "${HERE}/../n8n-app/lib.sh"
prepare_postgres_run "n8n automation" n8n-automation-e2e "$@"

install_package "${WORK}"

# PostgreSQL: a throw-away cluster on a loopback port, data and socket in the work folder.
start_postgres "${WORK}/postgres" "${WORK}/logs"
t0="$(now)"
psql_n8n -d postgres -c 'CREATE DATABASE n8n' -c 'CREATE DATABASE brokerage' >"${WORK}/logs/createdb.log" 2>&1 ||
	fail "CREATE DATABASE (log: ${WORK}/logs/createdb.log)"
# The listings table, as the scheduled example's sticky note tells users to create it.
psql_n8n -d brokerage -f "${HERE}/listing-photos.sql" >"${WORK}/logs/create-table.log" 2>&1 ||
	fail "CREATE TABLE listing_photos (log: ${WORK}/logs/create-table.log)"
step_done "create databases n8n, brokerage + listings table" "${t0}"

AUTOMATION_REPO="${REPO}" AUTOMATION_WORK="${WORK}" AUTOMATION_USER_FOLDER="${USER_FOLDER}" \
	AUTOMATION_N8N_APP="${APP_DIR}" AUTOMATION_PG_PORT="${PG_PORT}" AUTOMATION_PG_PASSWORD="${PG_PASSWORD}" \
	AUTOMATION_PSQL="${PSQL}" AUTOMATION_PIDS_FILE="${PIDS_FILE}" AUTOMATION_SHELL_STEPS="${STEPS}" \
	AUTOMATION_RUN_START="${RUN_START}" AUTOMATION_TARBALL="${TARBALL}" \
	npx --no-install tsx "${HERE}/automation.ts"
