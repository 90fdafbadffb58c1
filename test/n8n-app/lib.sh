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
#
# The n8n lines tested are the folders of test/n8n-app/versions/: each pins one n8n release in a
# package.json (and lock), and names in .nvmrc the Node.js major it runs on. VERSION may be a
# line (`1.123`, `1.123.x`) or an exact release of a line (`1.123.80`), installed without the
# lock. Each release and Node major gets its own install in
# ~/.cache/n8n-nodes-ideal-house/n8n-<release>-node<major> (or under $XDG_CACHE_HOME, or
# N8N_APP_DIR), outside the repository, so fresh clones on the same machine reuse it; it is
# reinstalled when the manifest, its lock or the Node version change.

N8N_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "${N8N_LIB_DIR}/../.." && pwd)"
STEPS=""
source "${REPO}/scripts/use-node.sh"

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
