#!/usr/bin/env bash
# CPU seconds per event at a paced rate on PostgreSQL, for docs/capacity.md: the user+system time
# of hotrank's JVM, of all postgres processes and of all redis-server processes, read from
# /proc/<pid>/stat before and after a paced wrk run of bench/events/events.lua. Other users of the
# same PostgreSQL or Redis count too, so those two are upper bounds.
#
#   bench/events-cpu.sh              # RATE=200 batches/s (20k events/s), 20 s
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers
RATE=${RATE:-200}
DURATION=${DURATION:-20s}
PORT=${PORT:-18091}
DB=hotrank_cpu_events
bench_server_jar
psql -X -q -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT" -U "$HOTRANK_BENCH_PGUSER" \
  -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
WORK=$(mktemp -d /tmp/hotrank-cpu-XXXXXX)
"$JAVA" -Xmx1g -jar "$JAR" --server.port=$PORT --hotrank.data-dir="$WORK" \
  --spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/$DB" \
  --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url=redis://127.0.0.1:6379 \
  --hotrank.redis.key-prefix="cpu-$$:" --hotrank.admin.token=t --hotrank.bizes=probe --hotrank.limits.enabled=false --logging.level.root=WARN > "$WORK/app.log" 2>&1 &
APP=$!
bench_redis_url redis://127.0.0.1:6379
bench_on_exit 'bench_stop "$APP"; bench_redis_delete_prefix "cpu-$$:"'
bench_await_ready "$PORT" "$WORK/app.log"
python3 bench/events/seed.py $PORT 10000
ticks() { for pid in "$@"; do awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null; done | awk '{s += $1} END {print s / 100}'; }
cpu() { echo "$(ticks $APP) $(ticks $(pgrep -x postgres)) $(ticks $(pgrep -x redis-server))"; }
read -r j0 p0 r0 <<< "$(cpu)"
result=$(RATE=$RATE CONNECTIONS=16 ITEMS=10000 wrk -t2 -c16 -d"$DURATION" -s bench/events/events.lua \
  "http://127.0.0.1:$PORT" | grep '^RESULT')
sleep 3 # the fold catches up
read -r j1 p1 r1 <<< "$(cpu)"
events=$(( $(echo "$result" | grep -oP 'requests=\K[0-9]+') * 100 ))
python3 - "$events" "$j0" "$j1" "$p0" "$p1" "$r0" "$r1" <<'PY'
import sys
n = int(sys.argv[1]); j0, j1, p0, p1, r0, r1 = map(float, sys.argv[2:])
print("events %d" % n)
for name, a, b in (("hotrank", j0, j1), ("postgres", p0, p1), ("redis", r0, r1)):
    print("%-9s %6.1f s  %5.1f us/event" % (name, b - a, (b - a) / n * 1e6))
PY
