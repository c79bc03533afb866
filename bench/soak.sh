#!/usr/bin/env bash
# A bounded soak of one instance on the embedded default (no datasource, no Redis configured: H2
# under a data dir of this run's, and the embedded Redis the service starts itself), -Xmx512m: does
# anything grow under a steady, moderate load? It seeds ITEMS items of biz 'article' by AUTHORS
# authors and has USERS users follow FOLLOWS authors each (bench/soak/seed.py), then runs a mixed
# load at a fixed RATE for DURATION_MIN minutes, one one-minute wrk run per minute
# (bench/soak/mixed.lua: 20% event batches of 20 events, 80% views and 20% likes; 15% reads of each
# of the boards article-hot and article-rising; 25% item reads; 15% following-feed reads; 10%
# follows and unfollows). After each minute it records that minute's requests, answers outside 2xx
# plus socket errors (by status and request kind) and p99, from wrk; then, of the java process (its
# pid checked, not a wrapper's): the heap used after a full GC (jcmd -f: GC.run and GC.heap_info in
# one attach; actuator jvm.gc.live.data.size beside it as a cross-check), its threads
# (/proc/<pid>/status), open file descriptors (/proc/<pid>/fd), RSS and CPU time (/proc/<pid>/stat),
# and the RSS of the redis-server child it started. At the end bench/soak/report.py prints a
# Markdown table, a line per minute, and per metric whether it grows: after the warm-up (WARMUP_MIN
# minutes), the mean of the last third of the minutes against the first third's, "grows" when more
# than 10% above and the least-squares slope is positive, else "flat". (Before 2026-12-02 every
# board version published was kept for hotrank.board.cursor-ttl, and Redis's RSS grew about 23 MiB a
# minute for ten minutes here; now only versions a cursor was handed out for are kept, and this load
# pages no board with a cursor.)
#
#   bench/soak.sh                           # 30 minutes; prints the report and its path
#   DURATION_MIN=3 SKIP_BUILD=1 bench/soak.sh
#
# Environment: DURATION_MIN (30), WARMUP_MIN (2: minutes left out of the verdicts), RATE (300
# requests/s over all connections, paced, so about 250 are sent; once warm the service takes some
# 75% of one core of 2 for it), CONNECTIONS (8), ITEMS (3000), AUTHORS (100), USERS (500), FOLLOWS
# (10), PORT (18095), HEAP (512m, -Xmx), APP_ARGS (more --name=value settings for the service,
# space-separated; none), SKIP_BUILD=1. The report (report.md), the samples (minutes.tsv) and the
# service's log are kept in a directory /tmp/hotrank-soak-report.* whose path it prints; the data
# dir and the copy of the jar the service runs are deleted at the end. Everything runs on loopback
# and stops by itself, the service and its Redis included, at the end or on any exit (about
# DURATION_MIN + 2 minutes).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers
bench_no_arguments "$@"

DURATION_MIN=${DURATION_MIN:-30}
WARMUP_MIN=${WARMUP_MIN:-2}
RATE=${RATE:-300}
CONNECTIONS=${CONNECTIONS:-8}
ITEMS=${ITEMS:-3000}
AUTHORS=${AUTHORS:-100}
USERS=${USERS:-500}
USER0=1000 # the users are USER0+1..USER0+USERS, apart from the authors 1..AUTHORS
FOLLOWS=${FOLLOWS:-10}
PORT=${PORT:-18095}
HEAP=${HEAP:-512m}
read -r -a APP_ARGS <<<"${APP_ARGS:-}"
JCMD="${JAVA_HOME:+$JAVA_HOME/bin/}jcmd" # the JDK of the service's JVM, which jcmd must match

bench_require_tools wrk wrk
bench_server_jar
bench_temp_dir WORK soak
REPORT_DIR="$(mktemp -d "${TMPDIR:-/tmp}/hotrank-soak-report.XXXXXX")" # kept
# The JVM runs a copy: a build meanwhile (mvn clean, package) cannot pull the jar from under it.
cp "$JAR" "$WORK/hotrank.jar"

MINUTES="$REPORT_DIR/minutes.tsv"

