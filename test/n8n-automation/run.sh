#!/usr/bin/env bash
# The automations users run, in a live n8n (`npm run test:n8n-automation`):
#   1. installs n8n once per machine (test/n8n-app/lib.sh), and PostgreSQL from Debian when missing;
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
#   KEEP_WORK=1   keep the work folder after a passing run.
#   AUTOMATION_INTERVAL_SECONDS   the Schedule Trigger's interval in the test (default 10).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "${HERE}/../../scripts/node24.sh" >/dev/null
source "${HERE}/../n8n-app/lib.sh"
FAIL_PREFIX="n8n automation"
cd "${REPO}"
RUN_START="$(now)"

select_n8n_from_args "$@"
ensure_n8n_app

pg_bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
t0="$(now)"
if [ -z "$(pg_bin_dir)" ] || [ ! -x "$(pg_bin_dir)/initdb" ]; then
	apt_install postgresql
	step_done "install postgresql (apt)" "${t0}"
else
	step_done "postgresql (installed)" "${t0}"
fi
PG_BIN="$(pg_bin_dir)"

make_work n8n-automation-e2e
# PostgreSQL runs as another user when this runs as root: it must be able to reach its folder.
chmod 711 "${WORK}"
mkdir -p "${WORK}/logs"
PG_DATA="${WORK}/postgres/data"
PG_SOCKET_DIR="${WORK}/postgres/socket"
PG_STARTED=""
PIDS_FILE="${WORK}/n8n-pids"
: >"${PIDS_FILE}"

# PostgreSQL refuses to run as root: then the Debian package's `postgres` user owns its folder.
if [ "$(id -u)" -eq 0 ]; then
	PG_USER="postgres"
	id -u "${PG_USER}" >/dev/null 2>&1 || fail "user ${PG_USER} missing (it comes with the postgresql package)"
	as_pg() { runuser -u "${PG_USER}" -- "$@"; }
else
	PG_USER="$(id -un)"
	as_pg() { "$@"; }
fi

cleanup() {
	local code=$?
	set +e
	# n8n processes the driver started and did not stop (it was killed or crashed).
	while read -r pid; do
		[ -n "${pid}" ] && kill -0 "${pid}" 2>/dev/null && kill -KILL "${pid}" 2>/dev/null
	done <"${PIDS_FILE}"
	if [ -n "${PG_STARTED}" ]; then
		as_pg "${PG_BIN}/pg_ctl" -D "${PG_DATA}" -m immediate -w -t 20 stop >/dev/null 2>&1
	fi
	keep_or_remove_work "${code}" "logs in ${WORK}/logs"
	exit "${code}"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

install_package "${WORK}"

free_port() {
	node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# PostgreSQL: a throw-away cluster (fsync off) on a loopback port, its socket in the work folder.
t0="$(now)"
PG_PORT="$(free_port)"
PG_PASSWORD="$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
mkdir -p "${WORK}/postgres" "${PG_SOCKET_DIR}"
printf '%s\n' "${PG_PASSWORD}" >"${WORK}/postgres/pwfile"
chmod 600 "${WORK}/postgres/pwfile"
if [ "$(id -u)" -eq 0 ]; then chown -R "${PG_USER}" "${WORK}/postgres"; fi
as_pg "${PG_BIN}/initdb" -D "${PG_DATA}" -U n8n --pwfile="${WORK}/postgres/pwfile" \
	--auth-local=scram-sha-256 --auth-host=scram-sha-256 -E UTF8 --no-locale >"${WORK}/logs/initdb.log" 2>&1 ||
	fail "initdb (log: ${WORK}/logs/initdb.log)"
rm -f "${WORK}/postgres/pwfile"
PG_STARTED=1
as_pg "${PG_BIN}/pg_ctl" -D "${PG_DATA}" -l "${WORK}/postgres/server.log" -w -t 60 \
	-o "-c listen_addresses=127.0.0.1 -p ${PG_PORT} -k ${PG_SOCKET_DIR} -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
	start >"${WORK}/logs/pg_ctl.log" 2>&1 || {
	cp "${WORK}/postgres/server.log" "${WORK}/logs/postgres.log" 2>/dev/null
	fail "pg_ctl start (log: ${WORK}/logs/postgres.log)"
}
psql_n8n() { PGPASSWORD="${PG_PASSWORD}" "${PG_BIN}/psql" -h 127.0.0.1 -p "${PG_PORT}" -U n8n -v ON_ERROR_STOP=1 -q "$@"; }
psql_n8n -d postgres -c 'CREATE DATABASE n8n' -c 'CREATE DATABASE brokerage' >"${WORK}/logs/createdb.log" 2>&1 ||
	fail "CREATE DATABASE (log: ${WORK}/logs/createdb.log)"
# The listings table, as the scheduled example's sticky note tells users to create it.
psql_n8n -d brokerage -f "${HERE}/listing-photos.sql" >"${WORK}/logs/create-table.log" 2>&1 ||
	fail "CREATE TABLE listing_photos (log: ${WORK}/logs/create-table.log)"
step_done "start postgresql ($(basename "$(dirname "${PG_BIN}")")) + listings table" "${t0}"

AUTOMATION_REPO="${REPO}" AUTOMATION_WORK="${WORK}" AUTOMATION_USER_FOLDER="${USER_FOLDER}" \
	AUTOMATION_N8N_APP="${APP_DIR}" AUTOMATION_PG_PORT="${PG_PORT}" AUTOMATION_PG_PASSWORD="${PG_PASSWORD}" \
	AUTOMATION_PSQL="${PG_BIN}/psql" AUTOMATION_PIDS_FILE="${PIDS_FILE}" AUTOMATION_SHELL_STEPS="${STEPS}" \
	AUTOMATION_RUN_START="${RUN_START}" AUTOMATION_TARBALL="${TARBALL}" \
	npx --no-install tsx "${HERE}/automation.ts"
