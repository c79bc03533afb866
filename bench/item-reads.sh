#!/usr/bin/env bash
# Item reads through the tiered cache, on PostgreSQL and a shared Redis, next to the same reads
# with caching off (hotrank.items.cache.enabled=false: one query per read, items joined with their counters), in one run:
#
#  1. Zipf(1.1) reads over 100,000 items, one instance whose local caches hold 10,000 of them, 16
#     connections (wrk): requests per second,
#     p50 / p99, database queries per 1,000 reads and the share answered from memory; cache on,
#     then off. Each measured phase follows a warm-up of the same length.
#  2. The three protections, as database queries, cache on (two instances) against cache off:
#     breakdown (200 concurrent reads of an item no tier holds), penetration (10,000 reads of
#     absent ids, Bloom filter built), avalanche (the Zipf load while every cached item is deleted
#     from Redis at once, 5 s into the phase).
#  3. Hot keys, two instances: time from the start of a burst on one item until both instances
#     list it as hot (TRIALS bursts, a new item each), and the share of the burst's reads answered
#     from memory once it is hot.
#
#   bench/item-reads.sh                 # prints the results as Markdown
#   DURATION=10s TRIALS=10 bench/item-reads.sh
#
# Environment: DURATION (20s), WARMUP (60s: load before each measured phase; on 2 cores the JIT
# takes about a minute of load to settle, and measured cold the cache-on run is 3x slower), CONNECTIONS (16), ITEMS (100000), TRIALS (20), REDIS_URL
# (redis://127.0.0.1:6379), HOTRANK_BENCH_PG* (bench/lib.sh), HEAP (1g), SKIP_BUILD=1.
# Redis is never flushed: this run's keys carry their own prefix and are deleted at the end.
# Everything runs on loopback and stops by itself (about 5 minutes).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers

DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-60s}
CONNECTIONS=${CONNECTIONS:-16}
ITEMS=${ITEMS:-100000}
TRIALS=${TRIALS:-20}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
HEAP=${HEAP:-1g}
PORTS=(18091 18092)
PGDB=hotrank_bench_items
PREFIX="itbench-$$:"
bench_redis_url "$REDIS_URL"

bench_require_tools "wrk redis-tools" wrk redis-cli
bench_server_jar

