#!/usr/bin/env bash
# Where HTTP ingest spends its CPU, on one source: one service on PostgreSQL (and, for Kafka, a
# one-node broker of its own), 10,000 items, 30 s of unpaced batches of 100 events to warm up, then
# 20 s more under a JFR recording. Prints the accepted rate, the CPU seconds of the service, the
# broker, PostgreSQL and Redis over those 20 s (/proc/<pid>/stat), and the methods the JFR execution
# samples were in (self, and inclusive for hotrank, Kafka's producer, Jackson and Tomcat frames).
# A tool for finding the next cost to cut, not a comparison: its figures go nowhere by themselves.
#
#   SOURCE=kafka bench/ingest-profile.sh      # or SOURCE=log; KEYED=1 for keyed batches
#
# Environment: SOURCE (kafka), KEYED (0), PORT (18196), KAFKA_PORT (19292), SKIP_BUILD=1. Uses the
# PostgreSQL database hotrank_prof (dropped and created again) and the Redis prefix prof-<pid>-:
# (deleted at the end); everything stops by itself.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers
bench_no_arguments "$@"
SOURCE=${SOURCE:-kafka}
PORT=${PORT:-18196}
KAFKA_PORT=${KAFKA_PORT:-19292}
HEAP=1g; TOKEN=bench-token; PGDB=hotrank_prof; PREFIX="prof-$$"
bench_require_tools "wrk redis-tools postgresql-client" wrk redis-cli psql
bench_redis_url "redis://127.0.0.1:6379"
bench_temp_dir WORK prof
bench_server_jar
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT" -U "$HOTRANK_BENCH_PGUSER")
APP=""; BROKER_PID=""
cleanup() { bench_stop "$APP"; bench_stop "$BROKER_PID"; bench_redis_delete_prefix "$PREFIX-"; }
bench_on_exit cleanup
ARGS=()
if [ "$SOURCE" = kafka ]; then
  bench_kafka_classpath "$WORK"; bench_kafka_broker "$WORK" "$KAFKA_PORT" 1g
  ARGS=(--hotrank.ingest.source=kafka --spring.kafka.bootstrap-servers="$BENCH_BOOTSTRAP" --hotrank.ingest.kafka.topic="$PREFIX.events" --hotrank.ingest.kafka.group="$PREFIX-fold")
fi
"${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS $PGDB" -c "CREATE DATABASE $PGDB"
(cd "$WORK" && exec "$JAVA" -Xms$HEAP -Xmx$HEAP -jar "$JAR" --server.port=$PORT \
    --spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/$PGDB" \
    --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url="redis://127.0.0.1:6379" \
    --hotrank.redis.key-prefix="$PREFIX-:" --hotrank.admin.token=$TOKEN \
    --hotrank.limits.enabled=false --logging.level.root=WARN "${EVENT_BOARDS[@]}" "${ARGS[@]}" >app.log 2>&1) &
APP=$!
bench_await_ready "$PORT" "$WORK/app.log"
python3 bench/events/seed.py "$PORT" 10000
KEYED=${KEYED:-0} RATE=0 CONNECTIONS=16 ITEMS=10000 wrk -t2 -c16 -d30s -s bench/events/events.lua "http://127.0.0.1:$PORT" | grep RESULT
bench_caught_up "$PORT" $TOKEN
ticks() { for pid in "$@"; do awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null; done | awk '{s += $1} END {print s}'; }
c0="$(ticks $APP) $(ticks $BROKER_PID) $(ticks $(pgrep -x postgres)) $(ticks $(pgrep -x redis-server))"
"${JAVA_HOME:+$JAVA_HOME/bin/}jcmd" $APP JFR.start name=p settings=profile filename=$WORK/p.jfr >/dev/null
KEYED=${KEYED:-0} RATE=0 CONNECTIONS=16 ITEMS=10000 wrk -t2 -c16 -d20s -s bench/events/events.lua "http://127.0.0.1:$PORT" | grep RESULT
"${JAVA_HOME:+$JAVA_HOME/bin/}jcmd" $APP JFR.stop name=p >/dev/null
c1="$(ticks $APP) $(ticks $BROKER_PID) $(ticks $(pgrep -x postgres)) $(ticks $(pgrep -x redis-server))"
echo "cpu ticks before: $c0 after: $c1 (app broker pg redis)"
"${JAVA_HOME:+$JAVA_HOME/bin/}jfr" print --events jdk.ExecutionSample $WORK/p.jfr > $WORK/samples.txt
python3 - "$WORK/samples.txt" <<'PY'
import sys,re,collections
top=collections.Counter(); incl=collections.Counter(); n=0
cur=[]
for line in open(sys.argv[1]):
    line=line.strip()
    if line.startswith('jdk.ExecutionSample'):
        if cur:
            n+=1; top[cur[0]]+=1
            for f in set(cur): incl[f]+=1
        cur=[]
    m=re.match(r'([\w$.<>/]+)\(.*\)\s+line:',line)
    if m: cur.append(m.group(1))
if cur:
    n+=1; top[cur[0]]+=1
    for f in set(cur): incl[f]+=1
print("samples",n)
print("--- top self")
for f,c in top.most_common(25): print("%5.1f%% %s"%(100*c/n,f))
print("--- inclusive (hotrank / kafka / jackson / spring frames)")
for f,c in incl.most_common(400):
    if re.search(r'io\.hotrank|kafka\.clients\.producer|jackson|tomcat\.util\.net|EventValidator',f): print("%5.1f%% %s"%(100*c/n,f))
PY
