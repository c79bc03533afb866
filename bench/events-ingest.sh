#!/usr/bin/env bash
# Event ingestion: events per second accepted by POST /api/v1/events (batches of 100: 70% views,
# 30% likes with a user id, over 10,000 items, 16 connections) on PostgreSQL and on the embedded
# default, with the fold lag from 202 to visible in a board; next to two limits measured in the
# same run: redis-benchmark pipelining the sorted-set commands the fold sends, and the database's
# own multi-row insert rate for the same rows (pgbench; for H2 a JDBC loop, bench/events/
# RawInsert.java). Also times the window snapshot build for 60 buckets of 100,000 members.
#
#   bench/events-ingest.sh                 # prints the results as Markdown
#   DBS=postgresql DURATION=30s bench/events-ingest.sh
#
# Environment: DBS (postgresql h2), DURATION (20s: each wrk phase), CONNECTIONS (16), ITEMS
# (10000), RATE_POSTGRESQL / RATE_H2 (events per second of the paced phase in which the lag is
# measured: 30000 / 15000), REDIS_URL (redis://127.0.0.1:6379, for PostgreSQL runs; the embedded
# default starts its own), HOTRANK_BENCH_PG* (bench/lib.sh), HEAP (1g), SKIP_BUILD=1, LIMITS (off:
# rate limits disabled; on: the default limits, wrk and the probe being one client by address).
# Redis is never flushed: this run's keys carry their own prefix and are deleted at the end.
# Everything runs on loopback and stops by itself (about 3 minutes per database).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers

DBS=${DBS:-postgresql h2}
DURATION=${DURATION:-20s}
CONNECTIONS=${CONNECTIONS:-16}
ITEMS=${ITEMS:-10000}
RATE_POSTGRESQL=${RATE_POSTGRESQL:-30000}
RATE_H2=${RATE_H2:-15000}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
HEAP=${HEAP:-1g}
LIMITS=${LIMITS:-off}
PORT=${PORT:-18090}
PGDB=hotrank_bench_events
PREFIX="evbench-$$:"
bench_redis_url "$REDIS_URL"
SECONDS_OF=$(( ${DURATION%s} ))

