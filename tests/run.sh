#!/usr/bin/env bash
# The test command: installs what the tests need on a fresh machine (Debian's chromium and
# chromium-driver for the browser tests, axe-core for the accessibility checks), then runs the
# whole suite. Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need_apt+=(chromium-driver)
command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "== installing ${need_apt[*]}" >&2
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # a fresh machine may still be running its own package jobs at boot: wait for their lock
  # rather than fail at once
  lock=(-o DPkg::Lock::Timeout=600)
  $SUDO apt-get "${lock[@]}" update -qq
  $SUDO apt-get "${lock[@]}" install -y -qq "${need_apt[@]}" >/dev/null
fi

# axe-core for the accessibility test, from the npm registry, kept out of the repo
if [ -f tests/browser/package.json ] && [ ! -f tests/browser/node_modules/axe-core/axe.min.js ]; then
  echo "== npm install (tests/browser)" >&2
  (cd tests/browser && npm install --silent --no-audit --no-fund)
fi

# No `cargo build --release` first: the tests build the binary they run themselves, with the
# features the test dependencies turn on, so a separate build compiled 47 crates and the whole
# tool a second time (about 3 of the 13 minutes this command took on a fresh machine).
cargo test --release -- --test-threads="${RULEBOOK_TEST_THREADS:-2}"
