#!/usr/bin/env bash
# Freshness of a live board by tag beside the same live board unsegmented, over the ranking
# benchmark's 1,000,000 items tagged over 10,000 tags (log-uniform, as bench/segments.sh tags
# them), on PostgreSQL and Redis, while 10,000 events/s (batches of 100: 70% views, 30% likes over
# the 1M items) arrive. Both boards rank biz 'bench' by decay (half-life 6h, weights like 1, view
# 0.05, share 50, a 30-day window, 50 entries): `fresh-live` is one board, `fresh-live-tag` is
# `segment-by: tag`. A probe (bench/live/probe.py) creates an item with one tag every PROBE_S
# seconds and lifts it above both boards' tops with one batch of shares, then reads the board and
# the probe's tag's segment board every 10 ms until each shows it at rank 1. Then it reports the
# Redis memory of each board's keys and the service's heap after a full GC.
#
#   bench/live-segments.sh                  # prints a Markdown table
#
# Environment: RATE (10000 events/s), SECONDS_OF (60: the measured phase), PROBE_S (1.0),
# ITEMS (1000000), TAGS (10000), CONNECTIONS (16), REDIS_URL (redis://127.0.0.1:6379),
# HOTRANK_BENCH_PG* (bench/lib.sh; database hotrank_bench, shared with bench/segments.sh), HEAP
# (2g), SKIP_BUILD=1. Redis is never flushed: this run's keys carry their own prefix and are
# deleted at the end. Everything runs on loopback and stops by itself (about 4 minutes once the
# items exist; generating them takes a few minutes more the first time).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers
bench_no_arguments "$@"

export HOTRANK_BENCH_PGDATABASE="${HOTRANK_BENCH_PGDATABASE:-hotrank_bench}"
RATE=${RATE:-10000}
SECONDS_OF=${SECONDS_OF:-60}
PROBE_S=${PROBE_S:-1.0}
ITEMS=${ITEMS:-1000000}
TAGS=${TAGS:-10000}
CONNECTIONS=${CONNECTIONS:-16}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
HEAP=${HEAP:-2g}
PORT=${PORT:-18094}
PREFIX="livesegbench-$$:"
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"
      -U "$HOTRANK_BENCH_PGUSER" -d "$HOTRANK_BENCH_PGDATABASE")

bench_require_tools "wrk redis-tools" wrk redis-cli
bench_postgres_up
bench_require_postgres
bench_postgres_database "$HOTRANK_BENCH_PGDATABASE"
bench_redis_url "$REDIS_URL"
bench_require_redis "$REDIS_HOST" "$REDIS_PORT"
bench_server_jar
bench_temp_dir WORK live-segments
bench_classpath "$WORK"

# The probes' items (ids above ITEMS) would make the generator start over: gone before and after.
forget_probes() {
  "${PSQL[@]}" -c "DELETE FROM hr_item_counter WHERE biz = 'bench' AND item_id > $ITEMS" \
    -c "DELETE FROM hr_item WHERE biz = 'bench' AND id > $ITEMS"
}
APP_PID=""
cleanup() {
  bench_stop "$APP_PID"
  bench_redis_delete_prefix "$PREFIX"
  forget_probes || true
}
bench_on_exit cleanup
forget_probes
bench_tagged_items "$ITEMS" "$TAGS"

BOARDS=()
for i in 0 1; do
  b="--hotrank.boards[$i]"
  BOARDS+=("$b.biz=bench" "$b.type=live" "$b.algorithm=decay" "$b.half-life=6h"
           "$b.weights.like=1" "$b.weights.view=0.05" "$b.weights.share=50" "$b.window=30d"
           "$b.size=50")
done
BOARDS+=("--hotrank.boards[0].name=fresh-live"
         "--hotrank.boards[1].name=fresh-live-tag" "--hotrank.boards[1].segment-by=tag")

