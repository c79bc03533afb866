#!/usr/bin/env bash
# Ingest on both sources, with and without retries' protection (issue 41), in one run:
#
#   - keyed vs plain: POST /api/v1/events with an Idempotency-Key on every batch and an id on every
#     event (KEYED=1 in bench/events/events.lua), beside the same ingest without either;
#   - the Kafka source vs the event log: the same plain ingest on hotrank.ingest.source=kafka (a
#     one-node KRaft broker of its own, bench/lib.sh) and on the log;
#   - the log vs PostgreSQL itself: pgbench, 8 clients, 2 threads, one 100-row INSERT shaped like
#     the log's rows per transaction (bench/events/pgbench-insert.sql), into a table of its own.
#
# Both services run side by side for the whole run (one per source, each on its own database and
# Redis prefix), warmed up with both kinds of batches, so that every round measures every phase:
# ROUNDS rounds of the five phases, the order rotated each round so that none always runs first or
# last; the folders caught up after each phase. Batches of 100 events as in bench/events-ingest.sh,
# unpaced; only 202s count. Then the database's size per kept key and per kept event id.
#
#   bench/retries.sh                     # prints the results as Markdown
#   ROUNDS=1 DURATION=5s WARMUP=5s SKIP_BUILD=1 bench/retries.sh   # a dry run
#
# Environment: ROUNDS (3), DURATION (20s: each phase), WARMUP (30s: each kind of batch on each
# service), CONNECTIONS (16), ITEMS (10000), PORT (18096: the log's service; the Kafka one's is the
# next), KAFKA_PORT (19192; the controller listens on the next port), HEAP (1g), BROKER_HEAP (1g),
# REDIS_URL (redis://127.0.0.1:6379), HOTRANK_BENCH_PG* (bench/lib.sh), SKIP_BUILD=1. Uses the
# PostgreSQL databases hotrank_bench_retries_{log,kafka,raw} (dropped and created again, left at
# the end for a look) and the Redis key prefix retries-<pid>-<source>: (deleted at the end).
# Everything runs on loopback and stops by itself; about 15 minutes with the defaults.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers
bench_no_arguments "$@"

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-30s}
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

bench_require_tools "wrk redis-tools postgresql-contrib" wrk redis-cli psql pgbench
bench_require_redis "$REDIS_HOST" "$REDIS_PORT"
bench_require_postgres
bench_temp_dir WORK retries-bench
bench_server_jar
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"
      -U "$HOTRANK_BENCH_PGUSER")

SECONDS_OF=$((${DURATION%s}))
declare -A PORT_OF=([log]=$PORT [kafka]=$((PORT + 1)))
declare -A APP_PID=()
BROKER_PID=""
cleanup() {
  for source in "${!APP_PID[@]}"; do bench_stop "${APP_PID[$source]}"; done
  bench_stop "$BROKER_PID"
  bench_redis_delete_prefix "$PREFIX-"
}
bench_on_exit cleanup

bench_kafka_classpath "$WORK"
bench_kafka_broker "$WORK" "$KAFKA_PORT" "$BROKER_HEAP"

