# Sourced by the interop scripts: start_sightline BINARY WORKDIR [serve options…] starts
# `sightline serve` on 127.0.0.1:0 with its log in WORKDIR/server.log, and sets `server` (the
# pid) and `port` once the ready line names the port; it exits the script if the server does not
# come up. The caller's EXIT trap stops it.
start_sightline() {
  local binary="$1" work="$2"
  shift 2
  "$binary" serve --listen 127.0.0.1:0 "$@" >"$work/server.log" 2>&1 &
  server=$!
  port=""
  for _ in $(seq 1 300); do
    port="$(grep -o '"msg":"ready".*"port":[0-9]*' "$work/server.log" | grep -o '[0-9]*$' || true)"
    [[ -n "$port" ]] && return 0
    sleep 0.1
  done
  echo "server did not start:"
  cat "$work/server.log"
  exit 1
}
