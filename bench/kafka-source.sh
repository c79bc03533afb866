#!/usr/bin/env bash
# The Kafka event source (issue 25) against Kafka's own tools and the event log, in one run, on a
# Kafka broker of its own (KRaft, one node, loopback; started from Kafka's jars, bench/kafka/pom.xml):
#
#   a. ingest: accepted events/s through POST /api/v1/events on hotrank.ingest.source=kafka (wrk,
#      batches of 100 as in bench/events-ingest.sh, after a 15 s warm-up) against
#      ProducerPerformance writing values of the same shape and size (bench/kafka/EventLoad.java
#      payload), acks=all, idempotence on, to a topic of as many partitions; with the Kafka
#      transactions (appends) the service made. For context: the service at four times the
#      connections, and ProducerPerformance committing a transaction every 10 ms.
#   b. fold: events folded per second from a backlog of EVENTS valid events for items that exist
#      (bench/kafka/items.sql), one instance started after the backlog is written, timed through
#      GET /api/v1/admin/ingest until its lag is 0 (bench/kafka/fold_time.py); against the same
#      events folded from hr_event_log (source=log, rows inserted by bench/kafka/event-log.sql
#      before the instance starts) and against ConsumerPerformance reading the topic (the limit).
#      The two folds' counters are compared: the same events must give the same counts.
#   c. lag: from produce to board (leaderboard probe-liked) and to the item's counters, p50/p99,
#      probes alternately produced to the topic and posted to the API, while bench/kafka/
#      EventLoad.java produces a background load at half the Kafka fold rate of (b); against
#      Kafka's EndToEndLatency (produce to consume, acks=all) on the same broker meanwhile.
#   CPU seconds (user+system, /proc/<pid>/stat) of hotrank's JVM, the broker, the PostgreSQL
#   backends of the bench database and the Redis server, and PostgreSQL's commits, per phase.
#
#   bench/kafka-source.sh                      # prints the results as Markdown
#   EVENTS=200000 DURATION=5s LAG_SECONDS=10 SKIP_BUILD=1 bench/kafka-source.sh   # a dry run
#
# Environment: EVENTS (5000000: the fold's backlog), FOLD_ITEMS (100000: items of the backlog),
# ITEMS (10000: items of the ingest batches), DURATION (20s: the ingest phase), CONNECTIONS (16),
# LAG_SECONDS (90: the lag phase), LAG_DIVISOR (2: its load is the fold rate of (b) over it),
# PROBE_MS (200: between probes), PARTITIONS (12, the service's
# default), KAFKA_PORT (19092; the controller listens on the next port), PORT (18095), HEAP (1g),
# BROKER_HEAP (1g), REDIS_URL (redis://127.0.0.1:6379), HOTRANK_BENCH_PG* (bench/lib.sh),
# SKIP_BUILD=1. Uses the PostgreSQL database hotrank_bench_kafka (dropped and created again for
# each phase, left at the end for a look) and the Redis key prefix kbench-<pid>-<phase>: (deleted at
# the end; Redis is never flushed). The broker, its data directory and every process started here
# are removed at exit. About 15 minutes with the defaults; every wait is bounded.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers
bench_no_arguments "$@"

EVENTS=${EVENTS:-5000000}
FOLD_ITEMS=${FOLD_ITEMS:-100000}
ITEMS=${ITEMS:-10000}
DURATION=${DURATION:-20s}
CONNECTIONS=${CONNECTIONS:-16}
LAG_SECONDS=${LAG_SECONDS:-90}
PROBE_MS=${PROBE_MS:-200}
LAG_DIVISOR=${LAG_DIVISOR:-2}
PARTITIONS=${PARTITIONS:-12}
KAFKA_PORT=${KAFKA_PORT:-19092}
CONTROLLER_PORT=$((KAFKA_PORT + 1))
PORT=${PORT:-18095}
HEAP=${HEAP:-1g}
BROKER_HEAP=${BROKER_HEAP:-1g}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
PGDB=hotrank_bench_kafka
PREFIX="kbench-$$"
TOKEN=bench-token
BOOTSTRAP="127.0.0.1:$KAFKA_PORT"
SECONDS_OF=$((${DURATION%s}))
bench_redis_url "$REDIS_URL"

