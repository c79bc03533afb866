#!/usr/bin/env bash
# Retries that never count twice (issue 41): POST /api/v1/events with an Idempotency-Key on every
# batch and an id on every event (KEYED=1 in bench/events/events.lua), beside the same ingest
# without either, on PostgreSQL, with the event log and with the Kafka source (a one-node KRaft
# broker of its own, bench/lib.sh). Batches of 100 events as in bench/events-ingest.sh, unpaced,
# ROUNDS rounds alternating which goes first, the folder caught up between phases; then the
# database's size per kept key and per kept event id (pg_total_relation_size over the rows).
#
#   bench/retries.sh                     # prints the results as Markdown
#   SOURCES=log ROUNDS=1 DURATION=5s SKIP_BUILD=1 bench/retries.sh   # a dry run
#
# Environment: SOURCES (log kafka), ROUNDS (3), DURATION (20s: each phase), WARMUP (10s),
# CONNECTIONS (16), ITEMS (10000), PORT (18096), KAFKA_PORT (19192; the controller listens on the
# next port), HEAP (1g), BROKER_HEAP (1g), REDIS_URL (redis://127.0.0.1:6379), HOTRANK_BENCH_PG*
# (bench/lib.sh), SKIP_BUILD=1. Uses the PostgreSQL database hotrank_bench_retries (dropped and
# created again per source, left at the end for a look) and the Redis key prefix
# retries-<pid>-<source>: (deleted at the end). Everything runs on loopback and stops by itself.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers
bench_no_arguments "$@"

SOURCES=${SOURCES:-log kafka}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-10s}
CONNECTIONS=${CONNECTIONS:-16}
ITEMS=${ITEMS:-10000}
PORT=${PORT:-18096}
KAFKA_PORT=${KAFKA_PORT:-19192}
HEAP=${HEAP:-1g}
BROKER_HEAP=${BROKER_HEAP:-1g}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
PGDB=hotrank_bench_retries
PREFIX="retries-$$"
TOKEN=bench-token
bench_redis_url "$REDIS_URL"

bench_require_tools "wrk redis-tools postgresql-client" wrk redis-cli psql
bench_require_redis "$REDIS_HOST" "$REDIS_PORT"
bench_require_postgres
bench_temp_dir WORK retries-bench
bench_server_jar
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"
      -U "$HOTRANK_BENCH_PGUSER")

BROKER_PID=""
APP_PID=""
stop_app() { bench_stop "$APP_PID"; APP_PID=""; }
cleanup() {
  stop_app
  bench_stop "$BROKER_PID"
  bench_redis_delete_prefix "$PREFIX-"
}
bench_on_exit cleanup

if [[ " $SOURCES " == *" kafka "* ]]; then
  bench_kafka_classpath "$WORK"
  bench_kafka_broker "$WORK" "$KAFKA_PORT" "$BROKER_HEAP"
fi

start_app() { # $1: source; the rest: arguments
  local source=$1
  shift
  mkdir -p "$WORK/$source"
  (cd "$WORK/$source" && exec "$JAVA" -Xms$HEAP -Xmx$HEAP -jar "$JAR" --server.port=$PORT \
    --spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/$PGDB" \
    --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url="$REDIS_URL" \
    --hotrank.redis.key-prefix="$PREFIX-$source:" --hotrank.admin.token=$TOKEN \
    --hotrank.limits.enabled=false --logging.level.root=WARN \
    "${EVENT_BOARDS[@]}" "$@" >app.log 2>&1) &
  APP_PID=$!
  bench_await_ready "$PORT" "$WORK/$source/app.log"
}

caught_up() { # waits until the folders have applied everything accepted
  for _ in $(seq 1 600); do
    curl -sf -m 35 -XPOST "localhost:$PORT/api/v1/admin/events/fold" -H "Authorization: Bearer $TOKEN" \
      | grep -q '"folds":0' && return 0
    sleep 1
  done
  log "the folders did not catch up"
  return 1
}

wrk_phase() { # $1: KEYED (0 or 1), $2: duration; prints accepted events/s
  local line
  line=$(KEYED=$1 RATE=0 CONNECTIONS=$CONNECTIONS ITEMS=$ITEMS wrk -t2 -c"$CONNECTIONS" -d"$2" \
    -s bench/events/events.lua "http://127.0.0.1:$PORT" | grep '^RESULT')
  python3 -c "print(round(($(field "$line" requests) - $(field "$line" non2xx)) * 100 / $(field "$line" seconds)))"
}

size_per_row() { # $1: table; prints "<bytes per row> (<rows> rows)"
  "${PSQL[@]}" -d $PGDB -Atc "SELECT CASE WHEN COUNT(*) = 0 THEN 'no rows' ELSE
    ROUND(pg_total_relation_size('$1')::numeric / COUNT(*)) || ' (' || COUNT(*) || ' rows)' END FROM $1"
}

declare -A TABLE SIZES
for source in $SOURCES; do
  "${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS $PGDB" -c "CREATE DATABASE $PGDB"
  case $source in
    log) start_app log ;;
    kafka) start_app kafka --hotrank.ingest.source=kafka --spring.kafka.bootstrap-servers="$BENCH_BOOTSTRAP" \
      --hotrank.ingest.kafka.topic="$PREFIX.events" --hotrank.ingest.kafka.group="$PREFIX-fold" ;;
    *) log "unknown source $source"; exit 2 ;;
  esac
  log "$source: seeding $ITEMS items, warming up for $WARMUP"
  python3 bench/events/seed.py "$PORT" "$ITEMS"
  wrk_phase 0 "$WARMUP" >/dev/null
  caught_up
  rows=""
  for round in $(seq 1 "$ROUNDS"); do
    # Alternate which goes first, so that neither always runs on the warmer (or fuller) service.
    order="0 1"; [ $((round % 2)) -eq 0 ] && order="1 0"
    declare -A EPS=()
    for keyed in $order; do
      log "$source: round $round, $([ "$keyed" = 1 ] && echo keyed || echo plain), $DURATION"
      EPS[$keyed]=$(wrk_phase "$keyed" "$DURATION")
      caught_up
    done
    ratio=$(python3 -c "print('%.2fx' % (${EPS[1]} / ${EPS[0]}))")
    rows+="| $source | $round | ${EPS[0]} | ${EPS[1]} | **$ratio** |"$'\n'
  done
  TABLE[$source]=$rows
  "${PSQL[@]}" -d $PGDB -c "VACUUM ANALYZE hr_idempotency" -c "VACUUM ANALYZE hr_event_id"
  SIZES[$source]="$(size_per_row hr_idempotency)|$(size_per_row hr_event_id)"
  stop_app
done

echo
echo "Command: \`bench/retries.sh\` (ROUNDS=$ROUNDS, DURATION=$DURATION, WARMUP=$WARMUP, CONNECTIONS=$CONNECTIONS, ITEMS=$ITEMS); $(nproc) cores, $(date -u +%F)."
echo
echo "| source | round | plain events/s | keyed events/s (a key per batch, an id per event) | keyed / plain |"
echo "| --- | --- | --- | --- | --- |"
for source in $SOURCES; do printf '%s' "${TABLE[$source]}"; done
echo
echo "| source | bytes per kept key (hr_idempotency, with its indexes) | bytes per kept event id (hr_event_id, with its indexes) |"
echo "| --- | --- | --- |"
for source in $SOURCES; do
  IFS='|' read -r keys ids <<< "${SIZES[$source]}"
  echo "| $source | $keys | $ids |"
done
