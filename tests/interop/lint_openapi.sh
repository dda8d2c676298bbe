#!/usr/bin/env bash
# Fetches /openapi.json and /openapi.yaml from a freshly started server and lints both with
# Redocly's CLI (installed from npm by script/bootstrap --test). Fails on any lint error.
# Usage: tests/interop/lint_openapi.sh path/to/sightline
set -euo pipefail
binary="$(realpath "$1")"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/sightline-lint.XXXXXX")"
server=""
# set +e: a helper that has already exited must not stop the clean-up before rm.
trap 'set +e; [[ -n "$server" ]] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
source "$here/serve_for_test.sh"
start_sightline "$binary" "$work" --data "$work/data"

curl -sf "http://127.0.0.1:$port/api/openapi.json" -o "$work/openapi.json"
curl -sf "http://127.0.0.1:$port/api/openapi.yaml" -o "$work/openapi.yaml"
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
