#!/usr/bin/env bash
# A batch board by tag next to the same board unsegmented over the ranking benchmark's 1,000,000
# items on PostgreSQL, in one run: the whole computation and publish of each, and the family's scan
# alone. Tags each item first (one tag, log-uniform over --bench.tags values). Updates the
# "Segmented batch board" section of BENCHMARKS.md unless --bench.report=none.
#
#   bench/segments.sh [--bench.tags=10000] [--bench.rounds=5] [--bench.warmups=1]
#                     [--bench.report=none] [any --spring.property=value]
#
# Environment: as bench/ranking-vs-scan.sh (HOTRANK_BENCH_PG*, HOTRANK_BENCH_ITEMS,
# HOTRANK_BENCH_XMX (default 768m here: the family's heaps hold every segment's candidates),
# HOTRANK_BENCH_SKIP_BUILD=1, HOTRANK_BENCH_REDIS_URL). Stops by itself.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers

export HOTRANK_BENCH_PGDATABASE="${HOTRANK_BENCH_PGDATABASE:-hotrank_bench}"
ITEMS="${HOTRANK_BENCH_ITEMS:-1000000}"
XMX="${HOTRANK_BENCH_XMX:-768m}"
export HOTRANK_BENCH_COMMAND="bench/segments.sh${*:+ $*}"
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"
      -U "$HOTRANK_BENCH_PGUSER")

bench_postgres_up
bench_postgres_database "$HOTRANK_BENCH_PGDATABASE"

bench_temp_dir LIB segment-bench
bench_classpath "$LIB"

log "applying migrations"
"$JAVA" -Xmx256m -cp "$CP" io.hotrank.bench.RankingScanBench --migrate-only
log "checking/generating $ITEMS items"
"${PSQL[@]}" -d "$HOTRANK_BENCH_PGDATABASE" -v n="$ITEMS" -v now_ms="$(date +%s%3N)" \
  -f bench/generate-items.sql

TAGS=10000
for arg in "$@"; do
  case "$arg" in --bench.tags=*) TAGS="${arg#--bench.tags=}" ;; esac
done
# One tag per item, log-uniform over 1..TAGS from a hash of the id (deterministic); rows already
# tagged so are left alone. SegmentBench.tagSql is the same expression (it checks the tagging).
log "tagging the items over $TAGS tags"
TAG_SQL="'t' || floor(exp(((hashtext(id::text)::bigint & 2147483647)::float8 / 2147483648.0) * ln($TAGS)))::int"
"${PSQL[@]}" -d "$HOTRANK_BENCH_PGDATABASE" \
  -c "UPDATE hr_item SET tags = ${TAG_SQL} WHERE biz = 'bench' AND tags <> ${TAG_SQL}" \
  -c "VACUUM ANALYZE hr_item"

log "measuring with -Xmx$XMX"
"$JAVA" -Xmx"$XMX" -cp "$CP" io.hotrank.bench.SegmentBench \
  --bench.items="$ITEMS" --bench.report="$ROOT/BENCHMARKS.md" "$@"