bench_require_tools "wrk redis-tools postgresql-client" wrk redis-cli psql
bench_require_redis "$REDIS_HOST" "$REDIS_PORT"
bench_require_postgres
for port in "$KAFKA_PORT" "$CONTROLLER_PORT" "$PORT"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    log "port $port is taken; set KAFKA_PORT / PORT"
    exit 2
  fi
done

bench_temp_dir WORK kafka-bench
bench_server_jar
bench_kafka_classpath "$WORK" # KCP, KAFKA_TOOL
mkdir -p "$WORK/classes"
"${JAVA}c" -cp "$KCP" -d "$WORK/classes" bench/kafka/EventLoad.java
LOAD=("$JAVA" -cp "$WORK/classes:$KCP" EventLoad)
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"
      -U "$HOTRANK_BENCH_PGUSER")

# --- processes ---------------------------------------------------------------------------------

BROKER_PID=""
APP_PID=""
stop_app() { bench_stop "$APP_PID"; APP_PID=""; }
cleanup() {
  stop_app
  bench_stop "$BROKER_PID"
  bench_redis_delete_prefix "$PREFIX-"
}
bench_on_exit cleanup

bench_kafka_broker "$WORK" "$KAFKA_PORT" "$BROKER_HEAP" # sets BROKER_PID, topics()
new_topic() { # $1: name, $2: partitions
  topics --create --topic "$1" --partitions "$2" --replication-factor 1 >/dev/null
}

BOARDS=("${EVENT_BOARDS[@]}") # bench/lib.sh

