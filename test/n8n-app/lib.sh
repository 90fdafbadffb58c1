# shellcheck shell=bash
# Shared by the real-n8n scripts (test/n8n-app/run.sh, test/n8n-editor/run.sh,
# test/n8n-queue/run.sh): source it, then
#   ensure_n8n_app            installs the pinned n8n once per machine into N8N_APP_DIR
#   install_package <work>    builds, packs and installs this package into <work>/user the way
#                             n8n's community-package install does; sets USER_FOLDER, TARBALL
#   step_done <name> <t0>     records a step's seconds in STEPS (printed by the summaries)
#   apt_install <pkg>...      installs Debian packages (as root or through sudo), services not started
#   make_work <name>          a fresh work folder in WORK; `keep_or_remove_work <code> <what>` in
#                             the EXIT trap removes it after a pass, keeps it after a failure or
#                             with KEEP_WORK=1
#
# N8N_APP_DIR: where n8n is installed (default ~/.cache/n8n-nodes-ideal-house/n8n-app, or under
# $XDG_CACHE_HOME). Outside the repository, so fresh clones on the same machine reuse it; it is
# reinstalled only when test/n8n-app/package.json, its lock or the Node version change.

N8N_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "${N8N_LIB_DIR}/../.." && pwd)"
APP_DIR="${N8N_APP_DIR:-${XDG_CACHE_HOME:-${HOME}/.cache}/n8n-nodes-ideal-house/n8n-app}"
N8N_BIN="${APP_DIR}/node_modules/n8n/bin/n8n"
STEPS=""

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

ensure_n8n_app() {
	mkdir -p "${APP_DIR}"
	# Two runs at once on one machine must not install over each other.
	if command -v flock >/dev/null; then
		exec 9>"${APP_DIR}/.lock"
		flock 9
	fi
	local stamp t0 version wanted
	stamp="$(cat "${N8N_LIB_DIR}/package.json" "${N8N_LIB_DIR}/package-lock.json" 2>/dev/null | sha256sum | cut -c1-16)-node-$(node --version)"
	t0="$(now)"
	if [ "$(cat "${APP_DIR}/.install-stamp" 2>/dev/null)" != "${stamp}" ] || [ ! -x "${APP_DIR}/node_modules/.bin/n8n" ]; then
		echo "Installing n8n into ${APP_DIR} (once per machine; ~5 min) ..."
		rm -rf "${APP_DIR}/node_modules" "${APP_DIR}/.install-stamp"
		cp "${N8N_LIB_DIR}/package.json" "${APP_DIR}/package.json"
		if [ -f "${N8N_LIB_DIR}/package-lock.json" ]; then cp "${N8N_LIB_DIR}/package-lock.json" "${APP_DIR}/package-lock.json"; fi
		# `npm ci` refuses lock files made here (the mirror lacks some optional packages): install.
		# Scripts off (isolated-vm would build from source); then build the two native modules n8n uses.
		(cd "${APP_DIR}" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error) ||
			fail "npm install of n8n in ${APP_DIR}"
		(cd "${APP_DIR}" && npm rebuild isolated-vm sqlite3 --loglevel=error) || fail "npm rebuild isolated-vm sqlite3"
		version="$(cd "${APP_DIR}" && node node_modules/n8n/bin/n8n --version 2>/dev/null | tail -n 1)"
		wanted="$(node -p 'require(process.argv[1]).dependencies.n8n' "${N8N_LIB_DIR}/package.json")"
		[ "${version}" = "${wanted}" ] || fail "installed n8n reports version '${version}', expected ${wanted}"
		echo "${stamp}" >"${APP_DIR}/.install-stamp"
		step_done "install n8n (fresh)" "${t0}"
	else
		step_done "install n8n (cached)" "${t0}"
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
