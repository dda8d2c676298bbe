#!/usr/bin/env bash
# Long-running tools as MCP tasks (docs/mcp.md, "Long-running tools: tasks"), with real clients
# against a freshly started server (SQLite): a site-audit crawl of a small loopback site run as
# a task in 2025-11-25 by the official TypeScript SDK v1 client and in 2026-07-28 on the wire
# and by the MCP Inspector's CLI (through @modelcontextprotocol/ext-tasks), followed to its
# result and cancelled (mcp_tasks.test.mjs). All installed from npm by script/bootstrap --test.
# Usage: tests/interop/mcp_tasks_interop.sh path/to/sightline
set -euo pipefail
binary="$(realpath "$1")"
here="$(cd "$(dirname "$0")" && pwd)"
node="$here/node_modules/.bin/node"  # Node 22 from npm (the Inspector needs it)
work="$(mktemp -d "${TMPDIR:-/tmp}/sightline-mcp-tasks.XXXXXX")"
server=""
# set +e: a helper that has already exited must not stop the clean-up before rm.
trap 'set +e; kill $server 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

password='correct horse battery staple'
bootstrap() {  # org project email → the bootstrap JSON
  "$binary" admin bootstrap --data "$work/data" --org "$1" --project "$2" --email "$3" \
    --password "$password"
}
json_field() { "$node" -e 'process.stdout.write(String(JSON.parse(process.argv[1])[process.argv[2]]))' "$1" "$2"; }
first="$(bootstrap Acme Shop owner@acme.test)"
other="$(bootstrap Other Blog owner@other.test)"

source "$here/serve_for_test.sh"
# ServiceAuditBot may fetch the loopback site; queued crawls are claimed within a second.
start_sightline "$binary" "$work" --data "$work/data" --rollup-interval 0 \
  --audit-private-addresses --audit-interval 1

export SIGHTLINE_URL="http://127.0.0.1:$port/api"  # the API base
export SIGHTLINE_ORG="$(json_field "$first" orgSlug)" SIGHTLINE_PROJECT="$(json_field "$first" projectId)"
export SIGHTLINE_KEY="$(json_field "$first" privateApiKey)"
export SIGHTLINE_OTHER_KEY="$(json_field "$other" privateApiKey)"
export HOME="$work/home"  # the Inspector keeps its state under ~/.mcp-inspector
cd "$here"
status=0
"$node" --test --test-reporter=spec mcp_tasks.test.mjs || status=1
if [[ $status -ne 0 ]]; then
  echo "== server log"
  tail -n 50 "$work/server.log"
fi
exit $status
