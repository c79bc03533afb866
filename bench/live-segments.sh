#!/usr/bin/env bash
# Freshness of a live board by tag against the same live board unsegmented, over the ranking
# benchmark's 1,000,000 items tagged over 10,000 tags (log-uniform, as bench/segments.sh tags
# them), on PostgreSQL and Redis, while wrk asks for 10,000 events/s (batches of 100: 70% views,
# 30% likes over the 1M items). Two phases, one service each, one after the other: `fresh-live`
# (one board) and `fresh-live-tag` (`segment-by: tag`), both ranking biz 'bench' by decay
# (half-life 6h, weights like 1, view 0.05, share 50, a 30-day window, 50 entries). A probe
# (bench/live/probe.py) creates an item with one tag every PROBE_S seconds and lifts it above the
# board's top (the family: its tag's segment board) with one batch of shares, then reads the board
# every 10 ms until it shows the item at rank 1. Each phase also reports the family's first
# rebuild, the Redis memory of the rank sets and of the published boards, and the heap after a
# full GC.
#
#   bench/live-segments.sh                  # prints a Markdown table
#
# Environment: RATE (10000 events/s), SECONDS_OF (60: the measured phase), PROBE_S (1.0),
# ITEMS (1000000), TAGS (10000), CONNECTIONS (16), REDIS_URL (redis://127.0.0.1:6379),
# HOTRANK_BENCH_PG* (bench/lib.sh; database hotrank_bench, shared with bench/segments.sh), HEAP
# (2g), PHASES ("one tag"), KEEP_LOGS (a directory to copy each phase's service log to),
# SKIP_BUILD=1. Redis is never flushed: this run's keys carry their own prefix and are
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
PHASES=${PHASES:-one tag} # which phases run: one (the board unsegmented), tag (the family)
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
forget_probes 2>/dev/null || true # (no tables yet on a first run)
bench_tagged_items "$ITEMS" "$TAGS"

# One board's definition, as --hotrank.boards[i] arguments.
board_args() { # $1: index, $2: name, then extra settings as key=value
  local b="--hotrank.boards[$1]" name=$2
  shift 2
  echo "$b.name=$name $b.biz=bench $b.type=live $b.algorithm=decay $b.half-life=6h" \
    "$b.weights.like=1 $b.weights.view=0.05 $b.weights.share=50 $b.window=30d $b.size=50" \
    "${@/#/$b.}"
}

# Bytes of this run's keys matching a pattern, by MEMORY USAGE.
redis_bytes() { # $1: pattern after the prefix
  "${RC[@]}" --scan --pattern "$PREFIX$1" | sed 's/^/MEMORY USAGE "/; s/$/"/' | "${RC[@]}" |
    awk '{s += $1} END {printf "%.1f", s / 1048576}'
}

