#!/usr/bin/env bash
# One binary that runs from anywhere: installs the build into a temporary prefix, then runs the
# installed sightline from an unrelated, empty working directory with none of the path options
# or variables set. It must serve the tracking script compiled into it and geolocate a tracked
# event with the database installed beside it (share/sightline/geoip).
# Usage: tests/install/install_test.sh path/to/cmake path/to/build
set -euo pipefail
cmake="$1"
build="$(realpath "$2")"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d /tmp/sightline-install.XXXXXX)"
server=""
trap '[[ -n "$server" ]] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
# script/test points every server at the source tree's database; this one must find its own.
unset SIGHTLINE_GEOIP SIGHTLINE_SDK_SCRIPT SIGHTLINE_DATA SIGHTLINE_DATABASE_URL

fail() { echo "install test: $*"; [[ -f "$work/server.log" ]] && cat "$work/server.log"; exit 1; }
json_field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

"$cmake" --install "$build" --prefix "$work/prefix" >"$work/install.log" || fail "$(cat "$work/install.log")"
binary="$work/prefix/bin/sightline"
[[ -x "$binary" ]] || fail "no $binary"
ls "$work/prefix/share/sightline/geoip/"*.mmdb >/dev/null || fail "no geolocation database installed"
[[ -f "$work/prefix/share/sightline/geoip/DBIP-LICENSE" ]] || fail "no DB-IP license installed"

mkdir "$work/elsewhere"
cd "$work/elsewhere"
boot="$("$binary" admin bootstrap --data "$work/data" --org Acme --project Shop \
          --email owner@acme.test --password 'correct horse battery staple' 2>"$work/admin.log")" \
  || fail "bootstrap: $(cat "$work/admin.log")"

source "$here/../interop/serve_for_test.sh"
start_sightline "$binary" "$work" --data "$work/data" --trusted-proxies 127.0.0.1/32 \
  --bot-ranges-refresh 0 --rollup-interval 0
base="http://127.0.0.1:$port/api"  # the API base
grep -q '"msg":"geolocation ready"' "$work/server.log" || fail "geolocation is off"

status="$(curl -s -o "$work/script.js" -w '%{http_code} %{content_type}' "$base/sdk/v1/script.js")"
[[ "$status" == "200 text/javascript"* ]] || fail "script: $status"
[[ -s "$work/script.js" ]] || fail "the script is empty"
gzipped="$(curl -s -H 'Accept-Encoding: gzip' -o "$work/script.js.gz" -w '%{http_code}' \
             "$base/sdk/v1/script.js")"
[[ "$gzipped" == 200 ]] && gunzip -c "$work/script.js.gz" | cmp -s - "$work/script.js" \
  || fail "the gzip-compressed script differs from the script"

status="$(curl -s -o "$work/ack.json" -w '%{http_code}' -X POST "$base/sdk/v1/logs" \
            -H "x-sdk-key: $(json_field "$boot" sdkKey)" -H 'Content-Type: application/json' \
            -H 'X-Forwarded-For: 8.8.8.8' -d '{"event":"signup","channel":"users"}')"
[[ "$status" == 202 ]] || fail "tracking: $status $(cat "$work/ack.json")"

events="$(curl -s -H "Authorization: Bearer $(json_field "$boot" privateApiKey)" \
            "$base/$(json_field "$boot" orgSlug)/projects/$(json_field "$boot" projectId)/events")"
country="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["events"][0]["tags"].get("__country", ""))' "$events")" \
  || fail "events: $events"
[[ "$country" == US ]] || fail "the event was not geolocated: $events"
# The dashboard is compiled in too: the shell, and the hashed script it names, in brotli.
shell="$(curl -s "http://127.0.0.1:$port/")"
[[ "$shell" == *'<div id="app">'* ]] || fail "no dashboard shell at /: $shell"
entry="$(grep -o '/assets/app-[A-Za-z0-9]*\.js' <<<"$shell" | head -1)"
[[ -n "$entry" ]] || fail "the shell names no script: $shell"
encoding="$(curl -s -o /dev/null -H 'Accept-Encoding: br' -w '%{http_code} %header{content-encoding}' \
              "http://127.0.0.1:$port$entry")"
[[ "$encoding" == "200 br" ]] || fail "the dashboard's script: $encoding"

[[ -z "$(ls -A "$work/elsewhere")" ]] || fail "the server wrote into its working directory"
echo "install test: the installed binary serves the dashboard and the script, and geolocates from $work/elsewhere"
