#!/usr/bin/env bash
# How fast the web analytics page is complete, in Chromium, on a big store: the time from the
# navigation's start to the page's `sightline:view-ready` mark (every report of the view loaded
# and drawn), read with the performance API, median and worst of N loads; plus the JavaScript
# the first view loaded (compressed bytes, from Resource Timing).
#
#   bench/dashboard_bench.sh [DATA_DIR] [RUNS]
#
# DATA_DIR (default /var/tmp/sightline-dash10m) is a SQLite data directory made once by
#   build/sightline admin bootstrap --data DIR --email bench@sightline.local \
#     --password bench-password-10m --org Bench --project "Bench site" > DIR.keys.json
#   build/bench/report_bench --data DIR --generate 10000000 1000000 --runs 3 \
#     --project <projectId from DIR.keys.json>
# (10M events and 1M crawler requests over the 90 days before 2026-11-01, rolled up in
# Europe/Berlin, which this script sets as the project's reporting timezone). The view timed is
# the 30 days to 2026-10-31 compared with the previous period; the reference, loaded alternately
# with it, is the same page over 30 days of 2025 without events (bench/dashboard_timing.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
data="${1:-/var/tmp/sightline-dash10m}"
runs="${2:-11}"
keys="$data.keys.json"
[[ -s "$keys" ]] || { echo "no $keys: see the comment at the top of $0" >&2; exit 2; }
node="tests/interop/node_modules/.bin/node"
work="$(mktemp -d "${TMPDIR:-/tmp}/sightline-dashbench-XXXXXX")"
trap 'kill "$server" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

source tests/interop/serve_for_test.sh
start_sightline build/sightline "$work" --data "$data" --rollup-interval 15 --bot-ranges-refresh 0
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$keys" "$1"; }
org="$(field orgSlug)" project="$(field projectId)" key="$(field privateApiKey)"
curl -sf -X PATCH "http://127.0.0.1:$port/api/$org/projects/$project" \
  -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
  -d '{"reportingTimezone":"Europe/Berlin"}' >/dev/null

SIGHTLINE_URL="http://127.0.0.1:$port" SIGHTLINE_EMAIL=bench@sightline.local \
SIGHTLINE_PASSWORD=bench-password-10m SIGHTLINE_VIEW="/$org/$project/web?from=2026-10-02&to=2026-10-31&compare=previous_period" \
SIGHTLINE_REFERENCE_VIEW="/$org/$project/web?from=2025-01-02&to=2025-01-31&compare=previous_period" \
SIGHTLINE_RUNS="$runs" "$node" bench/dashboard_timing.mjs
