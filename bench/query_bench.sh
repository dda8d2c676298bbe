#!/usr/bin/env bash
# Ad-hoc queries (`query`, docs/query.md) on Sightline's store against ClickHouse on the same
# rows. build/bench/query_bench generates EVENTS events of one project into a fresh Sightline
# store and the same rows as TSV; this script loads the TSV into a plain MergeTree table of a
# ClickHouse server it starts on loopback (Debian's clickhouse-server, generated config, temp
# dir), asks both the four questions of query_bench.cpp (median of RUNS each), checks that the
# answers agree row for row, and prints the table of docs/performance.md ("Ad-hoc queries").
#
#   bench/query_bench.sh [--events N] [--runs R] [--database-url URL] [--keep DIR]
#                        [--reuse DIR]
#
# Default: 1,000,000 events, 5 runs, a SQLite store in the temp dir. With --database-url the
# store is that PostgreSQL database (give an empty one: the rows are added to what is there).
# --keep DIR leaves the TSV, the answers and ClickHouse's log in DIR. --reuse DIR keeps the
# store (SQLite: DIR/store) and the TSV (DIR/rows.tsv) there, generating, sealing and rolling
# up only when DIR has no TSV yet, so that a 10M-event set is made once and timed again later.
# Needs build/bench/query_bench (SIGHTLINE_BUILD_JOBS=1 script/build query_bench), curl, and for
# PostgreSQL psql.
set -euo pipefail
cd "$(dirname "$0")/.."

events=1000000 runs=5 database_url="" keep="" reuse=""
while (($#)); do
  case "$1" in
    --events) events="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --database-url) database_url="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --reuse) reuse="$2"; shift 2 ;;
    *) sed -n '9,18p' "$0" >&2; exit 2 ;;
  esac
done
bench=build/bench/query_bench
if [[ ! -x $bench ]]; then
  echo "no $bench: SIGHTLINE_BUILD_JOBS=1 script/build query_bench" >&2
  exit 2
fi
if ! command -v clickhouse-server >/dev/null && [[ ! -x /usr/sbin/clickhouse-server ]]; then
  apt-get install -y clickhouse-server clickhouse-client >/dev/null
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/sightline-querybench-XXXXXX")"
clickhouse=""
cleanup() {
  if [[ -n $clickhouse ]]; then
    kill "$clickhouse" 2>/dev/null || true
    wait "$clickhouse" 2>/dev/null || true
  fi
  if [[ -n $keep ]]; then
    mkdir -p "$keep"
    cp -r "$work/answers" "$work/ch/log" "$keep/" 2>/dev/null || true
    [[ -z $reuse ]] && cp "$work/rows.tsv" "$keep/" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/answers" "$work/store" "$work/ch/data" "$work/ch/tmp" "$work/ch/log"

# ---- ClickHouse, on loopback ports no service of the machine uses.
http_port="${CLICKHOUSE_HTTP_PORT:-18123}"
cat >"$work/ch/config.xml" <<EOF
<yandex>
  <logger><level>warning</level><log>$work/ch/log/server.log</log>
    <errorlog>$work/ch/log/error.log</errorlog><console>0</console></logger>
  <http_port>$http_port</http_port>
  <tcp_port>${CLICKHOUSE_TCP_PORT:-19000}</tcp_port>
  <interserver_http_port>${CLICKHOUSE_INTERSERVER_PORT:-19009}</interserver_http_port>
  <listen_host>127.0.0.1</listen_host>
  <path>$work/ch/data/</path>
  <tmp_path>$work/ch/tmp/</tmp_path>
  <users_config>/etc/clickhouse-server/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>1073741824</mark_cache_size>
</yandex>
EOF
/usr/sbin/clickhouse-server --config-file="$work/ch/config.xml" >"$work/ch/log/stdout.log" 2>&1 &
clickhouse=$!
ch() { curl -sS --fail-with-body "http://127.0.0.1:$http_port/" --data-binary "$1"; }
for _ in $(seq 60); do ch 'SELECT 1' >/dev/null 2>&1 && break; sleep 1; done
echo "ClickHouse $(ch 'SELECT version()')"

# ---- The rows: into Sightline's store and the TSV.
data="$work"
if [[ -n $reuse ]]; then
  data="$reuse"
  mkdir -p "$data/store"
fi
store_args=(--data "$data/store")
[[ -n $database_url ]] && store_args=(--database-url "$database_url")
if [[ ! -f $data/rows.tsv ]]; then
  nice "$bench" "${store_args[@]}" --generate "$events" --tsv "$data/rows.tsv.tmp" --runs 0
  # As a server would leave them: sealed into the compact store's blocks (--seal-after) and
  # the window's days rolled up (the first report does it), so the bytes count both.
  nice "$bench" "${store_args[@]}" --seal --build-rollups --runs 0
  mv "$data/rows.tsv.tmp" "$data/rows.tsv"  # the set is complete: --reuse may take it
elif [[ -n $reuse ]]; then
  echo "reusing $data ($(wc -l <"$data/rows.tsv") events; --events ignored)"
fi
rows=$(wc -l <"$data/rows.tsv")

ch 'CREATE DATABASE IF NOT EXISTS sl_bench'
ch "CREATE TABLE sl_bench.events (project String, ts DateTime('UTC'), session String,
  visitor String, name String, path String, source String, referrer String, country String,
  device String, browser String, os String, prop_keys Array(String), prop_values Array(String))
  ENGINE = MergeTree PARTITION BY toYYYYMM(ts) ORDER BY (project, toDate(ts), visitor, ts)"