WORK=$(mktemp -d /tmp/hotrank-itembench-XXXXXX)
declare -A PIDS
stop_all() {
  for port in "${!PIDS[@]}"; do
    bench_stop "${PIDS[$port]}"
    unset "PIDS[$port]"
  done
}
cleanup() {
  stop_all
  bench_redis_delete_prefix "$PREFIX"
}
bench_on_exit cleanup
# Each instance's local caches hold a tenth of the items (a catalogue far larger than memory), so
# that Redis and the database are exercised; hotrank.items.cache.local-entries defaults to 100,000.
LOCAL=(--hotrank.items.cache.local-entries=$(( ITEMS / 10 )))
PSQL=(psql -X -q -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT" -U "$HOTRANK_BENCH_PGUSER")

start_app() { # $1 = port; the rest: arguments
  local port=$1; shift
  mkdir -p "$WORK/$port"
  (cd "$WORK/$port" && exec "$JAVA" -Xms$HEAP -Xmx$HEAP -jar "$JAR" --server.port=$port \
    --spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/$PGDB" \
    --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url="$REDIS_URL" \
    --hotrank.redis.key-prefix="$PREFIX" --hotrank.admin.token=bench-token \
    --hotrank.board.scheduling=false --hotrank.bizes=bench --hotrank.limits.enabled=false \
    --logging.level.root=WARN "$@" > app.log 2>&1) &
  PIDS[$port]=$!
  bench_await_ready "$port" "$WORK/$port/app.log"
}

# A metric's sum over its series on one instance (prometheus text), optionally filtered.
metric() { # $1 port, $2 metric name, $3 optional label filter (grep -E)
  curl -sf "localhost:$1/actuator/prometheus" | grep -E "^$2(\{|\s)" | grep -E "${3:-.}" \
    | awk '{s += $NF} END {printf "%.0f\n", s}'
}

run_wrk() { # $1 port, $2 optional duration; prints the RESULT line
  ITEMS=$ITEMS wrk -t2 -c"$CONNECTIONS" -d"${2:-$DURATION}" -s bench/items/zipf.lua \
    "http://127.0.0.1:$1" | grep '^RESULT'
}

# How often an instance's Redis read breaker opened since it started (its log).
opens() { grep -c "CLOSED to OPEN" "$WORK/$1/app.log" || true; }

# Waits (at most 30 s) until the instance's Redis read breaker is closed: a warm-up that saturated
# the cores may have opened it, and a scenario must not start with reads skipping Redis.
breaker_closed() { # $1 port
  for _ in $(seq 1 60); do
    curl -sf "localhost:$1/api/v1/items/bench/1" >/dev/null || true
    curl -sf "localhost:$1/actuator/prometheus" \
      | grep -E '^resilience4j_circuitbreaker_state\{.*name="redis-read".*state="closed"' | grep -q ' 1\.0$' && return 0
    sleep 0.5
  done
  log "the Redis read breaker of $1 stayed open"
}

# Zipf reads on one instance: warm-up, then the measured phase; prints
# "RESULT ... queries=<db queries in the phase> local=<reads answered locally> reads=<item reads>"
measure() { # $1 port
  run_wrk "$1" "$WARMUP" >/dev/null
  local q0 l0 r0 out
  q0=$(metric "$1" hotrank_cache_origin_queries_total)
  l0=$(metric "$1" hotrank_cache_reads_total 'cache="items".*source="local"')
  r0=$(metric "$1" hotrank_cache_reads_total 'cache="items"')
  out=$(run_wrk "$1")
  echo "$out queries=$(( $(metric "$1" hotrank_cache_origin_queries_total) - q0 ))" \
    "local=$(( $(metric "$1" hotrank_cache_reads_total 'cache="items".*source="local"') - l0 ))" \
    "cachereads=$(( $(metric "$1" hotrank_cache_reads_total 'cache="items"') - r0 ))"
}

log "database $PGDB: schema, then $ITEMS items"
"${PSQL[@]}" -c "DROP DATABASE IF EXISTS $PGDB" -c "CREATE DATABASE $PGDB"
start_app "${PORTS[0]}"
stop_all
"${PSQL[@]}" -d $PGDB -v n="$ITEMS" -v now_ms="$(date +%s%3N)" -f bench/generate-items.sql
"${PSQL[@]}" -d $PGDB -c "INSERT INTO hr_id_sequence (biz, next_id) VALUES ('bench', $ITEMS + 1)"

log "1. Zipf reads, cache on"
start_app "${PORTS[0]}" "${LOCAL[@]}"
for _ in $(seq 1 120); do # the item-filter job builds the Bloom filter within 30 s of start
  [[ -n "$("${RC[@]}" --scan --pattern "${PREFIX}{bloom:bench}:*")" ]] && break
  sleep 1
done
ON=$(measure "${PORTS[0]}")
ON="$ON opens=$(opens "${PORTS[0]}")"
log "   $ON"
stop_all

log "1. Zipf reads, cache off"
start_app "${PORTS[0]}" --hotrank.items.cache.enabled=false
OFF=$(measure "${PORTS[0]}")
log "   $OFF"
log "2. protections, cache off"
OFF_BREAK=$(ITEM_ID=$ITEMS python3 bench/items/scenarios.py breakdown "${PORTS[0]}")
OFF_PEN=$(python3 bench/items/scenarios.py penetration "${PORTS[0]}")
stop_all

log "2. protections, cache on, two instances (warmed up)"
start_app "${PORTS[0]}" "${LOCAL[@]}"
start_app "${PORTS[1]}" "${LOCAL[@]}"
run_wrk "${PORTS[0]}" "$WARMUP" >/dev/null &
warming=$!
run_wrk "${PORTS[1]}" "$WARMUP" >/dev/null
wait $warming
breaker_closed "${PORTS[0]}"
breaker_closed "${PORTS[1]}"
# The item of the breakdown: the last id, which Zipf(1.1) reads about once in 4 million reads.
"${RC[@]}" DEL "${PREFIX}im:bench:$ITEMS" "${PREFIX}ic:bench:$ITEMS" >/dev/null
ON_BREAK=$(ITEM_ID=$ITEMS python3 bench/items/scenarios.py breakdown "${PORTS[@]}")
ON_PEN=$(python3 bench/items/scenarios.py penetration "${PORTS[0]}")
log "   breakdown: $ON_BREAK / off $OFF_BREAK; penetration: $ON_PEN / off $OFF_PEN"
q0=$(metric "${PORTS[0]}" hotrank_cache_origin_queries_total)
s0=$(metric "${PORTS[0]}" hotrank_cache_shed_total)
( sleep 5; "${RC[@]}" --scan --pattern "${PREFIX}i[mc]:*" | xargs -r -n 1000 "${RC[@]}" DEL >/dev/null ) &
flusher=$!
AVA=$(run_wrk "${PORTS[0]}")
wait $flusher
AVA="$AVA queries=$(( $(metric "${PORTS[0]}" hotrank_cache_origin_queries_total) - q0 )) shed=$(( $(metric "${PORTS[0]}" hotrank_cache_shed_total) - s0 ))"
log "   avalanche: $AVA"

PHASE2_OPENS="$(opens "${PORTS[0]}") and $(opens "${PORTS[1]}")"
breaker_closed "${PORTS[0]}"
breaker_closed "${PORTS[1]}"
log "3. hot keys: $TRIALS bursts"
BURST=$(TRIALS=$TRIALS python3 bench/items/scenarios.py burst "${PORTS[@]}")
log "   $BURST"
stop_all

rps() { python3 -c "print(round($(field "$1" requests) / $(field "$1" seconds)))"; }
per1000() { python3 -c "print('%.1f' % ($(field "$1" queries) * 1000 / max(1, $(field "$1" requests))))"; }
share() { python3 -c "print('%.1f%%' % (100 * $(field "$1" local) / max(1, $(field "$1" cachereads))))"; }
ON_RPS=$(rps "$ON"); OFF_RPS=$(rps "$OFF")
echo
echo "Command: \`bench/item-reads.sh\` (DURATION=$DURATION, CONNECTIONS=$CONNECTIONS, ITEMS=$ITEMS, TRIALS=$TRIALS); PostgreSQL, Redis at $REDIS_URL; $(nproc) cores, $(date -u +%F)."
echo
echo "| Zipf(1.1) item reads, one instance | requests/s | p50 / p99 | non-2xx | database queries per 1,000 reads | answered from memory |"
echo "| --- | --- | --- | --- | --- | --- |"
echo "| cache on | $ON_RPS | $(field "$ON" p50_ms) / $(field "$ON" p99_ms) ms | $(field "$ON" non2xx) | $(per1000 "$ON") | $(share "$ON") |"
echo "| (cache on: the Redis read breaker opened $(field "$ON" opens) times in warm-up and run, each time sending reads to the database for up to 5 s) | | | | | |"
echo "| cache off | $OFF_RPS | $(field "$OFF" p50_ms) / $(field "$OFF" p99_ms) ms | $(field "$OFF" non2xx) | $(per1000 "$OFF") | 0% |"
echo "| on / off | $(python3 -c "print('%.2fx' % ($ON_RPS / $OFF_RPS))") | | | | |"
echo
echo "| protection | database queries, cache on | cache off | saved |"
echo "| --- | --- | --- | --- |"
echo "| breakdown: 200 concurrent reads of one item no tier holds (on: 2 instances) | $(field "$ON_BREAK" queries) | $(field "$OFF_BREAK" queries) | $(( $(field "$OFF_BREAK" queries) - $(field "$ON_BREAK" queries) )) |"
echo "| penetration: 10,000 reads of absent ids | $(field "$ON_PEN" queries) | $(field "$OFF_PEN" queries) | $(( $(field "$OFF_PEN" queries) - $(field "$ON_PEN" queries) )) |"
AVA_OFF=$(python3 -c "print(round($(field "$OFF" queries) / $(field "$OFF" requests) * $(field "$AVA" requests)))")
echo "| (the Redis read breakers of the two instances opened $PHASE2_OPENS times during the warm-up and these scenarios) | | | |"
echo "| avalanche: $(field "$AVA" requests) Zipf reads while every cached item is deleted from Redis (shed: $(field "$AVA" shed), non-2xx: $(field "$AVA" non2xx)) | $(field "$AVA" queries) | $AVA_OFF (same reads at the cache-off rate) | $(( AVA_OFF - $(field "$AVA" queries) )) |"
echo
echo "Hot keys, two instances, $(field "$BURST" trials) bursts (8 client threads on one item each): pinned on both in $(field "$BURST" pinned) of them; burst start to listed on every instance p50 $(field "$BURST" p50_ms) ms, p99 $(field "$BURST" p99_ms) ms, max $(field "$BURST" max_ms) ms; once hot, $(python3 -c "print('%.1f%%' % (100 * $(field "$BURST" local_share)))") of $(field "$BURST" hot_reads) reads of the key were answered from memory."
