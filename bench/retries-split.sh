#!/usr/bin/env bash
# What each half of retries' protection costs on the event log (issue 41): the same ingest plain,
# with an Idempotency-Key on every batch only, with an id on every event only, and with both, on one
# service (hotrank.ingest.source=log, PostgreSQL), ROUNDS rounds of the four phases, the order
# reversed every other round; the folder caught up after each phase. Batches of 100 events as in
# bench/events-ingest.sh, unpaced; only 202s count.
#
#   bench/retries-split.sh                     # prints the results as Markdown
#   ROUNDS=1 DURATION=5s WARMUP=5s SKIP_BUILD=1 bench/retries-split.sh   # a dry run
#
# Environment: ROUNDS (2), DURATION (15s: each phase), WARMUP (20s: each kind of batch), CONNECTIONS
# (16), ITEMS (10000), PORT (18196), HEAP (1g), REDIS_URL (redis://127.0.0.1:6379),
# HOTRANK_BENCH_PG* (bench/lib.sh), SKIP_BUILD=1. Uses the PostgreSQL database
# hotrank_bench_retries_split (dropped and created again, left at the end for a look) and the Redis
# key prefix retries-split-<pid>: (deleted at the end). Runs on loopback and stops by itself; about
# 5 minutes with the defaults.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers
bench_no_arguments "$@"

ROUNDS=${ROUNDS:-2}
DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-20s}
CONNECTIONS=${CONNECTIONS:-16}
ITEMS=${ITEMS:-10000}
PORT=${PORT:-18196}
HEAP=${HEAP:-1g}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
PGDB=hotrank_bench_retries_split
PREFIX="retries-split-$$"
TOKEN=bench-token
bench_redis_url "$REDIS_URL"

bench_require_tools "wrk redis-tools postgresql-client" wrk redis-cli psql
bench_require_redis "$REDIS_HOST" "$REDIS_PORT"
bench_require_postgres
bench_temp_dir WORK retries-split
bench_server_jar

APP=""
cleanup() {
  bench_stop "$APP"
  bench_redis_delete_prefix "$PREFIX:"
}
bench_on_exit cleanup

psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT" \
  -U "$HOTRANK_BENCH_PGUSER" -d postgres -c "DROP DATABASE IF EXISTS $PGDB" -c "CREATE DATABASE $PGDB"
(cd "$WORK" && exec "$JAVA" -Xms$HEAP -Xmx$HEAP -jar "$JAR" --server.port=$PORT \
  --spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/$PGDB" \
  --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url="$REDIS_URL" \
  --hotrank.redis.key-prefix="$PREFIX:" --hotrank.admin.token=$TOKEN \
  --hotrank.limits.enabled=false --logging.level.root=WARN "${EVENT_BOARDS[@]}" >app.log 2>&1) &
APP=$!
bench_await_ready $PORT "$WORK/app.log"
python3 bench/events/seed.py $PORT "$ITEMS"

MODES=(0 key ids 1)
log "warming up: $WARMUP of each kind of batch"
for mode in "${MODES[@]}"; do bench_events_rate $PORT "$mode" "$WARMUP" >/dev/null; done
bench_caught_up $PORT $TOKEN

declare -A EPS=()
for round in $(seq 1 "$ROUNDS"); do
  order=("${MODES[@]}")
  [ $((round % 2)) -eq 0 ] && order=(1 ids key 0)
  for mode in "${order[@]}"; do
    log "round $round: $mode, $DURATION"
    EPS[$round:$mode]=$(bench_events_rate $PORT "$mode" "$DURATION")
    bench_caught_up $PORT $TOKEN
  done
done

ratio() { python3 -c "print('%.2fx' % ($1 / $2))"; }
echo
echo "Command: \`bench/retries-split.sh\` (ROUNDS=$ROUNDS, DURATION=$DURATION, WARMUP=$WARMUP, CONNECTIONS=$CONNECTIONS, ITEMS=$ITEMS); $(nproc) cores, $(date -u +%F)."
echo
echo "| round | plain | a key per batch | an id per event | both | key / plain | ids / plain | both / plain |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for round in $(seq 1 "$ROUNDS"); do
  p=${EPS[$round:0]} k=${EPS[$round:key]} i=${EPS[$round:ids]} b=${EPS[$round:1]}
  echo "| $round | $p | $k | $i | $b | $(ratio $k $p) | $(ratio $i $p) | $(ratio $b $p) |"
done