load_started=$(date +%s.%N)
curl -sS --fail-with-body -X POST -T "$data/rows.tsv" \
  "http://127.0.0.1:$http_port/?query=INSERT%20INTO%20sl_bench.events%20FORMAT%20TabSeparated"
ch 'OPTIMIZE TABLE sl_bench.events FINAL'
printf 'loaded %s rows into ClickHouse in %.1f s (merged to one part per month)\n' "$rows" \
  "$(echo "$(date +%s.%N) - $load_started" | bc)"

# ---- The questions, with docs/query.md's visit semantics: a visit is its session's events,
# it belongs to the window its first event is in, its source, country and device are its first
# event's; a condition on event:page holds when any of its pageviews matches.
window="project = 'bench-project' AND ts >= '2026-10-01 00:00:00'"
started="start >= toDateTime('2026-10-01 00:00:00', 'UTC')
  AND start < toDateTime('2026-10-31 00:00:00', 'UTC')"
declare -A sql
# (a) visitors by visit:source where visit:country is DE.
sql[a]="SELECT source, uniqExact(visitor) FROM (SELECT session, argMin(visitor, ts) AS visitor,
  argMin(source, ts) AS source, argMin(country, ts) AS country, min(ts) AS start
  FROM sl_bench.events WHERE $window GROUP BY session HAVING $started AND country = 'DE')
  GROUP BY source"
# (b) visitors and pageviews by event:page, visits from the US on mobile that viewed a /blog page.
sql[b]="SELECT path, uniqExact(visitor), count() FROM sl_bench.events
  WHERE $window AND name = 'screen_view' AND session IN (SELECT session FROM (
    SELECT session, min(ts) AS start, argMin(country, ts) AS country, argMin(device, ts) AS device,
      max(name = 'screen_view' AND position(path, '/blog') > 0) AS blog
    FROM sl_bench.events WHERE $window GROUP BY session
    HAVING $started AND country = 'US' AND device = 'Mobile' AND blog = 1))
  GROUP BY path"
# (c) visitors and events by event:props:category (events that carry it).
sql[c]="SELECT prop_values[indexOf(prop_keys, 'category')] AS value, uniqExact(visitor), count()
  FROM sl_bench.events WHERE $window AND has(prop_keys, 'category') AND session IN (
    SELECT session FROM sl_bench.events WHERE $window GROUP BY session
    HAVING min(ts) >= toDateTime('2026-10-01 00:00:00', 'UTC')
      AND min(ts) < toDateTime('2026-10-31 00:00:00', 'UTC'))
  GROUP BY value"
