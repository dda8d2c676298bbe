#!/usr/bin/env bash
# Real MCP clients against a freshly started server (SQLite), in both protocol eras:
# - the official TypeScript SDK v1 client (2025-11-25) with private API keys (mcp_client.test.mjs)
#   and through the OAuth consent page driven in headless Chromium (mcp_oauth.test.mjs);
# - the SDK v2 client pinned to 2026-07-28, on 'auto' and on the default handshake, with keys and
#   through OAuth (mcp_v2.test.mjs), and, when SIGHTLINE_TEST_PG_DSN names a PostgreSQL server,
#   one pinned client alternating between two nodes sharing it;
# - the MCP Inspector's CLI in each era;
# - the official conformance suite with `--requirements 2025-11-25` and `--requirements
#   2026-07-28`, each with its expected-failures baseline (mcp_conformance_baseline_*.yml), then
#   both again against the test-only fixture server (sightline_mcp_fixtures: the same server
#   with the suite's fixtures, answered without a credential), where every required scenario
#   passes.
# All installed from npm (Chromium from Debian) by script/bootstrap --test; Node 22 comes from
# npm as well.
# Usage: tests/interop/mcp_interop.sh path/to/sightline path/to/sightline_mcp_fixtures
set -euo pipefail
binary="$(realpath "$1")"
fixture_server="$(realpath "$2")"
here="$(cd "$(dirname "$0")" && pwd)"
node="$here/node_modules/.bin/node"  # Node 22 from npm (the Inspector and the suite need it)
work="$(mktemp -d "${TMPDIR:-/tmp}/sightline-mcp.XXXXXX")"
server=""
documents=""
nodes=()  # the two PostgreSQL nodes
# set +e: a helper that has already exited must not stop the clean-up before rm.
trap 'set +e; kill $server $documents "${nodes[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

password='correct horse battery staple'
bootstrap() {  # org project email → the bootstrap JSON
  "$binary" admin bootstrap --data "$work/data" --org "$1" --project "$2" --email "$3" \
    --password "$password"
}
json_field() { "$node" -e 'process.stdout.write(String(JSON.parse(process.argv[1])[process.argv[2]]))' "$1" "$2"; }
first="$(bootstrap Acme Shop owner@acme.test)"
other="$(bootstrap Other Blog owner@other.test)"

# An OAuth client metadata document on loopback HTTPS (as https://claude.ai/oauth/… would be),
# its certificate trusted by the server through --outbound-ca.
mkdir -p "$work/www"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
"$node" "$here/static_https_server.mjs" "$work/cert.pem" "$work/key.pem" "$work/www" \
  >"$work/documents.port" &
documents=$!
for _ in $(seq 1 100); do [[ -s "$work/documents.port" ]] && break; sleep 0.1; done
document_url="https://127.0.0.1:$(json_field "$(cat "$work/documents.port")" port)/client.json"
cat >"$work/www/client.json" <<JSON
{"client_id": "$document_url", "client_name": "Interop Document Client",
 "redirect_uris": ["http://127.0.0.1/callback"], "token_endpoint_auth_method": "none",
 "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"]}
JSON

source "$here/serve_for_test.sh"
start_sightline "$binary" "$work" --data "$work/data" --rollup-interval 0 \
  --client-metadata-private --outbound-ca "$work/cert.pem"

export SIGHTLINE_URL="http://127.0.0.1:$port/api"  # the API base
export SIGHTLINE_EMAIL=owner@acme.test SIGHTLINE_PASSWORD="$password"
export SIGHTLINE_ORG="$(json_field "$first" orgSlug)" SIGHTLINE_PROJECT="$(json_field "$first" projectId)"
export SIGHTLINE_KEY="$(json_field "$first" privateApiKey)"
export SIGHTLINE_OTHER_KEY="$(json_field "$other" privateApiKey)"
export SIGHTLINE_CLIENT_DOCUMENT="$document_url"
cd "$here"
status=0

echo "== official TypeScript SDK client"
"$node" --test --test-reporter=spec mcp_client.test.mjs || status=1

echo "== official TypeScript SDK client through OAuth (consent in headless Chromium)"
"$node" --test --test-reporter=spec mcp_oauth.test.mjs || status=1