# One phase: a service with the given boards, the load, the probe; prints its results as fields.
measure() { # $1: label, $2: the probe's BOARDS, then the boards' arguments (word-split)
  local label=$1 probe_boards=$2
  shift 2
  log "$label: starting hotrank (-Xmx$HEAP)"
  # shellcheck disable=SC2068 # the boards' arguments are words
  (cd "$WORK" && exec "$JAVA" -Xms$HEAP -Xmx$HEAP -jar "$JAR" --server.port=$PORT \
    --hotrank.admin.token=bench-token --hotrank.limits.enabled=false --logging.level.root=WARN \
    --logging.level.io.hotrank.realtime=INFO --hotrank.bizes=bench \
    --spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/$HOTRANK_BENCH_PGDATABASE" \
    --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url="$REDIS_URL" \
    --hotrank.redis.key-prefix="$PREFIX" $@ > "$label.log" 2>&1) &
  APP_PID=$!
  bench_await_ready "$PORT" "$WORK/$label.log"
  log "$label: waiting for the first publish (a family's rebuild scans every item)"
  local first=${probe_boards#*=}
  first=${first%%,*}
  first=${first/\{tag\}/t1}
  # A family waits for its first rebuild (the database may hold an earlier run's segment boards).
  for _ in $(seq 1 300); do
    if curl -sf "localhost:$PORT/api/v1/boards/$first?limit=1" | grep -q itemId &&
       { [[ "$first" != */segments/* ]] || grep -q "rebuilt at fold" "$WORK/$label.log"; }; then
      break
    fi
    sleep 1
  done
  local rebuilt
  rebuilt=$(grep -o "Live family '[a-z-]*' rebuilt[^\"]*" "$WORK/$label.log" | head -n 1 || true)
  log "$label: ${rebuilt:-no family rebuild logged}"
  log "$label: $RATE events/s for $((SECONDS_OF + 10)) s; probes during the last $SECONDS_OF s"
  BIZ=bench RATE=$((RATE / 100)) CONNECTIONS=$CONNECTIONS ITEMS=$ITEMS wrk -t2 \
    -c"$CONNECTIONS" -d"$((SECONDS_OF + 10))s" -s bench/events/events.lua \
    "http://127.0.0.1:$PORT" > "$WORK/$label-wrk.txt" &
  local load=$!
  sleep 10
  BIZ=bench TAGS=$TAGS BOARDS="$probe_boards" python3 bench/live/probe.py "$PORT" "$SECONDS_OF" \
    "$PROBE_S" $((ITEMS + 1000000)) > "$WORK/$label-probe.txt"
  wait $load
  local sent eps
  sent=$(grep '^RESULT' "$WORK/$label-wrk.txt")
  eps=$(python3 -c "print(round($(field "$sent" requests) * 100 / $(field "$sent" seconds)))")
  local jcmd heap
  jcmd="$(dirname "$JAVA")/jcmd"
  "$jcmd" "$APP_PID" GC.run >/dev/null 2>&1 || true
  heap=$("$jcmd" "$APP_PID" GC.heap_info 2>/dev/null | grep -oE 'used [0-9]+K' | head -n 1 |
    awk '{printf "%.0f", $2 / 1024}')
  echo "$(cat "$WORK/$label-probe.txt") eps=$eps heap=$heap" \
    "redis_sets=$(redis_bytes '{l[vf]:*')" "redis_boards=$(redis_bytes '{b:*')" \
    "rebuild=$(echo "$rebuilt" | grep -oE 'in [0-9]+ ms' | grep -oE '[0-9]+' || echo -)" \
    "segments=$(echo "$rebuilt" | grep -oE 'into [0-9]+ segments' | grep -oE '[0-9]+' || echo -)"
  bench_stop "$APP_PID"
  APP_PID=""
  if [ -n "${KEEP_LOGS:-}" ]; then
    cp "$WORK/$label.log" "$KEEP_LOGS/live-segments-$label.log"
  fi
  bench_redis_delete_prefix "$PREFIX"
  forget_probes
}

one="" tag=""
if [[ " $PHASES " == *" one "* ]]; then
  one=$(measure one "b=fresh-live" "$(board_args 0 fresh-live)")
fi
if [[ " $PHASES " == *" tag "* ]]; then
  tag=$(measure tag "b=fresh-live-tag/segments/{tag}" "$(board_args 0 fresh-live-tag segment-by=tag)")
fi

row() { # $1: board, $2: the phase's fields
  echo "| $1 | $(field "$2" eps) | $(field "$2" samples) | $(field "$2" b_p50_ms) / $(field "$2" b_p99_ms) ms | $(field "$2" fold_p50_ms) / $(field "$2" fold_p99_ms) ms | $(field "$2" rebuild) ms | $(field "$2" redis_sets) MiB | $(field "$2" redis_boards) MiB | $(field "$2" heap) MiB |"
}
echo "Live board by tag vs the same board unsegmented, one after the other on PostgreSQL at commit $(git rev-parse --short HEAD), $(nproc) cores, $ITEMS items over $TAGS tags, wrk asking $RATE events/s:"
echo
echo "| board | events/s taken | probes | 202 to rank 1, p50 / p99 | the fold alone, p50 / p99 | first rebuild | Redis: rank sets | Redis: published boards | heap after full GC |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
row "\`fresh-live\` (one board)" "$one"
row "\`fresh-live-tag\` ($(field "$tag" segments) segments; the probe's tag's board)" "$tag"
