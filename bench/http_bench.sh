#!/usr/bin/env bash
# Requests per second of a trivial authenticated operation (GET /{org}/projects/{id}: key
# lookup, membership lookup, project lookup, JSON) over keep-alive, next to a bare Beast server
# answering a fixed body of the same size, measured in the same run with wrk.
#
# The server is pinned to CPU 0 and wrk to CPU 1 (one server thread), so the figures are per
# server core and the load generator does not steal from it.
#   bench/http_bench.sh [seconds] [connections]
# Set SIGHTLINE_BENCH_PG=1 to also measure on a throwaway PostgreSQL cluster.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10}"
connections="${2:-32}"
script/build sightline bare_http_server >/dev/null
work="$(mktemp -d /tmp/sightline-bench.XXXXXX)"
pids=()
pg_dir=""
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [[ -n "$pg_dir" ]] && script/pg-test-cluster stop "$pg_dir" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

wait_port() {  # log-file regex
  for _ in $(seq 1 300); do
    port="$(grep -oE "$2" "$1" | grep -oE '[0-9]+$' | head -1 || true)"
    [[ -n "$port" ]] && { echo "$port"; return; }
    sleep 0.1
  done
  echo "no port in $1" >&2; cat "$1" >&2; exit 1
}

run_wrk() {  # label url [header]
  local out
  out="$(taskset -c 1 wrk -t1 -c"$connections" -d"${duration}s" --latency ${3:+-H "$3"} "$2")"
  local rps p50 p99
  rps="$(awk '/Requests\/sec/ {print $2}' <<<"$out")"
  p50="$(awk '$1=="50%" {print $2}' <<<"$out")"
  p99="$(awk '$1=="99%" {print $2}' <<<"$out")"
  local errors
  errors="$(grep -E 'Non-2xx|Socket errors' <<<"$out" || true)"
  printf '| %-46s | %10s | %8s | %8s |\n' "$1" "$rps" "$p50" "$p99"
  [[ -z "$errors" ]] || echo "  !! $errors" >&2
}

serve_sightline() {  # storage-args...
  local log="$work/sightline-$RANDOM.log"
  # The rate limit is raised out of the way: the benchmark measures serving, and every request
  # still pays for counting its window.
  taskset -c 0 build/sightline serve --listen 127.0.0.1:0 --threads 1 --log-level warn \
    --rate-limit 1000000000 "$@" >"$log" 2>&1 &
  pids+=($!)
  # warn level hides the ready line; read the port from ss instead.
  for _ in $(seq 1 100); do
    port="$(ss -ltnpH 2>/dev/null | grep "pid=$!," | grep -oE '127.0.0.1:[0-9]+' | cut -d: -f2 | head -1 || true)"
    [[ -n "$port" ]] && { echo "$port"; return; }
    sleep 0.1
  done
  echo "sightline did not start" >&2; cat "$log" >&2; exit 1
}

keys_for() {  # storage-args...
  build/sightline admin bootstrap "$@" --email bench@example.test --password benchmark-pw \
    --org Bench --project Site
}

echo "wrk: 1 thread, $connections connections, ${duration}s each; server pinned to CPU 0, wrk to CPU 1"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo
printf '| %-46s | %10s | %8s | %8s |\n' "target" "req/s" "p50" "p99"
printf '|%s|%s|%s|%s|\n' "------------------------------------------------" "------------" "----------" "----------"

taskset -c 0 build/bench/bare_http_server 0 1 >"$work/bare.log" 2>&1 &
pids+=($!)
bare_port="$(wait_port "$work/bare.log" 'ready on [0-9]+')"
run_wrk "bare Beast server (fixed 306-byte body)" "http://127.0.0.1:$bare_port/"

storage=(--data "$work/data")
creds="$(keys_for "${storage[@]}")"
port="$(serve_sightline "${storage[@]}")"
url="$(python3 -c "import json,sys; c=json.loads(sys.argv[1]); print(f\"/{c['orgSlug']}/projects/{c['projectId']}\")" "$creds")"
key="$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['privateApiKey'])" "$creds")"
run_wrk "sightline get_project, SQLite" "http://127.0.0.1:$port/api$url" "Authorization: Bearer $key"
run_wrk "sightline /api/healthz (no auth, no store)" "http://127.0.0.1:$port/api/healthz"

if [[ "${SIGHTLINE_BENCH_PG:-0}" == "1" ]]; then
  pg_dir="$(mktemp -d /tmp/sightline-bench-pg.XXXXXX)"
  dsn="$(script/pg-test-cluster start "$pg_dir")"
  storage=(--database-url "$dsn")
  creds="$(keys_for "${storage[@]}")"
  port="$(serve_sightline "${storage[@]}")"
  url="$(python3 -c "import json,sys; c=json.loads(sys.argv[1]); print(f\"/{c['orgSlug']}/projects/{c['projectId']}\")" "$creds")"
  key="$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['privateApiKey'])" "$creds")"
  run_wrk "sightline get_project, PostgreSQL (same machine)" "http://127.0.0.1:$port/api$url" "Authorization: Bearer $key"
fi