log "starting hotrank (-Xmx$HEAP)"
(cd "$WORK" && exec "$JAVA" -Xms$HEAP -Xmx$HEAP -jar "$JAR" --server.port=$PORT \
  --hotrank.admin.token=bench-token --hotrank.limits.enabled=false --logging.level.root=WARN \
  --logging.level.io.hotrank.realtime=INFO --hotrank.bizes=bench \
  --spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/$HOTRANK_BENCH_PGDATABASE" \
  --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url="$REDIS_URL" \
  --hotrank.redis.key-prefix="$PREFIX" "${BOARDS[@]}" > app.log 2>&1) &
APP_PID=$!
bench_await_ready "$PORT" "$WORK/app.log"
log "waiting for both boards' first publish (the family's rebuild scans every item)"
for _ in $(seq 1 300); do
  if curl -sf "localhost:$PORT/api/v1/boards/fresh-live?limit=1" >/dev/null &&
     curl -sf "localhost:$PORT/api/v1/boards/fresh-live-tag/segments/t1?limit=1" | grep -q itemId; then
    break
  fi
  sleep 1
done
rebuilt=$(grep -o "Live family 'fresh-live-tag' rebuilt[^\"]*" "$WORK/app.log" | head -n 1 || true)
log "${rebuilt:-no rebuild logged}"

log "$RATE events/s for $((SECONDS_OF + 10)) s; probes during the last $SECONDS_OF s"
BIZ=bench RATE=$((RATE / 100)) CONNECTIONS=$CONNECTIONS ITEMS=$ITEMS wrk -t2 -c"$CONNECTIONS" \
  -d"$((SECONDS_OF + 10))s" -s bench/events/events.lua "http://127.0.0.1:$PORT" > "$WORK/wrk.txt" &
load=$!
sleep 10
BIZ=bench TAGS=$TAGS BOARDS="one=fresh-live,tag=fresh-live-tag/segments/{tag}" \
  python3 bench/live/probe.py "$PORT" "$SECONDS_OF" "$PROBE_S" $((ITEMS + 1000000)) > "$WORK/probe.txt"
wait $load
sent=$(grep '^RESULT' "$WORK/wrk.txt")
fresh=$(cat "$WORK/probe.txt")
eps=$(python3 -c "print(round($(field "$sent" requests) * 100 / $(field "$sent" seconds)))")

# Bytes of this run's keys matching a pattern, by MEMORY USAGE.
redis_bytes() { # $1: pattern after the prefix
  "${RC[@]}" --scan --pattern "$PREFIX$1" | sed 's/^/MEMORY USAGE "/; s/$/"/' | "${RC[@]}" |
    awk '{s += $1} END {printf "%.1f", s / 1048576}'
}
redis_keys() { # $1: pattern after the prefix
  "${RC[@]}" --scan --pattern "$PREFIX$1" | wc -l
}
live_one=$(redis_bytes '{lv:fresh-live}*')
live_tag=$(redis_bytes '{lf:fresh-live-tag}*')
live_tag_keys=$(redis_keys '{lf:fresh-live-tag}*')
snap_tag=$(redis_bytes '*{b:fresh-live-tag/*')
segments=$(curl -s "localhost:$PORT/api/v1/boards/fresh-live-tag/segments?limit=1" >/dev/null; \
  "${PSQL[@]}" -Atc "SELECT count(*) FROM hr_board_snapshot WHERE family = 'fresh-live-tag' AND entries > 0")
JCMD="$(dirname "$JAVA")/jcmd"
"$JCMD" "$APP_PID" GC.run >/dev/null 2>&1 || true
heap=$("$JCMD" "$APP_PID" GC.heap_info 2>/dev/null | grep -oE 'used [0-9]+K' | head -n 1 |
  awk '{printf "%.0f", $2 / 1024}')

echo "Live board by tag vs unsegmented on PostgreSQL at commit $(git rev-parse --short HEAD), $(nproc) cores:"
echo "$eps events/s accepted (non-2xx $(field "$sent" non2xx)), $(field "$fresh" samples) probes; ${rebuilt:-}"
echo
echo "| board | 202 to rank 1, p50 | p99 | max | probes seen |"
echo "| --- | ---: | ---: | ---: | ---: |"
echo "| \`fresh-live\` (one board) | $(field "$fresh" one_p50_ms) ms | $(field "$fresh" one_p99_ms) ms | $(field "$fresh" one_max_ms) ms | $(field "$fresh" one_seen) |"
echo "| \`fresh-live-tag\`, the probe's tag's segment | $(field "$fresh" tag_p50_ms) ms | $(field "$fresh" tag_p99_ms) ms | $(field "$fresh" tag_max_ms) ms | $(field "$fresh" tag_seen) |"
echo "| (the item's counters: the fold) | $(field "$fresh" fold_p50_ms) ms | $(field "$fresh" fold_p99_ms) ms | | |"
echo
echo "Redis: the one board's live set ${live_one} MiB; the family's sets ${live_tag} MiB in ${live_tag_keys} keys (${segments} segments with entries), its published segment boards ${snap_tag} MiB. Heap after a full GC: ${heap} MiB."
