#!/usr/bin/env bash
# Runs a test command with TMPDIR set to a fresh directory of its own, then fails the test when
# the command left anything there: tests remove what they make, also when they fail. Every CTest
# entry runs through it (tests/CMakeLists.txt), so a leak names the test that made it.
# In a sanitizer build (script/test --asan or --tsan) every process the test starts, servers
# included, writes its AddressSanitizer, LeakSanitizer or ThreadSanitizer report to a file here
# (log_path), so a report fails the test even when the process that made it was a child whose
# output nobody reads. (GCC's UBSan beside ASan ignores log_path and writes to stderr; it aborts
# the process, and the e2e harness reads the servers' stderr.)
# Usage: tests/with_own_tmpdir.sh COMMAND [ARGUMENTS...]
set -uo pipefail
own="$(mktemp -d "${TMPDIR:-/tmp}/sightline-test.XXXXXX")" || exit 1
reports="$own/sanitizer-report"
for options in ASAN_OPTIONS LSAN_OPTIONS TSAN_OPTIONS UBSAN_OPTIONS; do
  export "$options=${!options:+${!options}:}log_path=$reports"
done
TMPDIR="$own" "$@"
status=$?
shopt -s nullglob
found=("$reports".*)
if ((${#found[@]})); then
  echo "with_own_tmpdir: $(basename "$1"): ${#found[@]} sanitizer report(s):" >&2
  cat "${found[@]}" >&2
  rm -f "${found[@]}"
  status=1
fi
left="$(ls -A "$own")"
if [[ -n "$left" ]]; then
  echo "with_own_tmpdir: $(basename "$1") left $(wc -l <<<"$left") entries in its temporary directory:" >&2
  head -n 20 <<<"$left" | sed 's/^/  /' >&2
  [[ $status -eq 0 ]] && status=1
fi
rm -rf "$own"
exit $status
