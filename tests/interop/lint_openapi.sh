#!/usr/bin/env bash
# Fetches /openapi.json and /openapi.yaml from a freshly started server and lints both with
# Redocly's CLI (installed from npm by script/bootstrap --test). Fails on any lint error.
# Usage: tests/interop/lint_openapi.sh path/to/sightline
set -euo pipefail
binary="$(realpath "$1")"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d /tmp/sightline-lint.XXXXXX)"
"$binary" serve --data "$work/data" --listen 127.0.0.1:0 >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

port=""
for _ in $(seq 1 300); do
  port="$(grep -o '"msg":"ready".*"port":[0-9]*' "$work/server.log" | grep -o '[0-9]*$' || true)"
  [[ -n "$port" ]] && break
  sleep 0.1
done
[[ -n "$port" ]] || { echo "server did not start:"; cat "$work/server.log"; exit 1; }

curl -sf "http://127.0.0.1:$port/openapi.json" -o "$work/openapi.json"
curl -sf "http://127.0.0.1:$port/openapi.yaml" -o "$work/openapi.yaml"
cd "$here"
export NO_UPDATE_NOTIFIER=1 REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
status=0
for doc in openapi.json openapi.yaml; do
  echo "== redocly lint $doc"
  if ! node_modules/.bin/redocly lint --config redocly.yaml --format stylish "$work/$doc" \
       >"$work/lint.txt" 2>&1; then
    status=1
  fi
  grep -v -e '^\s*$' -e 'Node.js' -e '═' -e '║' "$work/lint.txt" || true
done
exit $status
