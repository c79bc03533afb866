#!/usr/bin/env bash
# Plain ingest on the Kafka source under several settings (issue 41's diagnostic): for each
# argument, a service on hotrank.ingest.source=kafka with those settings added (a fresh PostgreSQL
# database, topic and consumer group each), 30 s of warm-up, then two 20 s phases of unpaced
# batches of 100 events, the folder caught up after each; one one-node KRaft broker for the run.
#
#   bench/kafka-settings.sh "--hotrank.ingest.writers=4" "--hotrank.ingest.writers=1"
#
# Environment: CONNECTIONS (16), ITEMS (10000), PORT (18296), KAFKA_PORT (19292), REDIS_URL
# (redis://127.0.0.1:6379), HOTRANK_BENCH_PG*
# (bench/lib.sh), SKIP_BUILD=1. Uses the PostgreSQL database hotrank_bench_kafka_settings and the
# Redis key prefix kafka-settings-<pid>-<n>: (deleted at the end). Loopback only; stops by itself.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers
[ $# -gt 0 ] || { echo "usage: $0 '<settings>'..." >&2; exit 2; }
CONNECTIONS=${CONNECTIONS:-16}
ITEMS=${ITEMS:-10000}
PORT=${PORT:-18296}
KAFKA_PORT=${KAFKA_PORT:-19292}
PREFIX="kafka-settings-$$"
TOKEN=bench-token
PGDB=hotrank_bench_kafka_settings
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
bench_redis_url "$REDIS_URL"
bench_require_tools "wrk redis-tools postgresql-client" wrk redis-cli psql
bench_require_redis "$REDIS_HOST" "$REDIS_PORT"
bench_require_postgres
bench_temp_dir WORK kafka-settings
bench_server_jar
APP=""
BROKER_PID=""
cleanup() {
  bench_stop "$APP"
  bench_stop "$BROKER_PID"
  bench_redis_delete_prefix "$PREFIX-"
}
bench_on_exit cleanup
bench_kafka_classpath "$WORK"
bench_kafka_broker "$WORK" "$KAFKA_PORT" 1g

echo
echo "Command: \`bench/kafka-settings.sh $*\`; $(nproc) cores, $(date -u +%F)."
echo
echo "| settings | phase 1 events/s | phase 2 events/s |"
echo "| --- | --- | --- |"
n=0
for settings in "$@"; do
  n=$((n + 1))
  psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT" -U "$HOTRANK_BENCH_PGUSER" \
    -d postgres -c "DROP DATABASE IF EXISTS $PGDB" -c "CREATE DATABASE $PGDB"
  # One argument may hold several settings, split on blanks (and never globbed: boards[0]...).
  read -r -a args <<< "$settings"
  (cd "$WORK" && exec "$JAVA" -Xms1g -Xmx1g -jar "$JAR" --server.port=$PORT \
    --spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/$PGDB" \
    --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url="$REDIS_URL" \
    --hotrank.redis.key-prefix="$PREFIX-$n:" --hotrank.admin.token=$TOKEN \
    --hotrank.limits.enabled=false --logging.level.root=WARN "${EVENT_BOARDS[@]}" \
    --hotrank.ingest.source=kafka --spring.kafka.bootstrap-servers="$BENCH_BOOTSTRAP" \
    --hotrank.ingest.kafka.topic="$PREFIX-$n.events" --hotrank.ingest.kafka.group="$PREFIX-$n-fold" \
    "${args[@]}" >app.log 2>&1) &
  APP=$!
  bench_await_ready $PORT "$WORK/app.log"
  python3 bench/events/seed.py $PORT "$ITEMS"
  bench_events_rate $PORT 0 30s >/dev/null
  bench_caught_up $PORT $TOKEN
  first=$(bench_events_rate $PORT 0 20s)
  bench_caught_up $PORT $TOKEN
  second=$(bench_events_rate $PORT 0 20s)
  echo "| \`$settings\` | $first | $second |"
  bench_stop "$APP"
  APP=""
done
