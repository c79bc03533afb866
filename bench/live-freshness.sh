#!/usr/bin/env bash
# Freshness of a live board against a batch board of the same definition on a 1 s cron: the time
# from a 202 to the item's new rank, p50/p99, while 10,000 events/s (batches of 100: 70% views,
# 30% likes over 10,000 items) arrive. Both boards rank biz 'article' by decay (half-life 6h,
# weights like 1, view 0.05, share 50, a 7-day window, 100 entries): `fresh-live` is `type: live`,
# `fresh-batch` is batch with `refresh: "* * * * * *"`. A probe (bench/live/probe.py) creates an
# item every PROBE_S seconds and lifts it above both tops with one batch of shares, then reads
# both boards every 10 ms until each shows it at rank 1.
#
#   bench/live-freshness.sh                 # PostgreSQL, prints a Markdown table
#   DB=h2 bench/live-freshness.sh           # the embedded default
#
# Environment: DB (postgresql | h2), RATE (10000 events/s), SECONDS_OF (60: the measured phase),
# PROBE_S (1.0), ITEMS (10000), CONNECTIONS (16), REDIS_URL (redis://127.0.0.1:6379, for
# PostgreSQL runs), HOTRANK_BENCH_PG* (bench/lib.sh), HEAP (1g), SKIP_BUILD=1. Redis is never
# flushed: this run's keys carry their own prefix and are deleted at the end. Everything runs on
# loopback and stops by itself (about 2 minutes).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers
bench_no_arguments "$@"

DB=${DB:-postgresql}
RATE=${RATE:-10000}
SECONDS_OF=${SECONDS_OF:-60}
PROBE_S=${PROBE_S:-1.0}
ITEMS=${ITEMS:-10000}
CONNECTIONS=${CONNECTIONS:-16}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
HEAP=${HEAP:-1g}
PORT=${PORT:-18093}
PGDB=hotrank_bench_live
PREFIX="livebench-$$:"

bench_require_tools "wrk redis-tools" wrk redis-cli
bench_server_jar
bench_temp_dir WORK live
APP_PID=""
cleanup() {
  bench_stop "$APP_PID"
  if [[ "$DB" == postgresql ]]; then
    bench_redis_url "$REDIS_URL"
    bench_redis_delete_prefix "$PREFIX"
  fi
}
bench_on_exit cleanup

BOARDS=()
for i in 0 1; do
  b="--hotrank.boards[$i]"
  BOARDS+=("$b.biz=article" "$b.algorithm=decay" "$b.half-life=6h" "$b.weights.like=1"
           "$b.weights.view=0.05" "$b.weights.share=50" "$b.window=7d" "$b.size=100")
done
BOARDS+=("--hotrank.boards[0].name=fresh-live" "--hotrank.boards[0].type=live"
         "--hotrank.boards[1].name=fresh-batch" "--hotrank.boards[1].refresh=* * * * * *")

case $DB in
  postgresql)
    bench_require_postgres
    psql -X -q -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT" -U "$HOTRANK_BENCH_PGUSER" \
      -c "DROP DATABASE IF EXISTS $PGDB" -c "CREATE DATABASE $PGDB"
    STORE=(--spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/$PGDB"
           --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url="$REDIS_URL"
           --hotrank.redis.key-prefix="$PREFIX") ;;
  h2) STORE=(--hotrank.data-dir="$WORK/data") ;;
  *) log "unknown DB $DB"; exit 2 ;;
esac

log "$DB: starting hotrank"
(cd "$WORK" && exec "$JAVA" -Xms$HEAP -Xmx$HEAP -jar "$JAR" --server.port=$PORT \
  --hotrank.admin.token=bench-token --hotrank.limits.enabled=false --logging.level.root=WARN \
  --hotrank.bizes=probe \
  "${BOARDS[@]}" "${STORE[@]}" > app.log 2>&1) &
APP_PID=$!
bench_await_ready "$PORT" "$WORK/app.log"

log "seeding $ITEMS items"
python3 bench/events/seed.py "$PORT" "$ITEMS"
log "$RATE events/s for $((SECONDS_OF + 10)) s; probes during the last $SECONDS_OF s"
RATE=$((RATE / 100)) CONNECTIONS=$CONNECTIONS ITEMS=$ITEMS wrk -t2 -c"$CONNECTIONS" \
  -d"$((SECONDS_OF + 10))s" -s bench/events/events.lua "http://127.0.0.1:$PORT" > "$WORK/wrk.txt" &
load=$!
sleep 10
python3 bench/live/probe.py "$PORT" "$SECONDS_OF" "$PROBE_S" $((ITEMS + 1000000)) > "$WORK/probe.txt"
wait $load
sent=$(grep '^RESULT' "$WORK/wrk.txt")
fresh=$(cat "$WORK/probe.txt")
eps=$(python3 -c "print(round($(field "$sent" requests) * 100 / $(field "$sent" seconds)))")

echo "Live vs batch freshness on $DB at commit $(git rev-parse --short HEAD), $(nproc) cores:"
echo "$eps events/s accepted (non-2xx $(field "$sent" non2xx)), $(field "$fresh" samples) probes"
echo
echo "| board | 202 to rank 1, p50 | p99 | max | probes seen |"
echo "| --- | ---: | ---: | ---: | ---: |"
echo "| live (\`type: live\`) | $(field "$fresh" live_p50_ms) ms | $(field "$fresh" live_p99_ms) ms | $(field "$fresh" live_max_ms) ms | $(field "$fresh" live_seen) |"
echo "| (the item's counters: the fold) | $(field "$fresh" fold_p50_ms) ms | $(field "$fresh" fold_p99_ms) ms | | |"
echo "| batch, 1 s cron | $(field "$fresh" batch_p50_ms) ms | $(field "$fresh" batch_p99_ms) ms | $(field "$fresh" batch_max_ms) ms | $(field "$fresh" batch_seen) |"
