#!/usr/bin/env bash
# sightline holds none of the MCP conformance fixtures: they are the test-only server's
# (tests/mcp_fixture_server). Checked on the symbols of both executables, so that the pattern is
# known to find the fixtures where they are, and a fixture source added back to a product
# library fails here.
# Usage: no_fixtures_in_sightline.sh path/to/sightline path/to/sightline_mcp_fixtures
set -euo pipefail
product="$1"
fixture_server="$2"
pattern='[Ff]ixture|ConformanceExtension'
# Whole symbol tables first: `nm | grep -q` would fail under pipefail when grep stops early.
fixture_symbols="$(nm -C "$fixture_server")"
product_symbols="$(nm -C "$product")"
if ! grep -Eq "$pattern" <<<"$fixture_symbols"; then
  echo "FAILED: no fixture symbol in $fixture_server: the check below would prove nothing"
  exit 1
fi
if found="$(grep -E "$pattern" <<<"$product_symbols")"; then
  echo "FAILED: $product holds fixture code:"
  echo "$found" | head -20
  exit 1
fi
echo "ok: $(basename "$product") holds no fixture symbol; $(basename "$fixture_server") does"