start_app() { # $1: phase (names the log and the Redis prefix); the rest: arguments
  local phase=$1
  shift
  mkdir -p "$WORK/$phase"
  (cd "$WORK/$phase" && exec "$JAVA" -Xms$HEAP -Xmx$HEAP -jar "$JAR" --server.port=$PORT \
    --spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/$PGDB" \
    --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url="$REDIS_URL" \
    --hotrank.redis.key-prefix="$PREFIX-$phase:" --spring.kafka.bootstrap-servers="$BOOTSTRAP" \
    --hotrank.admin.token=$TOKEN --hotrank.limits.enabled=false --logging.level.root=WARN \
    "${BOARDS[@]}" "$@" >app.log 2>&1) &
  APP_PID=$!
  bench_await_ready "$PORT" "$WORK/$phase/app.log"
}

# A fresh database with the service's schema and the items: the service migrates it (started with
# folding off and stopped), then bench/kafka/items.sql adds the items before the measured start.
fresh_database() { # $1: phase, $2: articles
  "${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS $PGDB" -c "CREATE DATABASE $PGDB"
  start_app "$1-migrate" --hotrank.ingest.folding=false
  stop_app
  "${PSQL[@]}" -d $PGDB -v n="$2" -v now_ms="$(date +%s%3N)" -f bench/kafka/items.sql >/dev/null
}

# --- measuring ---------------------------------------------------------------------------------

ticks() { # CPU seconds (user+system) of the pids
  local pid
  for pid in "$@"; do awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || true; done \
    | awk '{s += $1} END {printf "%.2f", s / 100}'
}
pg_backends() {
  "${PSQL[@]}" -d postgres -Atc "SELECT pid FROM pg_stat_activity WHERE datname = '$PGDB'" | tr '\n' ' '
}
REDIS_PID=$("${RC[@]}" INFO server | tr -d '\r' | grep '^process_id:' | cut -d: -f2)
# The machine's CPU seconds (all processes), for the share the measured ones took.
machine_ticks() { awk '/^cpu / {printf "%.2f", ($2 + $3 + $4 + $7 + $8) / 100}' /proc/stat; }
CPU_PG0=""
cpu_start() { # marks the start of a measured window
  CPU_PG0=$(pg_backends)
  CPU0="$(ticks "$APP_PID") $(ticks "$BROKER_PID") $(ticks $CPU_PG0) $(ticks "$REDIS_PID") $(machine_ticks)"
  XACT0=$(xacts)
}
# Prints "app broker pg redis machine xacts" for the window since cpu_start: CPU seconds of
# hotrank, the broker, the bench database's backends (those at the start, and those opened since,
# whole) and the Redis server, all of the machine's, and the bench database's commits.
cpu_end() {
  local pg_now new=() pid
  pg_now=$(pg_backends)
  for pid in $pg_now; do [[ " $CPU_PG0 " == *" $pid "* ]] || new+=("$pid"); done
  read -r a0 b0 p0 r0 m0 <<<"$CPU0"
  local a1 b1 p1 pn r1 m1
  a1=$(ticks "$APP_PID"); b1=$(ticks "$BROKER_PID"); p1=$(ticks $CPU_PG0)
  pn=$(ticks "${new[@]}"); r1=$(ticks "$REDIS_PID"); m1=$(machine_ticks)
  sleep 1 # PostgreSQL's statistics are flushed within a second of a backend's transactions
  python3 -c "print('%.1f %.1f %.1f %.1f %.1f %d' % ($a1 - $a0, $b1 - $b0, $p1 - $p0 + $pn, \
    $r1 - $r0, $m1 - $m0, $(xacts) - $XACT0))"
}
xacts() {
  "${PSQL[@]}" -d postgres -Atc "SELECT xact_commit FROM pg_stat_database WHERE datname = '$PGDB'"
}
metric() { # $1: name, $2: a tag (name:value) or ""; the counter's value
  curl -sf -H "Authorization: Bearer $TOKEN" \
    "localhost:$PORT/actuator/metrics/$1${2:+?tag=$2}" \
    | python3 -c "import json, sys; print(int(json.load(sys.stdin)['measurements'][0]['value']))"
}
counters_digest() { # the folded counters, to compare the two folds
  "${PSQL[@]}" -d $PGDB -Atc "SELECT sum(like_cnt) || '/' || sum(view_cnt) || '/' \
    || sum((like_cnt * 31 + view_cnt) * item_id % 1000003) FROM hr_item_counter WHERE biz = 'article'"
}
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

LOADS=("start: $(loadavg)")

# --- a. ingest ---------------------------------------------------------------------------------

log "a. ingest: hotrank on Kafka, wrk unpaced for $DURATION"
fresh_database ingest "$ITEMS"
start_app ingest --hotrank.ingest.source=kafka
run_wrk() { # $1: connections, $2: duration; prints the RESULT line
  RATE=0 CONNECTIONS=$1 ITEMS=$ITEMS wrk -t2 -c"$1" -d"$2" -s bench/events/events.lua \
    "http://127.0.0.1:$PORT" | grep '^RESULT'
}
# Warm-up, 15 s: the first batches create the topic, open the writers' producers and compile the
# path; and a fresh broker answers its first seconds of transactions with CONCURRENT_TRANSACTIONS
# (measured here with four plain transactional producers too: a third of the rate in their first
# 10 s), which is the broker starting, not the steady state either writer sees.
run_wrk "$CONNECTIONS" 15s >/dev/null
appends0=$(metric hotrank.ingest.appends "")
cpu_start
ingest=$(run_wrk "$CONNECTIONS" "$DURATION")
ingest_cpu=$(cpu_end)
appends=$(($(metric hotrank.ingest.appends "") - appends0))
# Four times the connections: the same writers, more batches waiting for each transaction.
many=$((CONNECTIONS * 4))
appends0=$(metric hotrank.ingest.appends "")
ingest_many=$(run_wrk "$many" "$DURATION")
appends_many=$(($(metric hotrank.ingest.appends "") - appends0))
LOADS+=("after the ingest: $(loadavg)")
stop_app
# The records hotrank wrote: their mean size, for the peer's payload.
payload=$("${LOAD[@]}" payload "$WORK/payload.txt" 100000 "$ITEMS")
mean_bytes=$(field "$payload" mean_bytes)
log "a. ingest: ProducerPerformance, $mean_bytes-byte values"
new_topic perf "$PARTITIONS"
secs=$(field "$ingest" seconds); reqs=$(field "$ingest" requests); refused=$(field "$ingest" non2xx)
eps=$(python3 -c "print(round(($reqs - $refused) * 100 / $secs))")
# About the ingest phase's duration at twice hotrank's rate (at least a million records).
perf_records=$(python3 -c "print(max(1000000, $eps * $SECONDS_OF * 2))")
CPU0="0 $(ticks "$BROKER_PID") 0 0 $(machine_ticks)"; CPU_PG0=""; XACT0=$(xacts)
perf=$("${KAFKA_TOOL[@]}" org.apache.kafka.tools.ProducerPerformance --topic perf \
  --num-records "$perf_records" --throughput -1 --payload-file "$WORK/payload.txt" \
  --producer-props bootstrap.servers="$BOOTSTRAP" acks=all enable.idempotence=true | tail -n 1)
perf_cpu=$(cpu_end)
perf_eps=$(echo "$perf" | grep -oP '[0-9.]+(?= records/sec)')
perf_p99=$(echo "$perf" | grep -oP '[0-9.]+(?= ms 99th)')
# Context, not the peer: one transactional producer committing every 10 ms, what the broker does
# for transactions at all.
new_topic perf-tx "$PARTITIONS"
perf_tx=$("${KAFKA_TOOL[@]}" org.apache.kafka.tools.ProducerPerformance --topic perf-tx \
  --num-records "$perf_records" --throughput -1 --payload-file "$WORK/payload.txt" \
  --transaction-duration-ms 10 \
  --producer-props bootstrap.servers="$BOOTSTRAP" acks=all enable.idempotence=true | tail -n 1)
perf_tx_eps=$(echo "$perf_tx" | grep -oP '[0-9.]+(?= records/sec)')
LOADS+=("after ProducerPerformance: $(loadavg)")

# --- b. fold: Kafka ----------------------------------------------------------------------------

log "b. fold: $EVENTS events on Kafka"
fresh_database kafka "$FOLD_ITEMS"
new_topic hotrank.fold "$PARTITIONS"
backlog=$("${LOAD[@]}" backlog "$BOOTSTRAP" hotrank.fold "$EVENTS" "$FOLD_ITEMS" | grep '^BACKLOG')
log "b. fold: ConsumerPerformance reading the topic"
echo "isolation.level=read_committed" >"$WORK/consumer.properties"
consumer=$("${KAFKA_TOOL[@]}" org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "$BOOTSTRAP" \
  --topic hotrank.fold --messages "$EVENTS" --timeout 60000 --consumer.config "$WORK/consumer.properties" \
  --hide-header | tail -n 1)
# start.time, end.time, MB, MB/s, messages, messages/s, rebalance ms, fetch ms, fetch MB/s,
# fetch messages/s: the rate once the group was joined.
consumer_eps=$(echo "$consumer" | awk -F', ' '{printf "%.0f", $10}')
consumer_msgs=$(echo "$consumer" | awk -F', ' '{print $5}')
log "b. fold: hotrank on Kafka, started after the backlog"
LOADS+=("before the Kafka fold: $(loadavg)")
start_app kafka --hotrank.ingest.source=kafka --hotrank.ingest.kafka.topic=hotrank.fold
cpu_start
kafka_fold=$(python3 bench/kafka/fold_time.py "$PORT" "$TOKEN" "$EVENTS" 1800)
kafka_cpu=$(cpu_end)
LOADS+=("after the Kafka fold: $(loadavg)")
kafka_digest=$(counters_digest)
kafka_report=$(curl -sf -H "Authorization: Bearer $TOKEN" "localhost:$PORT/api/v1/admin/ingest")
kafka_dead=$(echo "$kafka_report" | python3 -c "import json, sys; r = json.load(sys.stdin); \
  print('dead letters %s, parked %d' % (r['deadLetters'] or 0, r['parked']))")

# --- c. lag, on the Kafka fold's instance ------------------------------------------------------

kafka_rate=$(field "$kafka_fold" rate)
load_rate=$((kafka_rate / LAG_DIVISOR))
log "c. lag: probes while $load_rate events/s are produced, $LAG_SECONDS s"
new_topic e2e 1
folds0=$(metric hotrank.ingest.folds source:kafka)
folded0=$(metric hotrank.ingest.events.folded source:kafka)
cpu_start
"${LOAD[@]}" lag "$BOOTSTRAP" hotrank.fold "$load_rate" "$LAG_SECONDS" $((EVENTS + 1)) "$FOLD_ITEMS" \
  "$PORT" probe-liked "$PROBE_MS" >"$WORK/lag.txt" &
lag_pid=$!
sleep $((LAG_SECONDS / 4))
# Kafka's own produce-to-consume time on the same broker under the same load: the floor of any
# consumer's lag. One record at a time, each awaited; bounded by the load's own end.
e2e=$(timeout $((LAG_SECONDS / 2)) "${KAFKA_TOOL[@]}" org.apache.kafka.tools.EndToEndLatency \
  "$BOOTSTRAP" e2e 500 all "${mean_bytes%.*}" 2>&1 | grep -E 'Avg latency|Percentiles' | tr '\n' ' ' || true)
wait "$lag_pid"
lag_cpu=$(cpu_end)
lag_folds=$(($(metric hotrank.ingest.folds source:kafka) - folds0))
lag_folded=$(($(metric hotrank.ingest.events.folded source:kafka) - folded0))
LOADS+=("after the lag phase: $(loadavg)")
lag_kafka=$(grep '^LAG kind=kafka' "$WORK/lag.txt")
lag_http=$(grep '^LAG kind=http' "$WORK/lag.txt")
lag_load=$(grep '^LOAD' "$WORK/lag.txt")
stop_app

# --- b. fold: the event log --------------------------------------------------------------------

log "b. fold: $EVENTS events from hr_event_log"
fresh_database log "$FOLD_ITEMS"
"${PSQL[@]}" -d $PGDB -v n="$EVENTS" -v items="$FOLD_ITEMS" -v now_ms="$(date +%s%3N)" \
  -f bench/kafka/event-log.sql >/dev/null
LOADS+=("before the log fold: $(loadavg)")
start_app log
cpu_start
log_fold=$(python3 bench/kafka/fold_time.py "$PORT" "$TOKEN" "$EVENTS" 1800)
log_cpu=$(cpu_end)
LOADS+=("after the log fold: $(loadavg)")
log_digest=$(counters_digest)
stop_app

# --- report ------------------------------------------------------------------------------------

ratio() { python3 -c "print('%.2fx' % ($1 / $2))"; }
per_event() { python3 -c "print('%.1f' % ($1 / $2 * 1e6))"; } # $1 CPU s, $2 events: µs per event
read -r ia ib ip ir im ix <<<"$ingest_cpu"
read -r _ pb _ _ pm _ <<<"$perf_cpu"
read -r ka kb kp kr km kx <<<"$kafka_cpu"
read -r la lb lp lr lm lx <<<"$log_cpu"
read -r ca cb cp cr cm cx <<<"$lag_cpu"
accepted=$(((reqs - refused) * 100))
many_accepted=$((($(field "$ingest_many" requests) - $(field "$ingest_many" non2xx)) * 100))
many_eps=$(python3 -c "print(round($many_accepted / $(field "$ingest_many" seconds)))")
kafka_events=$(field "$kafka_fold" events)
log_events=$(field "$log_fold" events)
kafka_folds=$(field "$kafka_fold" folds)
log_folds=$(field "$log_fold" folds)
load_sent=$(field "$lag_load" sent)

echo
echo "Command: \`bench/kafka-source.sh\` (EVENTS=$EVENTS, FOLD_ITEMS=$FOLD_ITEMS, ITEMS=$ITEMS, DURATION=$DURATION, CONNECTIONS=$CONNECTIONS, LAG_SECONDS=$LAG_SECONDS, LAG_DIVISOR=$LAG_DIVISOR, PARTITIONS=$PARTITIONS); $(nproc) cores, $(date -u '+%F %H:%M UTC'), commit $(git rev-parse --short HEAD)."
echo
echo "**a. Ingest** (topic of $PARTITIONS partitions; values of $mean_bytes bytes on average)"
echo
echo "| writer | events/s | p50 / p99 | non-2xx | CPU s: hotrank / broker / machine |"
echo "| --- | ---: | --- | ---: | --- |"
echo "| hotrank \`POST /api/v1/events\` (batches of 100, $CONNECTIONS connections, folding on) | $eps | $(field "$ingest" p50_ms) / $(field "$ingest" p99_ms) ms per batch | $refused | $ia / $ib / $im |"
echo "| ProducerPerformance, acks=all, idempotence, $perf_records records | ${perf_eps%.*} | p99 $perf_p99 ms per record | | - / $pb / $pm |"
echo "| **hotrank / ProducerPerformance** | **$(ratio "$eps" "$perf_eps")** | | | |"
echo "| hotrank, $many connections | $many_eps | $(field "$ingest_many" p50_ms) / $(field "$ingest_many" p99_ms) ms per batch | $(field "$ingest_many" non2xx) | |"
echo "| ProducerPerformance, transactional, a commit every 10 ms (context) | ${perf_tx_eps%.*} | | | |"
echo
echo "Kafka transactions (appends) during the ingest: $appends, $(python3 -c "print(round($accepted / max(1, $appends)))") events each on average ($appends_many, $(python3 -c "print(round($many_accepted / max(1, $appends_many)))") each, at $many connections); broker CPU per event: hotrank $(per_event "$ib" "$accepted") µs, ProducerPerformance $(per_event "$pb" "$perf_records") µs."
echo
echo "**b. Fold** of a backlog of $EVENTS events (30% likes with a user, 70% views, over $FOLD_ITEMS items), one instance"
echo
echo "| folder | events/s | events | seconds | folds (events per fold) | PostgreSQL commits | CPU s: hotrank / PostgreSQL (bench db) / Redis / broker / machine | µs per event: hotrank / PostgreSQL |"
echo "| --- | ---: | ---: | ---: | --- | ---: | --- | --- |"
echo "| hotrank, source=kafka | $kafka_rate | $kafka_events | $(field "$kafka_fold" seconds) | $kafka_folds ($((EVENTS / (kafka_folds > 0 ? kafka_folds : 1)))) | $kx | $ka / $kp / $kr / $kb / $km | $(per_event "$ka" "$kafka_events") / $(per_event "$kp" "$kafka_events") |"
echo "| hotrank, source=log (PostgreSQL) | $(field "$log_fold" rate) | $log_events | $(field "$log_fold" seconds) | $log_folds ($((EVENTS / (log_folds > 0 ? log_folds : 1)))) | $lx | $la / $lp / $lr / $lb / $lm | $(per_event "$la" "$log_events") / $(per_event "$lp" "$log_events") |"
echo "| ConsumerPerformance (read_committed), $consumer_msgs records | $consumer_eps | | | | | | |"
echo "| **kafka / log** | **$(ratio "$kafka_rate" "$(field "$log_fold" rate)")** | | | | | | |"
echo "| **kafka / ConsumerPerformance** | **$(ratio "$kafka_rate" "$consumer_eps")** | | | | | | |"
echo
echo "Backlog written at $(python3 -c "print(round($(field "$backlog" records) / $(field "$backlog" seconds)))") records/s ($(field "$backlog" bytes) bytes of keys and values). Counters after the folds (likes / views / digest): kafka $kafka_digest, log $log_digest ($([[ "$kafka_digest" == "$log_digest" ]] && echo equal || echo DIFFERENT)); kafka $kafka_dead. Timed from the first report after the instance was ready (first position: kafka $(field "$kafka_fold" first_position), log $(field "$log_fold" first_position))."
echo
echo "**c. Lag** from produce to board (\`probe-liked\`) while $(python3 -c "print(round($load_sent / $LAG_SECONDS))") events/s are produced (1/$LAG_DIVISOR of the Kafka fold rate), $LAG_SECONDS s"
echo
echo "| probe | samples | ack p50 | to counters p50 / p99 | to board p50 / p99 / max |"
echo "| --- | ---: | ---: | --- | --- |"
for line in "$lag_kafka" "$lag_http"; do
  echo "| $(field "$line" kind) | $(field "$line" samples) | $(field "$line" ack_p50_ms) ms | $(field "$line" counters_p50_ms) / $(field "$line" counters_p99_ms) ms | $(field "$line" board_p50_ms) / $(field "$line" board_p99_ms) / $(field "$line" board_max_ms) ms |"
done
echo
echo "Kafka's EndToEndLatency (produce to consume, acks=all, one record at a time) meanwhile: ${e2e:-not measured}. Load: $lag_load. Folds over the phase: $lag_folds ($((lag_folded / (lag_folds > 0 ? lag_folds : 1))) events each on average). CPU s over the phase: hotrank $ca, PostgreSQL (bench db) $cp, Redis $cr, broker $cb, machine $cm; PostgreSQL commits $cx; per event produced: hotrank $(per_event "$ca" "$load_sent") µs, PostgreSQL $(per_event "$cp" "$load_sent") µs, broker $(per_event "$cb" "$load_sent") µs."
echo
echo "Load average (1/5/15 min): $(printf '%s; ' "${LOADS[@]}")end: $(loadavg)."
