#!/usr/bin/env bash
# The editor check in a real browser (`npm run test:n8n-editor`):
#   1. installs what it needs when missing: Debian's chromium (apt-get) and the pinned
#      playwright-core devDependency (npm install); no browser is ever downloaded by Playwright;
#   2. installs n8n once per machine, builds and packs this package and installs the tarball into
#      a fresh N8N_USER_FOLDER (test/n8n-app/lib.sh);
#   3. runs test/n8n-editor/editor-check.ts (with tsx): the local service, n8n's CLI imports,
#      `n8n start`, then headless Chromium through the editor; it prints the summary.
# Exits non-zero on any failure. The work folder (n8n logs, screenshots of every step) is removed
# after a passing run and kept after a failure, or always with KEEP_WORK=1.
#
# Environment:
#   N8N_APP_DIR   where n8n is installed (default: see test/n8n-app/lib.sh; n8n 2.41 here).
#   KEEP_WORK=1   keep the work folder after a passing run.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "${HERE}/../../scripts/node24.sh" >/dev/null
source "${HERE}/../n8n-app/lib.sh"
FAIL_PREFIX="n8n editor check"
T0="$(now)"
cd "${REPO}"

CHROMIUM=/usr/bin/chromium
PLAYWRIGHT_VERSION="$(node -p 'require("./package.json").devDependencies["playwright-core"]')"

t0="$(now)"
if [ ! -x "${CHROMIUM}" ]; then
	apt_install chromium
	[ -x "${CHROMIUM}" ] || fail "apt-get installed chromium, but ${CHROMIUM} is still missing"
	step_done "install chromium (apt-get)" "${t0}"
else
	step_done "chromium present" "${t0}"
fi

t0="$(now)"
installed_playwright="$(node -p 'require("./node_modules/playwright-core/package.json").version' 2>/dev/null || true)"
if [ "${installed_playwright}" != "${PLAYWRIGHT_VERSION}" ]; then
	echo "Installing playwright-core ${PLAYWRIGHT_VERSION} (npm install) ..."
	# The library only: Playwright's own browser download is never used (Chromium comes from Debian).
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error ||
		fail "npm install (playwright-core ${PLAYWRIGHT_VERSION})"
	step_done "npm install playwright-core" "${t0}"
fi

ensure_n8n_app

make_work n8n-editor-check
trap 'keep_or_remove_work $? "n8n logs in ${WORK}/logs, screenshots in ${WORK}/screenshots"' EXIT

install_package "${WORK}"

EDITOR_REPO="${REPO}" EDITOR_WORK="${WORK}" EDITOR_USER_FOLDER="${USER_FOLDER}" EDITOR_N8N_APP="${APP_DIR}" \
	EDITOR_CHROMIUM="${CHROMIUM}" EDITOR_BROWSER="$("${CHROMIUM}" --version 2>/dev/null | grep -o 'Chromium [0-9.]*' || echo Chromium)" \
	EDITOR_TARBALL="${TARBALL}" EDITOR_SHELL_STEPS="${STEPS}" EDITOR_T0="${T0}" \
	npx --no-install tsx "${HERE}/editor-check.ts"