# Prints the report of the minutes so far and writes it to report.md.
report() { # $1: how the run ended (Complete, or stopped early)
  local before="-" minutes
  minutes=$(($(wc -l < "$MINUTES") - 1))
  if [[ -f "$WORK/before.tsv" ]]; then
    before="after seeding, before the load: heap after GC $(cut -f10 "$WORK/before.tsv") MiB,"
    before+=" $(cut -f12 "$WORK/before.tsv") threads, $(cut -f13 "$WORK/before.tsv") open files,"
    before+=" redis RSS $(cut -f15 "$WORK/before.tsv") MiB."
  fi
  echo
  python3 bench/soak/report.py "$MINUTES" "$WARMUP_MIN" "$REPORT_DIR/report.md" \
    "Soak of one instance, embedded default (H2, embedded Redis), -Xmx$HEAP${APP_ARGS[*]:+, ${APP_ARGS[*]}}, at commit $(git rev-parse --short HEAD), $(nproc) cores, $(date -u +%F):" \
    "\`bench/soak.sh\` DURATION_MIN=$DURATION_MIN, RATE=$RATE requests/s, CONNECTIONS=$CONNECTIONS, ITEMS=$ITEMS, AUTHORS=$AUTHORS, USERS=$USERS x FOLLOWS=$FOLLOWS. $1: $minutes minute(s) sampled." \
    "$before"
  echo
  echo "Report: $REPORT_DIR/report.md (samples: minutes.tsv; the service's log: app.log)"
}

APP_PID=""
REDIS_PID=""
WRK_PID=""
minute=0
cleanup() {
  if [[ -n "$WRK_PID" ]]; then
    kill "$WRK_PID" 2>/dev/null || true
    wait "$WRK_PID" 2>/dev/null || true
  fi
  bench_stop "$APP_PID"
  # The service stops its Redis as it shuts down; should it not have, that child is ours to stop.
  if [[ -n "$REDIS_PID" ]] && [[ "$(cat "/proc/$REDIS_PID/comm" 2>/dev/null)" == redis-server ]]; then
    log "the embedded Redis (pid $REDIS_PID) outlived the service; stopping it"
    kill "$REDIS_PID" 2>/dev/null || true
  fi
  [[ -f "$WORK/app.log" ]] && cp "$WORK/app.log" "$REPORT_DIR/app.log"
  # Stopped early (a failure, ^C): the report of the minutes it has.
  if [[ ! -f "$REPORT_DIR/report.md" && -f "$MINUTES" && $(wc -l < "$MINUTES") -gt 1 ]]; then
    report "STOPPED EARLY, in minute $minute"
  fi
}
bench_on_exit cleanup

log "starting hotrank on port $PORT (embedded default, -Xmx$HEAP, data dir $WORK/data)"
(cd "$WORK" && exec "$JAVA" -Xmx"$HEAP" -jar "$WORK/hotrank.jar" --server.port="$PORT" \
  --hotrank.data-dir="$WORK/data" --hotrank.limits.enabled=false "${APP_ARGS[@]}" > app.log 2>&1) &
APP_PID=$!
# Up to 3 minutes: on 2 busy cores the embedded default took 44 s to start, near bench_await_ready's
# 60 s.
for _ in $(seq 1 180); do
  curl -sf -o /dev/null "localhost:$PORT/actuator/health/readiness" && break
  kill -0 "$APP_PID" 2>/dev/null || break
  sleep 1
done
bench_await_ready "$PORT" "$WORK/app.log"
if [[ "$(cat "/proc/$APP_PID/comm")" != java ]]; then
  log "pid $APP_PID is $(cat "/proc/$APP_PID/comm"), not the java process"
  exit 1
fi
TOKEN=$(tr -d '[:space:]' < "$WORK/data/admin-token")
BASE="http://127.0.0.1:$PORT"

# The embedded redis-server: the java process's child of that name (never the shared one).
redis_pid() { pgrep -P "$APP_PID" -x redis-server | head -n 1; }
REDIS_PID=$(redis_pid)
if [[ -z "$REDIS_PID" ]]; then
  log "no redis-server child of the service (pid $APP_PID)"
  exit 1
fi
log "service pid $APP_PID, embedded Redis pid $REDIS_PID"

log "seeding $ITEMS items by $AUTHORS authors; $USERS users follow $FOLLOWS authors each"
python3 bench/soak/seed.py "$PORT" "$ITEMS" "$AUTHORS" "$USER0" "$USERS" "$FOLLOWS"
# article-hot is a batch board computed every minute on the minute: until then it answers 503.
# Compute it now (an operator call), and wait until it answers.
for _ in $(seq 1 90); do
  curl -sf -o /dev/null -XPOST -H "Authorization: Bearer $TOKEN" \
    "$BASE/api/v1/admin/boards/article-hot/recompute?reason=soak" || true
  curl -sf -o /dev/null "$BASE/api/v1/boards/article-hot" && break
  sleep 1
done
curl -sf -o /dev/null "$BASE/api/v1/boards/article-hot" || { log "article-hot never answered"; exit 1; }

