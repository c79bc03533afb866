#!/usr/bin/env bash
# The ranking computation over 1,000,000 items next to two raw scans on PostgreSQL, in one run:
# the items joined with their counters, and the rows the ranking reads (CounterStore.WINDOW_PAGE without
# keyset condition and LIMIT). Updates the "Ranking computation vs raw scan" section of
# BENCHMARKS.md unless --bench.report=none.
#
#   bench/ranking-vs-scan.sh [--bench.rounds=5] [--bench.warmups=1] [--bench.report=none]
#                            [--hotrank.board.scan-page-size=5000] [any --spring.property=value]
#
# Environment: HOTRANK_BENCH_PGHOST (127.0.0.1), HOTRANK_BENCH_PGPORT (5432),
# HOTRANK_BENCH_PGDATABASE (hotrank_bench), HOTRANK_BENCH_PGUSER (postgres), PGPASSWORD,
# HOTRANK_BENCH_ITEMS (1000000), HOTRANK_BENCH_XMX (256m), HOTRANK_BENCH_SKIP_BUILD=1,
# HOTRANK_BENCH_REDIS_URL (else the application starts an embedded Redis).
# Stops by itself: psql and the JVM both end when their work is done.
#
# The bench database is disposable: when its Flyway history no longer matches the application's
# migrations (a migration was edited, as V1 was when hr_item_counter got created_at and deleted),
# the migration step drops everything in it and migrates from scratch, and the items are then
# generated again (about 10 s for 1M).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers

export HOTRANK_BENCH_PGDATABASE="${HOTRANK_BENCH_PGDATABASE:-hotrank_bench}"
ITEMS="${HOTRANK_BENCH_ITEMS:-1000000}"
XMX="${HOTRANK_BENCH_XMX:-256m}"
export HOTRANK_BENCH_COMMAND="bench/ranking-vs-scan.sh${*:+ $*}"
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"
      -U "$HOTRANK_BENCH_PGUSER")

# 1. PostgreSQL up, database present.
bench_postgres_up
bench_postgres_database "$HOTRANK_BENCH_PGDATABASE"

# 2. Build, and the classpath of hotrank-bench (copied aside, see bench_classpath in lib.sh).
bench_temp_dir LIB ranking-bench
bench_classpath "$LIB"

# 3. Schema (the application's Flyway migrations; a stale schema is dropped first, see above),
#    then the items.
log "applying migrations"
"$JAVA" -Xmx256m -cp "$CP" io.hotrank.bench.RankingScanBench --migrate-only "$@"
log "checking/generating $ITEMS items"
"${PSQL[@]}" -d "$HOTRANK_BENCH_PGDATABASE" -v n="$ITEMS" -v now_ms="$(date +%s%3N)" \
  -f bench/generate-items.sql

# 4. The measurement.
log "measuring with -Xmx$XMX"
"$JAVA" -Xmx"$XMX" -cp "$CP" io.hotrank.bench.RankingScanBench \
  --bench.items="$ITEMS" --bench.report="$ROOT/BENCHMARKS.md" "$@"
