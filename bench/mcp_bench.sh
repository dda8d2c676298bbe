#!/usr/bin/env bash
# MCP tools/call throughput, 16 calls in flight over keep-alive, in both protocol eras:
#   - Sightline: get_project with a private API key (the key and its project read in one query,
#     the live permission check, the operation, JSON-RPC), SQLite;
#   - the reference measured in the same run: the official TypeScript SDK v2 server
#     (bench/mcp_reference_server.cjs, stateless, one echo tool, no credential, no store).
# 2026-07-28 requests are stateless; 2025-11-25 ones run in one session opened by `initialize`
# (Sightline) or statelessly (the reference, which keeps no sessions in this mode).
# Each server is pinned to CPU 0 (Sightline with one I/O thread), wrk to CPU 1. Also prints
# Sightline's resident memory before and after its runs.
#   bench/mcp_bench.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10}"
connections="${2:-16}"
script/build sightline >/dev/null
node="tests/interop/node_modules/.bin/node"
[[ -x "$node" ]] || script/bootstrap --test >/dev/null
work="$(mktemp -d /tmp/sightline-mcp-bench.XXXXXX)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

meta='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
lua() {  # file body header-lines…
  local file="$1" body="$2"
  shift 2
  {
    echo 'wrk.method = "POST"'
    echo 'wrk.headers["Content-Type"] = "application/json"'
    echo 'wrk.headers["Accept"] = "application/json, text/event-stream"'
    for header in "$@"; do echo "wrk.headers[\"${header%%:*}\"] = \"${header#*: }\""; done
    echo "wrk.body = [[$body]]"
  } >"$file"
}

run() {  # label url lua-file
  local out rps p50 p99 errors
  out="$(taskset -c 1 wrk -t1 -c"$connections" -d"${duration}s" --latency -s "$3" "$2")"
  rps="$(awk '/Requests\/sec/ {print $2}' <<<"$out")"
  p50="$(awk '$1=="50%" {print $2}' <<<"$out")"
  p99="$(awk '$1=="99%" {print $2}' <<<"$out")"
  errors="$(grep -E 'Non-2xx|Socket errors' <<<"$out" || true)"
  printf '| %-44s | %10s | %8s | %8s |\n' "$1" "$rps" "$p50" "$p99" >&2
  [[ -z "$errors" ]] || echo "  !! $errors" >&2
  echo "$rps"
}

rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }

# Sightline, SQLite, one I/O thread; the rate limit out of the way (each request still counts).
boot="$(build/sightline admin bootstrap --data "$work/data" --org Bench --project Site \
  --email bench@bench.test --password 'correct horse battery staple')"
key="$("$node" -e 'process.stdout.write(JSON.parse(process.argv[1]).privateApiKey)' "$boot")"
taskset -c 0 build/sightline serve --listen 127.0.0.1:0 --threads 1 --log-level warn \
  --rate-limit 1000000000 --data "$work/data" --rollup-interval 0 >"$work/sightline.log" 2>&1 &
sightline=$!
pids+=("$sightline")
port=""
for _ in $(seq 1 100); do
  port="$(ss -ltnpH 2>/dev/null | grep "pid=$sightline," | grep -oE '127.0.0.1:[0-9]+' | cut -d: -f2 | head -1 || true)"
  [[ -n "$port" ]] && break
  sleep 0.1
done
[[ -n "$port" ]] || { echo "sightline did not start" >&2; cat "$work/sightline.log" >&2; exit 1; }
url="http://127.0.0.1:$port/api/mcp"

call='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_project","arguments":{},'"$meta"'}}'
lua "$work/sightline-modern.lua" "$call" "Authorization: Bearer $key" \
  "MCP-Protocol-Version: 2026-07-28" "Mcp-Method: tools/call" "Mcp-Name: get_project"
session="$(curl -s -D - -o /dev/null -X POST "$url" -H "Authorization: Bearer $key" \
  -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}' |
  awk 'tolower($1)=="mcp-session-id:" {print $2}' | tr -d '\r')"
lua "$work/sightline-legacy.lua" \
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_project","arguments":{}}}' \
  "Authorization: Bearer $key" "MCP-Protocol-Version: 2025-11-25" "Mcp-Session-Id: $session"

# The reference, on the same core.
taskset -c 0 "$node" bench/mcp_reference_server.cjs >"$work/reference.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do grep -q LISTEN "$work/reference.log" && break; sleep 0.1; done
reference="http://127.0.0.1:$(awk '/LISTEN/ {print $2}' "$work/reference.log")/mcp"
echo_call='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},'"$meta"'}}'
lua "$work/reference-modern.lua" "$echo_call" \
  "MCP-Protocol-Version: 2026-07-28" "Mcp-Method: tools/call" "Mcp-Name: echo"
lua "$work/reference-legacy.lua" \
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}' \
  "MCP-Protocol-Version: 2025-11-25"

# Warm both up, then measure.
for target in "$url $work/sightline-modern.lua" "$reference $work/reference-modern.lua"; do
  set -- $target
  taskset -c 1 wrk -t1 -c"$connections" -d2s -s "$2" "$1" >/dev/null
done
rss_before="$(rss "$sightline")"
echo "| MCP tools/call, $connections in flight, ${duration} s each | req/s | p50 | p99 |" >&2
echo "|---|---:|---:|---:|" >&2
modern="$(run "Sightline 2026-07-28 get_project (SQLite)" "$url" "$work/sightline-modern.lua")"
legacy="$(run "Sightline 2025-11-25 get_project (SQLite)" "$url" "$work/sightline-legacy.lua")"
ref_modern="$(run "SDK v2 server 2026-07-28 echo" "$reference" "$work/reference-modern.lua")"
ref_legacy="$(run "SDK v2 server 2025-11-25 echo (stateless)" "$reference" "$work/reference-legacy.lua")"
# A long run of the modern era: resident memory should stay flat.
long="$(taskset -c 1 wrk -t1 -c"$connections" -d"$((duration * 3))s" -s "$work/sightline-modern.lua" "$url" |
  awk '/requests in/ {print $1}')"
rss_after="$(rss "$sightline")"
awk -v m="$modern" -v l="$legacy" -v rm="$ref_modern" -v rl="$ref_legacy" \
  -v b="$rss_before" -v a="$rss_after" -v n="$long" 'BEGIN {
  printf "Sightline / SDK v2 server: 2026-07-28 %.1fx, 2025-11-25 %.1fx\n", m / rm, l / rl
  printf "Sightline resident memory: %.1f MiB before the runs, %.1f MiB after them and %d more calls\n", b / 1024, a / 1024, n
}'