start_app() { # $1: source; the rest: arguments
  local source=$1 port=${PORT_OF[$1]}
  shift
  "${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS ${PGDB}_$source" -c "CREATE DATABASE ${PGDB}_$source"
  mkdir -p "$WORK/$source"
  (cd "$WORK/$source" && exec "$JAVA" -Xms$HEAP -Xmx$HEAP -jar "$JAR" --server.port=$port \
    --spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/${PGDB}_$source" \
    --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url="$REDIS_URL" \
    --hotrank.redis.key-prefix="$PREFIX-$source:" --hotrank.admin.token=$TOKEN \
    --hotrank.limits.enabled=false --logging.level.root=WARN \
    "${EVENT_BOARDS[@]}" "$@" >app.log 2>&1) &
  APP_PID[$source]=$!
  bench_await_ready "$port" "$WORK/$source/app.log"
}

wrk_phase() { # $1: source, $2: KEYED (0 or 1), $3: duration; prints accepted events/s
  local line
  line=$(KEYED=$2 RATE=0 CONNECTIONS=$CONNECTIONS ITEMS=$ITEMS wrk -t2 -c"$CONNECTIONS" -d"$3" \
    -s bench/events/events.lua "http://127.0.0.1:${PORT_OF[$1]}" | grep '^RESULT')
  python3 -c "print(round(($(field "$line" requests) - $(field "$line" non2xx)) * 100 / $(field "$line" seconds)))"
}

pgbench_phase() { # prints rows/s of pgbench's 100-row INSERTs, 8 clients
  local tps
  tps=$(pgbench -n -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT" -U "$HOTRANK_BENCH_PGUSER" \
    -c 8 -j 2 -T "$SECONDS_OF" -f bench/events/pgbench-insert.sql ${PGDB}_raw \
    | grep -oP 'tps = \K[0-9.]+' | head -n 1)
  python3 -c "print(round($tps * 100))"
}

size_per_row() { # $1: source, $2: table; prints "<bytes per row> (<rows> rows)"
  "${PSQL[@]}" -d ${PGDB}_$1 -Atc "SELECT CASE WHEN COUNT(*) = 0 THEN 'no rows' ELSE
    ROUND(pg_total_relation_size('$2')::numeric / COUNT(*)) || ' (' || COUNT(*) || ' rows)' END FROM $2"
}

"${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS ${PGDB}_raw" -c "CREATE DATABASE ${PGDB}_raw"
"${PSQL[@]}" -d ${PGDB}_raw -c "CREATE TABLE raw_event_log (seq BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, biz VARCHAR(32) NOT NULL, item_id BIGINT NOT NULL, type SMALLINT NOT NULL, user_id BIGINT NOT NULL, at_ms BIGINT NOT NULL)"
start_app log
start_app kafka --hotrank.ingest.source=kafka --spring.kafka.bootstrap-servers="$BENCH_BOOTSTRAP" \
  --hotrank.ingest.kafka.topic="$PREFIX.events" --hotrank.ingest.kafka.group="$PREFIX-fold"
for source in log kafka; do
  log "$source: seeding $ITEMS items, warming up for $WARMUP plain and $WARMUP keyed"
  python3 bench/events/seed.py "${PORT_OF[$source]}" "$ITEMS"
  wrk_phase $source 0 "$WARMUP" >/dev/null
  wrk_phase $source 1 "$WARMUP" >/dev/null
  bench_caught_up "${PORT_OF[$source]}" $TOKEN
done
pgbench_phase >/dev/null # its table's first pages, and pgbench's own start

PHASES=(log:0 log:1 kafka:0 kafka:1 raw)
declare -A EPS=()
for round in $(seq 1 "$ROUNDS"); do
  # Rotated by one more each round, and reversed every other round: no phase always runs first or
  # last, and a keyed phase does not always follow its plain one.
  for i in $(seq 0 4); do
    j=$(( (round % 2 == 0) ? 4 - i : i ))
    phase=${PHASES[$(( (j + round - 1) % 5 ))]}
    log "round $round: $phase, $DURATION"
    if [ "$phase" = raw ]; then
      EPS[$round:raw]=$(pgbench_phase)
    else
      source=${phase%:*}
      EPS[$round:$phase]=$(wrk_phase "$source" "${phase#*:}" "$DURATION")
      bench_caught_up "${PORT_OF[$source]}" $TOKEN
    fi
  done
done

declare -A SIZES
for source in log kafka; do
  "${PSQL[@]}" -d ${PGDB}_$source -c "VACUUM ANALYZE hr_idempotency" -c "VACUUM ANALYZE hr_event_id"
  SIZES[$source]="$(size_per_row $source hr_idempotency)|$(size_per_row $source hr_event_id)"
done

ratio() { python3 -c "print('%.2fx' % ($1 / $2))"; }
mean() { python3 -c "import sys; v = [float(x) for x in sys.argv[1:]]; print(round(sum(v) / len(v)))" "$@"; }
echo
echo "Command: \`bench/retries.sh\` (ROUNDS=$ROUNDS, DURATION=$DURATION, WARMUP=$WARMUP, CONNECTIONS=$CONNECTIONS, ITEMS=$ITEMS); $(nproc) cores, $(date -u +%F)."
echo
echo "| round | log plain | log keyed | kafka plain | kafka keyed | pgbench rows/s | log keyed / plain | kafka keyed / plain | log plain / pgbench | kafka plain / log plain |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
declare -A ALL=()
for round in $(seq 1 "$ROUNDS"); do
  lp=${EPS[$round:log:0]} lk=${EPS[$round:log:1]} kp=${EPS[$round:kafka:0]} kk=${EPS[$round:kafka:1]} raw=${EPS[$round:raw]}
  for k in lp lk kp kk raw; do ALL[$k]+="${!k} "; done
  echo "| $round | $lp | $lk | $kp | $kk | $raw | $(ratio $lk $lp) | $(ratio $kk $kp) | $(ratio $lp $raw) | $(ratio $kp $lp) |"
done
lp=$(mean ${ALL[lp]}) lk=$(mean ${ALL[lk]}) kp=$(mean ${ALL[kp]}) kk=$(mean ${ALL[kk]}) raw=$(mean ${ALL[raw]})
echo "| **mean** | $lp | $lk | $kp | $kk | $raw | **$(ratio $lk $lp)** | **$(ratio $kk $kp)** | **$(ratio $lp $raw)** | **$(ratio $kp $lp)** |"
echo
echo "| source | bytes per kept key (hr_idempotency, with its indexes) | bytes per kept event id (hr_event_id, with its indexes) |"
echo "| --- | --- | --- |"
for source in log kafka; do
  IFS='|' read -r keys ids <<< "${SIZES[$source]}"
  echo "| $source | $keys | $ids |"
done
