#!/usr/bin/env bash
# The dashboard in a real browser: every tests/interop/dashboard/*.test.mjs, run by node --test
# (Node 22 from node_modules) with Debian's Chromium driven by playwright-core, against the
# server binary given — on SQLite and, when SIGHTLINE_TEST_PG_DSN is set, on PostgreSQL too.
# Each test file starts its own server and browser (dashboard/harness.mjs) and removes its
# temporary directory. Screenshots of every page go to $SIGHTLINE_SCREENSHOT_DIR (default
# build/screenshots), named <store>-<page>.png. Installed by script/bootstrap --test.
# Then the MCP Apps view (mcp_apps.test.mjs) in a host page built with the ext-apps AppBridge.
# Usage: tests/interop/dashboard_interop.sh path/to/sightline
set -euo pipefail
binary="$(realpath "$1")"
here="$(cd "$(dirname "$0")" && pwd)"
node="$here/node_modules/.bin/node"
repo="$(cd "$here/../.." && pwd)"
export SIGHTLINE_BINARY="$binary"
export SIGHTLINE_SCREENSHOT_DIR="${SIGHTLINE_SCREENSHOT_DIR:-$repo/build/screenshots}"
mkdir -p "$SIGHTLINE_SCREENSHOT_DIR"
cd "$here"
tests=(dashboard/*.test.mjs)

echo "dashboard: SQLite"
SIGHTLINE_TEST_PG_DSN="" "$node" --test --test-concurrency=1 --test-reporter=spec "${tests[@]}"

# The MCP Apps view in a host built with @modelcontextprotocol/ext-apps (the store does not
# matter to it: once, on SQLite).
echo "MCP Apps: the report view in an ext-apps host"
SIGHTLINE_TEST_PG_DSN="" "$node" --test --test-reporter=spec mcp_apps.test.mjs

if [[ -n "${SIGHTLINE_TEST_PG_DSN:-}" ]]; then
  echo "dashboard: PostgreSQL"
  "$node" --test --test-concurrency=1 --test-reporter=spec "${tests[@]}"
fi
echo "dashboard: screenshots in $SIGHTLINE_SCREENSHOT_DIR"