# CPU time of the java process so far, in clock ticks (user + system, /proc/<pid>/stat).
cpu_ticks() { awk '{print $14 + $15}' "/proc/$APP_PID/stat"; }
rss_mib() { # $1: pid; VmRSS in MiB, empty if the process is gone
  awk '/^VmRSS:/ {printf "%.1f", $2 / 1024}' "/proc/$1/status" 2>/dev/null || true
}
# One minute's samples of the java process and its Redis, tab-separated: heap used after a full GC
# (MiB, jcmd: the heap's lines of GC.heap_info, Metaspace apart), the same from the actuator
# (jvm.gc.live.data.size, a cross-check), threads, open file descriptors, java RSS, redis RSS.
# GC.run and GC.heap_info go in one attach (jcmd -f): the idle service allocates some 25 MB/s
# (its jobs run every second), so a second jcmd, half a second later, would read 10-30 MB more.
printf 'GC.run\nGC.heap_info\n' > "$WORK/jcmd-gc"
sample() {
  local heap live threads fds
  heap=$("$JCMD" "$APP_PID" -f "$WORK/jcmd-gc" | grep -v -e Metaspace -e 'class space' \
    | grep -oP 'total.*used \K[0-9]+(?=K)' | awk '{s += $1} END {printf "%.1f", s / 1024}')
  live=$(curl -sf -H "Authorization: Bearer $TOKEN" "$BASE/actuator/metrics/jvm.gc.live.data.size" \
    | grep -oP '"value":\K[0-9.eE+-]+' | awk '{printf "%.1f", $1 / 1048576}')
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$APP_PID/status")
  fds=$(find "/proc/$APP_PID/fd" -mindepth 1 -maxdepth 1 | wc -l)
  REDIS_PID=$(redis_pid)
  printf '%s\t%s\t%s\t%s\t%s\t%s' "$heap" "${live:-NaN}" "$threads" "$fds" "$(rss_mib "$APP_PID")" \
    "$(if [[ -n "$REDIS_PID" ]]; then rss_mib "$REDIS_PID"; else echo NaN; fi)"
}

printf 'minute\trequests\tseconds\tnon2xx\terrors\tp50_ms\tp99_ms\tmax_ms\tfailures\theap_mib\tlive_data_mib\tthreads\tfds\tjava_rss_mib\tredis_rss_mib\tjava_cpu_pct\n' > "$MINUTES"
printf '0\t0\t0\t0\t0\t0\t0\t0\t-\t%s\n' "$(sample)" > "$WORK/before.tsv" # after seeding, not in the table
log "before the load: $(cut -f10- "$WORK/before.tsv" | tr '\t' ' ') (heap, live data, threads, fds, java RSS, redis RSS; MiB)"

log "$RATE requests/s for $DURATION_MIN minutes ($CONNECTIONS connections), one wrk run per minute"
for minute in $(seq 1 "$DURATION_MIN"); do
  c0=$(cpu_ticks); t0=$(date +%s.%N)
  ITEMS=$ITEMS AUTHORS=$AUTHORS USERS=$USERS USER0=$USER0 RATE=$RATE CONNECTIONS=$CONNECTIONS \
    wrk -t2 -c"$CONNECTIONS" -d60s -s bench/soak/mixed.lua "$BASE" > "$WORK/wrk-$minute.txt" 2>&1 &
  WRK_PID=$!
  wait "$WRK_PID" || { log "wrk failed in minute $minute"; cat "$WORK/wrk-$minute.txt"; exit 1; }
  WRK_PID=""
  if ! kill -0 "$APP_PID" 2>/dev/null; then
    log "the service died in minute $minute"; tail -n 50 "$WORK/app.log"; exit 1
  fi
  c1=$(cpu_ticks); t1=$(date +%s.%N)
  cpu=$(awk -v c="$((c1 - c0))" -v hz="$(getconf CLK_TCK)" -v t0="$t0" -v t1="$t1" \
    'BEGIN {printf "%.0f", 100 * c / hz / (t1 - t0)}')
  out=$(grep '^RESULT' "$WORK/wrk-$minute.txt") || { log "no RESULT from wrk"; cat "$WORK/wrk-$minute.txt"; exit 1; }
  row="$minute"
  for name in requests seconds non2xx errors p50_ms p99_ms max_ms failures; do
    row+=$'\t'"$(field "$out" "$name")"
  done
  samples=$(sample)
  if [[ "$samples" =~ (^|$'\t')($'\t'|$) ]]; then
    log "a sample of minute $minute is missing: $samples"; exit 1
  fi
  row+=$'\t'"$samples"$'\t'"$cpu"
  echo "$row" >> "$MINUTES"
  log "minute $minute: $(echo "$out" | cut -d' ' -f2-) | $(cut -f10- <<<"$row" | tr '\t' ' ') (+ CPU %)"
done

bench_stop "$APP_PID"
APP_PID=""

report "Complete"
