#!/usr/bin/env bash
# The nodes in n8n's queue mode (`npm run test:n8n-queue [-- --n8n 1.123]`):
#   1. installs n8n and PostgreSQL 17 once per machine (test/n8n-app/lib.sh), and Redis from
#      Debian when it is missing;
#   2. builds, packs and installs this package into a fresh N8N_USER_FOLDER;
#   3. starts its own Redis and PostgreSQL on free loopback ports, with their data in the work
#      folder (no system service is used or touched);
#   4. runs test/n8n-queue/queue.ts (with tsx): one n8n main and two workers on that Redis and
#      database, the 40-task listing workflow through the queue, the same workflow in regular mode,
#      the form upload example (the form on the main, the photo file staged on a worker, on n8n's
#      own link served by the main), two workers on one throttled account, and a worker killed
#      mid-run; it prints the summary.
# Everything it started is stopped on exit, pass or fail. Exits non-zero on any failed check. The
# work folder (logs of every process) is kept on failure, or always with KEEP_WORK=1.
#
# Usage: run.sh [--n8n VERSION]
#   VERSION       an n8n line of test/n8n-app/versions/ (1.123, 2.41) or an exact release of one;
#                 default N8N_VERSION, else 2.41. Each line runs on the Node.js its .nvmrc names.
# Environment:
#   N8N_VERSION   the default for --n8n.
#   N8N_APP_DIR   where n8n is installed (default: see test/n8n-app/lib.sh).
#   PG_INSTALL_DIR  where PostgreSQL 17 is installed (default: see test/n8n-app/lib.sh).
#   KEEP_WORK=1   keep the work folder after a passing run.
#   QUEUE_SKIP_THROTTLED=1  leave out the throttled account (two workers, 200 photos).
#   QUEUE_BINARY_DATA_MODE  another binary data mode than the line's (see settings.ts).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "${HERE}/../../scripts/node24.sh" >/dev/null
source "${HERE}/../n8n-app/lib.sh"
prepare_postgres_run "n8n queue mode" n8n-queue-e2e "$@"
REDIS_DIR="${WORK}/redis"
REDIS_PID=""
stop_redis() {
	[ -n "${REDIS_PID}" ] && kill -0 "${REDIS_PID}" 2>/dev/null || return 0
	kill "${REDIS_PID}"
	for _ in $(seq 50); do kill -0 "${REDIS_PID}" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "${REDIS_PID}" 2>/dev/null
}
STOP_ALSO=stop_redis

# Redis from Debian, when missing.
t0="$(now)"
missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
command -v redis-cli >/dev/null || missing+=(redis-tools)
if [ "${#missing[@]}" -gt 0 ]; then
	apt_install "${missing[@]}"
	step_done "install ${missing[*]} (apt)" "${t0}"
else
	step_done "redis (installed)" "${t0}"
fi

install_package "${WORK}"

# Redis: loopback only, no persistence, data folder in the work folder.
t0="$(now)"
REDIS_PORT="$(free_port)"
mkdir -p "${REDIS_DIR}"
redis-server --port "${REDIS_PORT}" --bind 127.0.0.1 --dir "${REDIS_DIR}" --save "" --appendonly no \
	--logfile "${WORK}/logs/redis.log" >/dev/null 2>&1 &
REDIS_PID=$!
for _ in $(seq 100); do
	[ "$(redis-cli -p "${REDIS_PORT}" ping 2>/dev/null)" = "PONG" ] && break
	kill -0 "${REDIS_PID}" 2>/dev/null || fail "redis-server exited (log: ${WORK}/logs/redis.log)"
	sleep 0.1
done
[ "$(redis-cli -p "${REDIS_PORT}" ping 2>/dev/null)" = "PONG" ] || fail "redis-server not answering on ${REDIS_PORT}"
step_done "start redis" "${t0}"

# PostgreSQL: a throw-away cluster on a loopback port, data and socket in the work folder.
start_postgres "${WORK}/postgres" "${WORK}/logs"
t0="$(now)"
psql_n8n -d postgres -c 'CREATE DATABASE n8n' >"${WORK}/logs/createdb.log" 2>&1 || fail "CREATE DATABASE (log: ${WORK}/logs/createdb.log)"
step_done "create database n8n" "${t0}"

QUEUE_REPO="${REPO}" QUEUE_WORK="${WORK}" QUEUE_USER_FOLDER="${USER_FOLDER}" QUEUE_N8N_APP="${APP_DIR}" \
	QUEUE_REDIS_PORT="${REDIS_PORT}" QUEUE_PG_PORT="${PG_PORT}" QUEUE_PG_PASSWORD="${PG_PASSWORD}" \
	QUEUE_PIDS_FILE="${PIDS_FILE}" QUEUE_SHELL_STEPS="${STEPS}" QUEUE_RUN_START="${RUN_START}" \
	QUEUE_TARBALL="${TARBALL}" QUEUE_N8N_LINE="${N8N_LINE}" QUEUE_PSQL="${PSQL}" \
	npx --no-install tsx "${HERE}/queue.ts"
