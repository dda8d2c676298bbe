#!/usr/bin/env bash
# One dashboard browser test file (tests/interop/dashboard/*.test.mjs, or mcp_apps.test.mjs), run
# by node --test (Node 22 from node_modules) with Debian's Chromium driven by playwright-core,
# against the server binary given, on the store given. Each test file starts its own server and
# browser (dashboard/harness.mjs) and removes its temporary directory. Screenshots of every page
# go to $SIGHTLINE_SCREENSHOT_DIR (default build/screenshots), named <store>-<page>.png.
# tests/CMakeLists.txt registers every file on each store as its own CTest entry
# (dashboard.<file>/<store>). Installed by script/bootstrap --test.
# Usage: tests/interop/dashboard_interop.sh path/to/sightline sqlite|postgresql FILE
# Exit 77 (CTest's "skipped") for postgresql without SIGHTLINE_TEST_PG_DSN, unless
# SIGHTLINE_REQUIRE_PG is set: then the missing database is a failure.
set -euo pipefail
binary="$(realpath "$1")"
store="$2"
file="$3"
here="$(cd "$(dirname "$0")" && pwd)"
node="$here/node_modules/.bin/node"
repo="$(cd "$here/../.." && pwd)"
export SIGHTLINE_BINARY="$binary"
export SIGHTLINE_SCREENSHOT_DIR="${SIGHTLINE_SCREENSHOT_DIR:-$repo/build/screenshots}"
mkdir -p "$SIGHTLINE_SCREENSHOT_DIR"
case "$store" in
  sqlite) export SIGHTLINE_TEST_PG_DSN="" ;;
  postgresql)
    if [[ -z "${SIGHTLINE_TEST_PG_DSN:-}" ]]; then
      [[ -n "${SIGHTLINE_REQUIRE_PG:-}" ]] && { echo "SIGHTLINE_TEST_PG_DSN is not set" >&2; exit 1; }
      echo "skipped: no SIGHTLINE_TEST_PG_DSN"
      exit 77
    fi ;;
  *) echo "unknown store: $store (sqlite or postgresql)" >&2; exit 2 ;;
esac
cd "$here"
"$node" --test --test-concurrency=1 --test-reporter=spec "$file"