bench_require_tools "wrk redis-tools postgresql-contrib" wrk redis-benchmark pgbench
bench_server_jar
H2_JAR=$(ls ~/.m2/repository/com/h2database/h2/*/h2-*.jar | sort -V | tail -n 1)

WORK=$(mktemp -d /tmp/hotrank-eventbench-XXXXXX)
APP_PID=""
stop_app() { bench_stop "$APP_PID"; APP_PID=""; }
cleanup() {
  stop_app
  bench_redis_delete_prefix "$PREFIX"
}
bench_on_exit cleanup
PSQL=(psql -X -q -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT" -U "$HOTRANK_BENCH_PGUSER")

BOARDS=(
  --hotrank.boards[0].name=article-hour --hotrank.boards[0].biz=article --hotrank.boards[0].type=window
  --hotrank.boards[0].bucket=1m --hotrank.boards[0].window=60m --hotrank.boards[0].weights.like=1
  --hotrank.boards[0].weights.view=0.05 --hotrank.boards[0].size=100
  --hotrank.boards[1].name=article-liked --hotrank.boards[1].biz=article --hotrank.boards[1].type=leaderboard
  --hotrank.boards[1].counter=like --hotrank.boards[1].shards=4 --hotrank.boards[1].size=100
  --hotrank.boards[2].name=probe-liked --hotrank.boards[2].biz=probe --hotrank.boards[2].type=leaderboard
  --hotrank.boards[2].counter=like --hotrank.boards[2].shards=1 --hotrank.boards[2].size=10
)

start_app() { # $1 = database name; the rest: arguments
  local db=$1; shift
  mkdir -p "$WORK/$db"
  (cd "$WORK/$db" && exec "$JAVA" -Xms$HEAP -Xmx$HEAP -jar "$JAR" --server.port=$PORT \
    --hotrank.admin.token=bench-token --hotrank.limits.enabled=$([ "$LIMITS" = on ] && echo true || echo false) \
    --logging.level.root=WARN \
    "${BOARDS[@]}" "$@" > app.log 2>&1) &
  APP_PID=$!
  bench_await_ready "$PORT" "$WORK/$db/app.log"
}

caught_up() { # waits until the folder has applied everything accepted
  for _ in $(seq 1 600); do
    curl -sf -m 5 -XPOST "localhost:$PORT/api/v1/admin/events/fold" -H "Authorization: Bearer bench-token" \
      | grep -q '"folds":0' && return 0
    sleep 1
  done
  log "the folder did not catch up"; return 1
}

run_wrk() { # $1 = batches per second (0 = unpaced); prints the RESULT line
  RATE=$1 CONNECTIONS=$CONNECTIONS ITEMS=$ITEMS wrk -t2 -c"$CONNECTIONS" -d"$DURATION" \
    -s bench/events/events.lua "http://127.0.0.1:$PORT" | grep '^RESULT'
}


declare -A RESULT
for db in $DBS; do
  log "$db: starting hotrank"
  case $db in
    postgresql)
      "${PSQL[@]}" -c "DROP DATABASE IF EXISTS $PGDB" -c "CREATE DATABASE $PGDB"
      start_app "$db" --spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/$PGDB" \
        --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url="$REDIS_URL" \
        --hotrank.redis.key-prefix="$PREFIX"
      rate=$RATE_POSTGRESQL ;;
    h2)
      start_app "$db" --hotrank.data-dir="$WORK/$db/data"
      rate=$RATE_H2 ;;
    *) log "unknown database $db"; exit 1 ;;
  esac
  log "$db: seeding $ITEMS items"
  python3 bench/events/seed.py "$PORT" "$ITEMS"
  log "$db: as fast as it accepts, $DURATION"
  max=$(run_wrk 0)
  caught_up
  log "$db: paced at $rate events/s for $DURATION, with the lag probe"
  python3 bench/events/probe.py "$PORT" "$SECONDS_OF" 0.1 > "$WORK/$db/lag.txt" &
  probe=$!
  paced=$(run_wrk $(( rate / 100 )))
  wait $probe
  lag=$(cat "$WORK/$db/lag.txt")
  caught_up
  stop_app
  log "$db: the database's own multi-row insert rate, 8 clients, 100 rows per statement"
  case $db in
    postgresql)
      "${PSQL[@]}" -d $PGDB -c "CREATE TABLE raw_event_log (seq BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, biz VARCHAR(32) NOT NULL, item_id BIGINT NOT NULL, type SMALLINT NOT NULL, user_id BIGINT NOT NULL, at_ms BIGINT NOT NULL)"
      tps=$(pgbench -n -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT" -U "$HOTRANK_BENCH_PGUSER" -c 8 -j 2 \
        -T "$SECONDS_OF" -f bench/events/pgbench-insert.sql $PGDB | grep -oP 'tps = \K[0-9.]+' | head -n 1)
      raw=$(python3 -c "print(round($tps * 100))") ;;
    h2)
      raw=$("$JAVA" -cp "$H2_JAR" bench/events/RawInsert.java "jdbc:h2:file:$WORK/h2/raw" 8 "$SECONDS_OF" 1 | grep -oP 'rows_per_s=\K[0-9]+') ;;
  esac
  RESULT[$db]="$max|$paced|$lag|$raw"
done

log "redis-benchmark: ZINCRBY and ZADD pipelined 100 deep, 16 clients"
zincr=$(redis-benchmark -h "$REDIS_HOST" -p "$REDIS_PORT" -c 16 -n 2000000 -P 100 -r 10000 -q \
  ZINCRBY "${PREFIX}zb" 1 __rand_int__ | grep -oP '[0-9.]+(?= requests per second)')
zadd=$(redis-benchmark -h "$REDIS_HOST" -p "$REDIS_PORT" -c 16 -n 2000000 -P 100 -r 10000 -q \
  ZADD "${PREFIX}za" __rand_int__ __rand_int__ | grep -oP '[0-9.]+(?= requests per second)')

log "window snapshot build: 60 buckets of 100,000 members"
"${RC[@]}" EVAL "for b = 1, 60 do local k = ARGV[1] .. b; for i = 1, 100000, 1000 do local a = {}; for j = i, i + 999 do a[#a + 1] = (j % 97) + b; a[#a + 1] = tostring(j) end; redis.call('ZADD', k, unpack(a)) end end; return 1" 0 "${PREFIX}{w:big}:b:" >/dev/null
bucket_bytes=$("${RC[@]}" MEMORY USAGE "${PREFIX}{w:big}:b:1" SAMPLES 0)
keys=("${PREFIX}{w:big}:snap" "${PREFIX}{w:big}:built" "${PREFIX}{w:big}:tmp")
weights=()
for b in $(seq 1 60); do keys+=("${PREFIX}{w:big}:b:$b"); weights+=(1); done
start=$(date +%s%N)
"${RC[@]}" --eval hotrank-server/src/main/resources/lua/window-build.lua "${keys[@]}" , 61 200 "${weights[@]}" >/dev/null
build_ms=$(( ($(date +%s%N) - start) / 1000000 ))

echo
echo "Command: \`bench/events-ingest.sh\` (DURATION=$DURATION, CONNECTIONS=$CONNECTIONS, ITEMS=$ITEMS); $(nproc) cores, $(date -u +%F)."
echo
echo "| database | accepted events/s (unpaced) | batch p50 / p99 | non-2xx (unpaced / paced) | paced events/s | 202 to counters p50 / p99 | 202 to board p50 / p99 / max | raw multi-row insert rows/s | accepted / raw |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for db in $DBS; do
  IFS='|' read -r max paced lag raw <<< "${RESULT[$db]}"
  # Only 202s count as accepted; refused batches (503) are reported apart.
  secs=$(field "$max" seconds); reqs=$(field "$max" requests); refused=$(field "$max" non2xx)
  eps=$(python3 -c "print(round(($reqs - $refused) * 100 / $secs))")
  psecs=$(field "$paced" seconds); preqs=$(field "$paced" requests); prefused=$(field "$paced" non2xx)
  peps=$(python3 -c "print(round(($preqs - $prefused) * 100 / $psecs))")
  ratio=$(python3 -c "print('%.2fx' % ($eps / $raw))")
  echo "| $db | $eps | $(field "$max" p50_ms) / $(field "$max" p99_ms) ms | $refused / $prefused | $peps | $(field "$lag" fold_p50_ms) / $(field "$lag" fold_p99_ms) ms | $(field "$lag" p50_ms) / $(field "$lag" p99_ms) / $(field "$lag" max_ms) ms ($(field "$lag" samples) probes) | $raw | $ratio |"
done
echo
echo "redis-benchmark on the same Redis, 16 clients, pipelined 100 deep: ZINCRBY $zincr/s, ZADD $zadd/s."
echo "Window snapshot build (window-build.lua: ZUNIONSTORE of 60 buckets of 100,000 members, trimmed to 200, swapped in): $build_ms ms; one bucket of 100,000 members: $bucket_bytes bytes (MEMORY USAGE)."
