#!/usr/bin/env bash
# Durable ingestion throughput, in one run, on SQLite and PostgreSQL:
#   - single events: POST /sdk/v1/logs, one event per request, keep-alive;
#   - batches: POST /sdk/v1/logs/batch with 100 events per request;
#   - the ceiling: the same enriched rows inserted straight into the same store
#     (bench/store_insert_bench, transactions of 1,000 rows);
# and the bare Beast baseline for reference. Every 202 means committed (group commit).
# The server is pinned to CPU 0 with one I/O thread, wrk to CPU 1.
#   bench/ingest_bench.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10}"
connections="${2:-64}"
script/build sightline bare_http_server store_insert_bench >/dev/null
work="$(mktemp -d /tmp/sightline-ingest-bench.XXXXXX)"
pids=()
pg_dir="$(mktemp -d /tmp/sightline-ingest-pg.XXXXXX)"
cleanup() {
  # serve() runs in a command substitution, so its servers' pids come through a file.
  if [[ -f "$work/pids" ]]; then
    while read -r p; do pids+=("$p"); done <"$work/pids"
  fi
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  script/pg-test-cluster stop "$pg_dir" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
dsn="$(script/pg-test-cluster start "$pg_dir")"

single='{"event":"page_view","channel":"pages","anonymous_id":"8b0c4a3e-5f1d-4c2a-9b7e-1f2d3c4b5a69","tags":{"plan":"pro","$url":"https://shop.test/pricing?utm_source=news"}}'
batch="{\"events\":[$(python3 -c "import sys; print(','.join([sys.argv[1]]*100))" "$single")]}"
ua='Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1'

lua() {  # file path body
  cat >"$1" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["x-sdk-key"] = "$3"
wrk.headers["User-Agent"] = "$ua"
wrk.body = [[$2]]
LUA
}

rps() {  # lua url
  taskset -c 1 wrk -t1 -c"$connections" -d"${duration}s" -s "$1" "$2" |
    awk '/Requests\/sec/ {print $2} /Non-2xx/ {print "NON-2XX:" $0 > "/dev/stderr"}'
}

serve() {  # storage-args... ; prints the port
  local log="$work/serve-$RANDOM.log"
  taskset -c 0 build/sightline serve --listen 127.0.0.1:0 --threads 1 --log-level warn "$@" \
    >"$log" 2>&1 &
  echo $! >>"$work/pids"
  for _ in $(seq 1 100); do
    port="$(ss -ltnpH 2>/dev/null | grep "pid=$!," | grep -oE '127.0.0.1:[0-9]+' | cut -d: -f2 | head -1 || true)"
    [[ -n "$port" ]] && { echo "$port"; return; }
    sleep 0.1
  done
  cat "$log" >&2; exit 1
}

measure() {  # label storage-args...
  local label="$1"; shift
  local key
  key="$(build/sightline admin bootstrap "$@" --email b@example.test --password benchmark-pw \
          --org Bench --project Site | python3 -c 'import json,sys; print(json.load(sys.stdin)["sdkKey"])')"
  local port; port="$(serve "$@")"
  lua "$work/single.lua" "$single" "$key"
  lua "$work/batch.lua" "$batch" "$key"
  local one many
  one="$(rps "$work/single.lua" "http://127.0.0.1:$port/api/sdk/v1/logs")"
  many="$(rps "$work/batch.lua" "http://127.0.0.1:$port/api/sdk/v1/logs/batch")"
  local ceiling
  ceiling="$(taskset -c 0 build/bench/store_insert_bench "$@" 200000 1000)"
  printf '| %-10s | %12s | %14s | %18s | %16s |\n' "$label" "$one" \
    "$(python3 -c "print(round(float('$many')*100))")" "$ceiling" \
    "$(python3 -c "print(f'{float(\"$many\")*100/float(\"$ceiling\")*100:.0f}%')")"
}

echo "wrk: 1 thread, $connections connections, ${duration}s; server on CPU 0 (1 I/O thread), wrk on CPU 1"
taskset -c 0 build/bench/bare_http_server 0 1 >"$work/bare.log" 2>&1 &
pids+=($!)
sleep 0.3
bare_port="$(grep -oE '[0-9]+' "$work/bare.log" | head -1)"
echo "bare Beast baseline: $(taskset -c 1 wrk -t1 -c"$connections" -d"${duration}s" "http://127.0.0.1:$bare_port/" | awk '/Requests\/sec/ {print $2}') req/s"
echo
printf '| %-10s | %12s | %14s | %18s | %16s |\n' "store" "single req/s" "batch events/s" "raw insert rows/s" "batch / raw"
printf '|%s|%s|%s|%s|%s|\n' "------------" "--------------" "----------------" "--------------------" "------------------"
mkdir -p "$work/sqlite-serve" "$work/sqlite-raw"
measure "SQLite" --data "$work/sqlite-serve"
measure "PostgreSQL" --database-url "$dsn"
