#!/usr/bin/env bash
# Following feeds, in one run on one PostgreSQL and one Redis (BENCHMARKS.md, "Following feeds"):
#
# 1. Reads of the following feed by readers who each follow 500 of 2,000 authors, whose follower
#    counts are Zipf(1.1) over 100,000 users, in three modes of the same service: push (every
#    author's items pushed into inboxes), pull (every author's pulled at read time) and hybrid
#    (the default: authors with more than 10,000 followers pulled). Requests per second, p50/p99
#    and Redis commands per read (INFO commandstats, less the idle rate measured just before).
#    The items are fanned out before the reads start, at the rate printed as "fan-out".
# 2. Fan-out of one author with 10,000 active followers: the time from the item's 201 to the
#    last follower's inbox holding it (the fan-out job picks items up every 200 ms), TRIALS times.
#
#   bench/feeds.sh
#
# Environment: DURATION (20s), WARMUP (20s), CONNECTIONS (16), READERS (64), FOLLOWS (500),
# AUTHORS (2000), USERS (100000), PER_AUTHOR (5), FANOUT_FOLLOWERS (10000), TRIALS (5),
# REDIS_URL (redis://127.0.0.1:6379), HEAP (1g), SKIP_BUILD=1, HOTRANK_BENCH_PG* (bench/lib.sh).
# Stops by itself; Redis keys live under a prefix of their own and are deleted at the end.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers

DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-20s}
CONNECTIONS=${CONNECTIONS:-16}
READERS=${READERS:-64}
FOLLOWS=${FOLLOWS:-500}
AUTHORS=${AUTHORS:-2000}
USERS=${USERS:-100000}
PER_AUTHOR=${PER_AUTHOR:-5}
FANOUT_FOLLOWERS=${FANOUT_FOLLOWERS:-10000}
TRIALS=${TRIALS:-5}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
HEAP=${HEAP:-1g}
PORT=18093
PGDB=hotrank_bench_feeds
PREFIX="feedbench-$$:"
bench_redis_url "$REDIS_URL"
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"
      -U "$HOTRANK_BENCH_PGUSER")

bench_require_tools "wrk redis-tools" wrk redis-cli
bench_server_jar
WORK=$(mktemp -d /tmp/hotrank-feedbench-XXXXXX)
APP=""
stop_app() { bench_stop "$APP"; APP=""; }
cleanup() {
  stop_app
  bench_redis_delete_prefix "$PREFIX"
}
bench_on_exit cleanup

start_app() { # arguments: extra --name=value settings
  mkdir -p "$WORK/app"
  (cd "$WORK/app" && exec "$JAVA" -Xms$HEAP -Xmx$HEAP -jar "$JAR" --server.port=$PORT \
    --spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/$PGDB" \
    --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url="$REDIS_URL" \
    --hotrank.admin.token=bench-token --hotrank.board.scheduling=false --hotrank.bizes=post \
    --hotrank.limits.enabled=false --logging.level.root=WARN "$@" > app.log 2>&1) &
  APP=$!
  bench_await_ready "$PORT" "$WORK/app/app.log"
}
commands() { # all calls in INFO commandstats
  "${RC[@]}" INFO commandstats | tr -d '\r' | grep -oP 'calls=\K[0-9]+' | awk '{s += $1} END {print s}'
}
metric() { # $1 metric name
  curl -sf "localhost:$PORT/actuator/prometheus" | grep -E "^$1(\{|\s)" | awk '{s += $NF} END {printf "%.0f\n", s}'
}
now_ms() { date +%s%3N; }

log "database $PGDB: schema, then the graph ($READERS readers x $FOLLOWS of $AUTHORS authors) and $(( AUTHORS * PER_AUTHOR )) items"
"${PSQL[@]}" -c "DROP DATABASE IF EXISTS $PGDB" -c "CREATE DATABASE $PGDB"
start_app --hotrank.redis.key-prefix="${PREFIX}schema:" --hotrank.feeds.fanout=false
stop_app
"${PSQL[@]}" -d $PGDB -v users="$USERS" -v authors="$AUTHORS" -v readers="$READERS" \
  -v follows="$FOLLOWS" -v per_author="$PER_AUTHOR" -v now_ms="$(now_ms)" -f bench/feeds/graph.sql

declare -A RESULT
for mode in push hybrid pull; do
  case $mode in
    push) threshold=1000000000 ;;
    hybrid) threshold=10000 ;;
    pull) threshold=0 ;;
  esac
  "${PSQL[@]}" -d $PGDB -c "TRUNCATE hr_item_outbox" -c "INSERT INTO hr_item_outbox (biz, item_id, author_id, created_at) SELECT biz, id, author_id, created_at FROM hr_item ORDER BY created_at"
  start_app --hotrank.redis.key-prefix="${PREFIX}${mode}:" --hotrank.feeds.push-threshold=$threshold \
    --hotrank.feeds.fanout=false
  # Every reader reads once: active, with an inbox that fan-out pushes into.
  for u in $(seq 1 "$READERS"); do curl -sf "localhost:$PORT/api/v1/users/$u/feed?limit=1" >/dev/null; done
  t0=$(now_ms)
  items=$(curl -sf -XPOST "localhost:$PORT/api/v1/admin/feeds/fanout" -H 'Authorization: Bearer bench-token' | grep -oP '"items":\K[0-9]+')
  t1=$(now_ms)
  writes=$(metric hotrank_feeds_fanout_writes_total)
  log "$mode: fanned out $items items in $(( t1 - t0 )) ms, $writes inbox entries written"
  READERS=$READERS wrk -t2 -c"$CONNECTIONS" -d"$WARMUP" -s bench/feeds/readers.lua "http://127.0.0.1:$PORT" >/dev/null
  i0=$(commands); sleep 5; i1=$(commands)
  idle_per_s=$(( (i1 - i0) / 5 ))
  c0=$(commands)
  out=$(READERS=$READERS wrk -t2 -c"$CONNECTIONS" -d"$DURATION" -s bench/feeds/readers.lua "http://127.0.0.1:$PORT" | grep '^RESULT')
  c1=$(commands)
  requests=$(field "$out" requests); seconds=$(field "$out" seconds)
  per_read=$(awk -v c=$(( c1 - c0 )) -v idle="$idle_per_s" -v s="$seconds" -v r="$requests" 'BEGIN {printf "%.1f", (c - idle * s) / r}')
  RESULT[$mode]="$out commands_per_read=$per_read idle_commands_per_s=$idle_per_s fanout_items=$items fanout_ms=$(( t1 - t0 )) fanout_writes=$writes"
  log "$mode: ${RESULT[$mode]}"
  stop_app
