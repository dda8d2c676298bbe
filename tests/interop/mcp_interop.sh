#!/usr/bin/env bash
# Real MCP clients against a freshly started server (SQLite): the official TypeScript SDK client
# with private API keys (mcp_client.test.mjs) and through the OAuth consent page driven in
# headless Chromium (mcp_oauth.test.mjs), the MCP Inspector's CLI, and the official conformance
# suite with its expected-failures baseline (mcp_conformance_baseline.yml), then every scenario of
# the suite against the test-only fixture mode (--mcp-conformance-fixtures). All installed from
# npm (Chromium from Debian) by script/bootstrap --test; Node 22 comes from npm as well.
# Usage: tests/interop/mcp_interop.sh path/to/sightline
set -euo pipefail
binary="$(realpath "$1")"
here="$(cd "$(dirname "$0")" && pwd)"
node="$here/node_modules/.bin/node"  # Node 22 from npm (the Inspector and the suite need it)
work="$(mktemp -d "${TMPDIR:-/tmp}/sightline-mcp.XXXXXX")"
server=""
documents=""
# set +e: a helper that has already exited must not stop the clean-up before rm.
trap 'set +e; [[ -n "$server" ]] && kill "$server" 2>/dev/null; [[ -n "$documents" ]] && kill "$documents" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

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

export SIGHTLINE_URL="http://127.0.0.1:$port"
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

echo "== MCP Inspector CLI: tools/call get_top_bots"
if "$node" node_modules/.bin/mcp-inspector --cli "$SIGHTLINE_URL/mcp" --transport http \
     --header "Authorization: Bearer $SIGHTLINE_KEY" --method tools/call \
     --tool-name get_top_bots --tool-arg from=2026-11-10 --tool-arg to=2026-11-10 \
     >"$work/inspector.json" 2>"$work/inspector.err" &&
   "$node" -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
               if (r.isError !== false || r.structuredContent.totalRequests !== 5) process.exit(1);' \
     "$work/inspector.json"; then
  echo "ok: the Inspector got 5 crawler requests"
else
  echo "FAILED"; cat "$work/inspector.json" "$work/inspector.err"; status=1
fi

echo "== MCP conformance suite (server scenarios, with a private API key)"
if ! SIGHTLINE_MCP_BEARER="$SIGHTLINE_KEY" SIGHTLINE_MCP_URL="$SIGHTLINE_URL/mcp" \
     "$node" --import ./bearer_fetch.mjs node_modules/.bin/conformance server \
     --url "$SIGHTLINE_URL/mcp" --expected-failures mcp_conformance_baseline.yml \
     >"$work/conformance.txt" 2>&1; then
  status=1
fi
sed -n '/=== SUMMARY ===/,$p' "$work/conformance.txt"

echo "== MCP conformance suite, every scenario, against the test-only fixture mode"
kill "$server"; wait "$server" 2>/dev/null || true
start_sightline "$binary" "$work" --data "$work/data" --mcp-conformance-fixtures
if ! "$node" node_modules/.bin/conformance server --url "http://127.0.0.1:$port/mcp" \
     --suite all >"$work/fixtures.txt" 2>&1; then
  status=1
fi
sed -n '/=== SUMMARY ===/,$p' "$work/fixtures.txt"
exit $status