# (d) visitors by day of the visit's start, visits on desktop from Google.
sql[d]="SELECT toDate(start) AS day, uniqExact(visitor) FROM (SELECT session,
  argMin(visitor, ts) AS visitor, min(ts) AS start, argMin(device, ts) AS device,
  argMin(source, ts) AS source FROM sl_bench.events WHERE $window GROUP BY session
  HAVING $started AND device = 'Desktop' AND source = 'Google') GROUP BY day"

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
declare -A clickhouse_ms
for q in a b c d; do
  for _ in $(seq "$runs"); do
    curl -sS --fail-with-body -o "$work/answers/$q.clickhouse.raw" -w '%{time_total}\n' \
      "http://127.0.0.1:$http_port/" --data-binary "${sql[$q]} FORMAT TabSeparated"
  done | median | awk '{printf "%.1f", $1 * 1000}' >"$work/answers/$q.clickhouse.ms"
  clickhouse_ms[$q]=$(cat "$work/answers/$q.clickhouse.ms")
  LC_ALL=C sort "$work/answers/$q.clickhouse.raw" >"$work/answers/$q.clickhouse.tsv"
done

# ---- Sightline: the same questions in process, on the store just written.
declare -A sightline_ms
while read -r _ q ms; do sightline_ms[$q]=$ms; done < <(
  nice "$bench" "${store_args[@]}" --runs "$runs" --answers "$work/answers" | grep '^time ')

# ---- Bytes per stored event.
if [[ -n $database_url ]]; then
  sightline_bytes=$(psql "$database_url" -Atc "SELECT sum(pg_total_relation_size(c))
    FROM unnest(ARRAY['events', 'event_blocks', 'visit_starts', 'rollup_dirty', 'rollup_days',
      'rollup_blocks', 'web_rollups', 'web_rollup_visitors', 'visit_blocks']) AS c")
else
  sightline_bytes=$(du -sb "$data/store" | cut -f1)
fi
read -r ch_bytes ch_rows < <(ch "SELECT sum(bytes_on_disk), sum(rows) FROM system.parts
  WHERE active AND database = 'sl_bench' AND table = 'events' FORMAT TabSeparated")

declare -A names=(
  [a]="(a) visitors by visit:source, visit:country is DE"
  [b]="(b) visitors+pageviews by event:page, 3 filters"
  [c]="(c) visitors+events by event:props:category"
  [d]="(d) visitors by time:day, 2 filters")
echo
store_name=SQLite
[[ -n $database_url ]] && store_name=PostgreSQL
echo "$rows events, median of $runs runs, $store_name vs ClickHouse"
printf '| %-52s | %12s | %13s | %17s | %s |\n' question "Sightline ms" "ClickHouse ms" \
  "Sightline/CH" "answers"
for q in a b c d; do
  if cmp -s "$work/answers/$q.sightline.tsv" "$work/answers/$q.clickhouse.tsv"; then
    agree="equal ($(wc -l <"$work/answers/$q.sightline.tsv") rows)"
  else
    differing=$(diff "$work/answers/$q.sightline.tsv" "$work/answers/$q.clickhouse.tsv" |
      grep -c '^[<>]' || true)
    agree="DIFFER: $differing lines"
  fi
  printf '| %-52s | %12s | %13s | %17.2f | %s |\n' "${names[$q]}" "${sightline_ms[$q]}" \
    "${clickhouse_ms[$q]}" "$(echo "${sightline_ms[$q]} / ${clickhouse_ms[$q]}" | bc -l)" \
    "$agree"
done
printf 'bytes per stored event: Sightline %.0f, ClickHouse %.1f\n' \
  "$(echo "$sightline_bytes / $rows" | bc -l)" "$(echo "$ch_bytes / $ch_rows" | bc -l)"
if [[ -z $database_url ]] && command -v sqlite3 >/dev/null; then
  echo "Sightline's bytes per event by table (SQLite dbstat):"
  sqlite3 "$data/store/sightline.db" "SELECT name, printf('%.1f', SUM(pgsize) * 1.0 / $rows)
    FROM dbstat GROUP BY name HAVING SUM(pgsize) > 65536 ORDER BY SUM(pgsize) DESC"
fi
for q in a b c d; do
  echo "--- $q: first rows, Sightline | ClickHouse"
  paste "$work/answers/$q.sightline.tsv" "$work/answers/$q.clickhouse.tsv" | head -3
done
