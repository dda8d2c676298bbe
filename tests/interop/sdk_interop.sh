#!/usr/bin/env bash
# The browser SDK in a real browser: Debian's Chromium, driven by playwright-core, loading the
# tracking script the server serves into pages served from another origin, against the real
# server on SQLite (sdk.test.mjs). Installed by script/bootstrap --test.
# Usage: tests/interop/sdk_interop.sh path/to/sightline
set -euo pipefail
binary="$(realpath "$1")"
here="$(cd "$(dirname "$0")" && pwd)"
node="$here/node_modules/.bin/node"
work="$(mktemp -d "${TMPDIR:-/tmp}/sightline-sdk.XXXXXX")"
server=""
# set +e: a helper that has already exited must not stop the clean-up before rm.
trap 'set +e; [[ -n "$server" ]] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

boot="$("$binary" admin bootstrap --data "$work/data" --org Acme --project Shop \
          --email owner@acme.test --password 'correct horse battery staple')"
json_field() { "$node" -e 'process.stdout.write(String(JSON.parse(process.argv[1])[process.argv[2]]))' "$1" "$2"; }

source "$here/serve_for_test.sh"
# The tracking script served is the one compiled into the binary.
start_sightline "$binary" "$work" --data "$work/data" --rollup-interval 0

export SIGHTLINE_URL="http://127.0.0.1:$port/api"  # the API base
export SIGHTLINE_SDK_KEY="$(json_field "$boot" sdkKey)"
export SIGHTLINE_KEY="$(json_field "$boot" privateApiKey)"
export SIGHTLINE_ORG="$(json_field "$boot" orgSlug)" SIGHTLINE_PROJECT="$(json_field "$boot" projectId)"
cd "$here"
"$node" --test --test-reporter=spec sdk.test.mjs