done

log "fan-out of one author with $FANOUT_FOLLOWERS active followers, $TRIALS trials"
AUTHOR=$(( USERS + AUTHORS + 1 ))
"${PSQL[@]}" -d $PGDB -c "TRUNCATE hr_item_outbox" \
  -c "INSERT INTO hr_follow (user_id, author_id, created_at) SELECT $USERS + $AUTHORS + 1 + u, $AUTHOR, $(now_ms) FROM generate_series(1, $FANOUT_FOLLOWERS) u" \
  -c "INSERT INTO hr_follow_count (user_id, following, followers) VALUES ($AUTHOR, 0, $FANOUT_FOLLOWERS)"
FP="${PREFIX}fanout:"
# The followers are active: each has an inbox (the sentinel an empty inbox holds).
for u in $(seq 1 "$FANOUT_FOLLOWERS"); do
  printf 'ZADD %sfi:%d -inf ~\n' "$FP" $(( AUTHOR + u ))
done | "${RC[@]}" > /dev/null
start_app --hotrank.redis.key-prefix="$FP"
LAST=$(( AUTHOR + 1 )) # pushed last: followers go newest first, ties by the highest id
TIMES=()
for trial in $(seq 1 "$TRIALS"); do
  id=$(( 9000000 + trial ))
  w0=$(metric hotrank_feeds_fanout_writes_total)
  t0=$(now_ms)
  curl -sf -XPOST "localhost:$PORT/api/v1/items" -H 'Content-Type: application/json' \
    -d "{\"biz\":\"post\",\"id\":$id,\"authorId\":$AUTHOR,\"title\":\"trial $trial\"}" >/dev/null
  member=$(printf 'post:%019d' "$id")
  until [[ -n "$("${RC[@]}" ZSCORE "${FP}fi:$LAST" "$member")" ]]; do sleep 0.01; done
  t1=$(now_ms)
  TIMES+=($(( t1 - t0 )))
  w1=$(metric hotrank_feeds_fanout_writes_total)
  log "trial $trial: all $FANOUT_FOLLOWERS followers had it after $(( t1 - t0 )) ms ($(( w1 - w0 )) inbox entries written)"
  sleep 1
done
stop_app

echo
echo "Following-feed reads: $READERS readers, each following $FOLLOWS of $AUTHORS authors (Zipf(1.1) follower counts over $USERS users), limit 20, wrk $CONNECTIONS connections, $DURATION after $WARMUP warm-up; PostgreSQL, one instance, $(nproc) CPUs."
echo
echo "| mode | requests/s | p50 ms | p99 ms | Redis commands per read | non-2xx | fan-out before the reads |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
for mode in push hybrid pull; do
  r=${RESULT[$mode]}
  rps=$(awk -v n="$(field "$r" requests)" -v s="$(field "$r" seconds)" 'BEGIN {printf "%.0f", n / s}')
  fo_rate=$(awk -v n="$(field "$r" fanout_items)" -v ms="$(field "$r" fanout_ms)" 'BEGIN {printf "%.0f", n * 1000 / ms}')
  echo "| $mode | $rps | $(field "$r" p50_ms) | $(field "$r" p99_ms) | $(field "$r" commands_per_read) | $(field "$r" non2xx) | $(field "$r" fanout_items) items in $(field "$r" fanout_ms) ms ($fo_rate items/s, $(field "$r" fanout_writes) inbox entries) |"
done
echo
sorted=$(printf '%s\n' "${TIMES[@]}" | sort -n | tr '\n' ' ')
echo "Fan-out of one item to $FANOUT_FOLLOWERS active followers, from the 201 to the last inbox (ms, $TRIALS trials, sorted): $sorted"