echo "== official TypeScript SDK v2 client: pinned to 2026-07-28, auto and default, keys and OAuth"
if [[ -n "${SIGHTLINE_TEST_PG_DSN:-}" ]]; then
  # Two nodes behind an imaginary load balancer, sharing one PostgreSQL store.
  nodes_org="Nodes$RANDOM$RANDOM"
  nodes_boot="$("$binary" admin bootstrap --database-url "$SIGHTLINE_TEST_PG_DSN" \
    --org "$nodes_org" --project Site --email "owner@$nodes_org.test" --password "$password")"
  for name in a b; do
    mkdir -p "$work/node-$name"
    (start_sightline "$binary" "$work/node-$name" --database-url "$SIGHTLINE_TEST_PG_DSN" \
       --rollup-interval 0 && echo "$server $port" >"$work/node-$name/started")
    read -r pid node_port <"$work/node-$name/started"
    nodes+=("$pid")
    export "SIGHTLINE_NODE_${name^^}_URL=http://127.0.0.1:$node_port/api/mcp"
  done
  export SIGHTLINE_NODES_KEY="$(json_field "$nodes_boot" privateApiKey)"
elif [[ -n "${SIGHTLINE_REQUIRE_PG:-}" ]]; then
  echo "FAILED: SIGHTLINE_REQUIRE_PG is set but SIGHTLINE_TEST_PG_DSN is not"; status=1
fi
"$node" --test --test-reporter=spec mcp_v2.test.mjs || status=1

export HOME="$work/home"  # the Inspector keeps its state under ~/.mcp-inspector
inspect() {  # era → runs the Inspector's CLI tools/call get_top_bots in that protocol era
  local era="$1"
  if "$node" node_modules/.bin/mcp-inspector --cli "$SIGHTLINE_URL/mcp" --transport http \
       --protocol-era "$era" --header "Authorization: Bearer $SIGHTLINE_KEY" \
       --method tools/call --tool-name get_top_bots --tool-arg from=2026-11-10 \
       --tool-arg to=2026-11-10 --format json -q --stored-auth-only \
       >"$work/inspector.json" 2>"$work/inspector.err" &&
     "$node" -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).result;
                 if (r.isError !== false || r.structuredContent.totalRequests !== 5) process.exit(1);' \
       "$work/inspector.json"; then
    echo "ok: the Inspector ($era era) got 5 crawler requests"
  else
    echo "FAILED ($era era)"; cat "$work/inspector.json" "$work/inspector.err"; status=1
  fi
}
echo "== MCP Inspector CLI: tools/call get_top_bots in each era"
inspect legacy
inspect modern
if "$node" node_modules/.bin/mcp-inspector --cli "$SIGHTLINE_URL/mcp" --transport http \
     --protocol-era modern --header "Authorization: Bearer $SIGHTLINE_KEY" \
     --method tools/list --format json -q --stored-auth-only >"$work/tools.json" 2>&1 &&
   grep -q '"get_top_bots"' "$work/tools.json"; then
  echo "ok: the Inspector (modern era) lists get_top_bots"
else
  echo "FAILED: Inspector tools/list"; cat "$work/tools.json"; status=1
fi

conformance() {  # label requirements [options…] → runs the suite against $conformance_url
  local label="$1" requirements="$2"
  shift 2
  echo "== MCP conformance suite, $requirements, $label"
  if ! "$node" "${conformance_node_options[@]}" node_modules/.bin/conformance server \
       --url "$conformance_url" --requirements "$requirements" "$@" \
       >"$work/conformance.txt" 2>&1; then
    status=1
    echo "FAILED"
  fi
  sed -n '/=== SUMMARY ===/,$p' "$work/conformance.txt"
}
conformance_url="$SIGHTLINE_URL/mcp"
conformance_node_options=(--import ./bearer_fetch.mjs)
export SIGHTLINE_MCP_BEARER="$SIGHTLINE_KEY" SIGHTLINE_MCP_URL="$SIGHTLINE_URL/mcp"
conformance "with a private API key" 2025-11-25 \
  --expected-failures mcp_conformance_baseline_2025.yml
conformance "with a private API key" 2026-07-28 \
  --expected-failures mcp_conformance_baseline_2026.yml

kill "$server"; wait "$server" 2>/dev/null || true
start_sightline "$fixture_server" "$work" --data "$work/data"
conformance_url="http://127.0.0.1:$port/api/mcp"
conformance_node_options=()
unset SIGHTLINE_MCP_BEARER
conformance "every scenario against the fixture server" 2025-11-25
conformance "every scenario against the fixture server" 2026-07-28
exit $status
