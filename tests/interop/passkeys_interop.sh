#!/usr/bin/env bash
# Passkeys end to end in a real browser: Debian's Chromium, driven by playwright-core, with the
# DevTools virtual authenticator (CTAP2, user verification), against the account page the
# server serves (passkeys.test.mjs). The server runs on SQLite at http://localhost:<port>, since
# WebAuthn binds passkeys to a host name. Installed by script/bootstrap --test.
# Usage: tests/interop/passkeys_interop.sh path/to/sightline
set -euo pipefail
binary="$(realpath "$1")"
here="$(cd "$(dirname "$0")" && pwd)"
node="$here/node_modules/.bin/node"
work="$(mktemp -d "${TMPDIR:-/tmp}/sightline-passkeys.XXXXXX")"
server=""
# set +e: a helper that has already exited must not stop the clean-up before rm.
trap 'set +e; [[ -n "$server" ]] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

password='correct horse battery staple'
boot="$("$binary" admin bootstrap --data "$work/data" --org Acme --project Shop \
          --email owner@acme.test --password "$password")"
# A free port for the public URL to name (the listener cannot pick one: the URL comes first).
free_port="$("$node" -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => {
  process.stdout.write(String(s.address().port)); s.close(); });')"
"$binary" serve --listen "127.0.0.1:$free_port" --public-url "http://localhost:$free_port" \
  --data "$work/data" --rollup-interval 0 >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 300); do
  grep -q '"msg":"ready"' "$work/server.log" && break
  sleep 0.1
done
grep -q '"msg":"ready"' "$work/server.log" || { cat "$work/server.log"; exit 1; }

export SIGHTLINE_URL="http://localhost:$free_port"
export SIGHTLINE_EMAIL=owner@acme.test SIGHTLINE_PASSWORD="$password"
cd "$here"
"$node" --test --test-reporter=spec passkeys.test.mjs
