#!/usr/bin/env bash
# Runs a test command with TMPDIR set to a fresh directory of its own, then fails the test when
# the command left anything there: tests remove what they make, also when they fail. Every CTest
# entry runs through it (tests/CMakeLists.txt), so a leak names the test that made it.
# Usage: tests/with_own_tmpdir.sh COMMAND [ARGUMENTS...]
set -uo pipefail
own="$(mktemp -d "${TMPDIR:-/tmp}/sightline-test.XXXXXX")" || exit 1
TMPDIR="$own" "$@"
status=$?
left="$(ls -A "$own")"
if [[ -n "$left" ]]; then
  echo "with_own_tmpdir: $(basename "$1") left $(wc -l <<<"$left") entries in its temporary directory:" >&2
  head -n 20 <<<"$left" | sed 's/^/  /' >&2
  [[ $status -eq 0 ]] && status=1
fi
rm -rf "$own"
exit $status
