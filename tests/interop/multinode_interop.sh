#!/usr/bin/env bash
# Several nodes under faults (multinode.test.mjs): three `sightline serve` nodes on a PostgreSQL
# cluster of the test's own behind Debian's HAProxy, a node killed and PostgreSQL restarted
# while events arrive. Installed by script/bootstrap --test (haproxy, postgresql-15).
# Usage: tests/interop/multinode_interop.sh path/to/sightline
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export PATH="$PATH:/usr/sbin"  # haproxy
export SIGHTLINE_BINARY="$(realpath "$1")"
export SIGHTLINE_REPO="$(cd "$here/../.." && pwd)"
cd "$here"
exec "$here/node_modules/.bin/node" --test --test-reporter=spec multinode.test.mjs
