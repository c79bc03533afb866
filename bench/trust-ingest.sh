#!/usr/bin/env bash
# What weighing events by their actors costs ingest and fold (issue 42): one service on PostgreSQL
# (hotrank.ingest.source=log), batches of 100 events (70% views, 30% likes) over ITEMS items, every
# event with a user out of USERS, in three phases per round, the order reversed every other round:
#   actors:     the users are actors the platform sent (USERS rows of hr_actor, a year old)
#   no actors:  the users are unknown to hotrank (they weigh as anonymous events; the same lookup
#               finds nothing)
#   anonymous:  views without a user, likes with one (what bench/events-ingest.sh sends): no view
#               is counted per actor
# Each phase posts unpaced for DURATION, then waits until the folder has applied everything; the
# "ingest and fold" rate is the events accepted over the time from the first post to caught up.
#
#   bench/trust-ingest.sh                      # prints the results as Markdown
#   ROUNDS=1 DURATION=5s WARMUP=5s SKIP_BUILD=1 bench/trust-ingest.sh   # a dry run
#
# Environment: ROUNDS (2), DURATION (20s), WARMUP (15s), CONNECTIONS (16), ITEMS (10000), USERS
# (100000), VIEW_CAP (unset: the default cap of 3 views per actor and item; 0: no cap, no row per
# viewer: hotrank.trust.max-per-actor.view), PORT (18197), HEAP (1g), REDIS_URL (redis://127.0.0.1:6379), HOTRANK_BENCH_PG*
# (bench/lib.sh), SKIP_BUILD=1. Uses the PostgreSQL database hotrank_bench_trust (dropped and
# created again, left at the end for a look) and the Redis key prefix trust-ingest-<pid>: (deleted
# at the end). Runs on loopback and stops by itself; about 6 minutes with the defaults.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers
bench_no_arguments "$@"

ROUNDS=${ROUNDS:-2}
DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-15s}
CONNECTIONS=${CONNECTIONS:-16}
ITEMS=${ITEMS:-10000}
USERS=${USERS:-100000}
PORT=${PORT:-18197}
HEAP=${HEAP:-1g}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
PGDB=hotrank_bench_trust
PREFIX="trust-ingest-$$"
TOKEN=bench-token
KNOWN_BASE=10000000    # the actors' user ids
UNKNOWN_BASE=20000000  # users hotrank was never told of
bench_redis_url "$REDIS_URL"

bench_require_tools "wrk redis-tools postgresql-client" wrk redis-cli psql
bench_require_redis "$REDIS_HOST" "$REDIS_PORT"
bench_require_postgres
bench_temp_dir WORK trust-ingest
bench_server_jar

APP=""
cleanup() {
  bench_stop "$APP"
  bench_redis_delete_prefix "$PREFIX:"
}
bench_on_exit cleanup

PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"
  -U "$HOTRANK_BENCH_PGUSER")
