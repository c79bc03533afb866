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

bench_postgres_up
bench_postgres_database "$HOTRANK_BENCH_PGDATABASE"

bench_temp_dir LIB segment-bench
bench_classpath "$LIB"

TAGS=10000
for arg in "$@"; do
  case "$arg" in --bench.tags=*) TAGS="${arg#--bench.tags=}" ;; esac
done
bench_tagged_items "$ITEMS" "$TAGS"

log "measuring with -Xmx$XMX"
"$JAVA" -Xmx"$XMX" -cp "$CP" io.hotrank.bench.SegmentBench \
  --bench.items="$ITEMS" --bench.report="$ROOT/BENCHMARKS.md" "$@"