"${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS $PGDB" -c "CREATE DATABASE $PGDB"
(cd "$WORK" && exec "$JAVA" -Xms$HEAP -Xmx$HEAP -jar "$JAR" --server.port=$PORT \
  --spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/$PGDB" \
  --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url="$REDIS_URL" \
  --hotrank.redis.key-prefix="$PREFIX:" --hotrank.admin.token=$TOKEN \
  --hotrank.limits.enabled=false --logging.level.root=WARN "${EVENT_BOARDS[@]}" \
  ${VIEW_CAP:+--hotrank.trust.max-per-actor.view=$VIEW_CAP} >app.log 2>&1) &
APP=$!
bench_await_ready $PORT "$WORK/app.log"
python3 bench/events/seed.py $PORT "$ITEMS"
log "inserting $USERS actors"
"${PSQL[@]}" -d $PGDB -c "INSERT INTO hr_actor (user_id, created_at, bot, trust, updated_at)
  SELECT g, (extract(epoch FROM now()) * 1000)::bigint - 31536000000, false, 1,
         (extract(epoch FROM now()) * 1000)::bigint
    FROM generate_series($KNOWN_BASE, $KNOWN_BASE + $USERS - 1) g" -c "ANALYZE hr_actor"

# phase NAME DURATION: posts the phase's events, waits for the fold; prints "accepted/s fold/s".
phase() {
  local name=$1 duration=$2 users=0 base=1 start line accepted elapsed
  case $name in
    actors) users=$USERS base=$KNOWN_BASE ;;
    unknown) users=$USERS base=$UNKNOWN_BASE ;;
  esac
  start=$(date +%s.%N)
  line=$(USERS=$users USER_BASE=$base KEYED=0 RATE=0 CONNECTIONS=$CONNECTIONS ITEMS=$ITEMS \
    wrk -t2 -c"$CONNECTIONS" -d"$duration" -s bench/events/events.lua "http://127.0.0.1:$PORT" \
    | grep '^RESULT')
  accepted=$(( ($(field "$line" requests) - $(field "$line" non2xx)) * 100 ))
  bench_caught_up $PORT $TOKEN
  elapsed=$(python3 -c "print($(date +%s.%N) - $start)")
  python3 -c "print(round($accepted / $(field "$line" seconds)), round($accepted / $elapsed))"
}

PHASES=(actors unknown anonymous)
log "warming up: $WARMUP of each phase"
for p in "${PHASES[@]}"; do phase "$p" "$WARMUP" >/dev/null; done

declare -A IN=() FOLD=()
for round in $(seq 1 "$ROUNDS"); do
  order=("${PHASES[@]}")
  [ $((round % 2)) -eq 0 ] && order=(anonymous unknown actors)
  for p in "${order[@]}"; do
    log "round $round: $p, $DURATION"
    read -r IN[$round:$p] FOLD[$round:$p] < <(phase "$p" "$DURATION")
  done
done

ratio() { python3 -c "print('%.2fx' % ($1 / $2))"; }
echo
echo "Command: \`${VIEW_CAP:+VIEW_CAP=$VIEW_CAP }bench/trust-ingest.sh\` (ROUNDS=$ROUNDS, DURATION=$DURATION, WARMUP=$WARMUP, CONNECTIONS=$CONNECTIONS, ITEMS=$ITEMS, USERS=$USERS); $(nproc) cores, $(date -u +%F)."
echo
echo "Events per second accepted (202) and ingested and folded (accepted / time to caught up):"
echo
echo "| round | actors: accepted | fold | unknown users: accepted | fold | anonymous views: accepted | fold | actors / unknown (fold) | actors / anonymous views (fold) |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for round in $(seq 1 "$ROUNDS"); do
  echo "| $round | ${IN[$round:actors]} | ${FOLD[$round:actors]} | ${IN[$round:unknown]} | ${FOLD[$round:unknown]} | ${IN[$round:anonymous]} | ${FOLD[$round:anonymous]} | $(ratio ${FOLD[$round:actors]} ${FOLD[$round:unknown]}) | $(ratio ${FOLD[$round:actors]} ${FOLD[$round:anonymous]}) |"
done
echo
rows=$("${PSQL[@]}" -d $PGDB -Atc "SELECT count(*) FROM hr_user_action")
echo "hr_user_action rows at the end: $rows; actors held in the service's memory: none (each fold reads its users' rows, one query per 500)."
# What the folds recorded of their events' weights beside their records (hr_fold.weights, for
# window boards' replays), per event of the log (every phase, warm-ups included).
"${PSQL[@]}" -d $PGDB -Atc "SELECT 'fold weights recorded: ' || COALESCE(SUM(octet_length(weights)), 0)
  || ' bytes for ' || (SELECT count(*) FROM hr_event_log) || ' events in ' || count(*) || ' folds'
  FROM hr_fold WHERE source = 'log'"
