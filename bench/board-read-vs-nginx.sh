#!/usr/bin/env bash
# Board reads: hotrank vs nginx serving the same bytes, side by side, on loopback.
#
#   bench/board-read-vs-nginx.sh            # writes the section of BENCHMARKS.md
#   ROUNDS=3 DURATION=20s CONNECTIONS=64 bench/board-read-vs-nginx.sh
#   SKIP_BUILD=1 bench/board-read-vs-nginx.sh   # with the jar built before
#   SEGMENT=hot bench/board-read-vs-nginx.sh    # a segment board (article-rising-by-tag, tag
#                                               # bench) from the local tier
#   SEGMENT=cold bench/board-read-vs-nginx.sh   # the same segment with no local tier to hold it
#                                               # (segments-local-bytes=1B): every read from Redis
#
# Starts hotrank on the embedded default with static export on, seeds a board, recomputes it,
# and points nginx at the exported article-hot.json, which holds exactly the bytes hotrank
# answers to GET /api/v1/boards/article-hot. Then wrk alternates between the two. Everything
# runs on loopback and stops by itself.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-15s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
HOTRANK_PORT=${HOTRANK_PORT:-18080}
NGINX_PORT=${NGINX_PORT:-18081}
HEAP=${HEAP:-512m}
SEGMENT=${SEGMENT:-}                # hot | cold: read a segment board (see above)
PATH_UNDER_TEST=/api/v1/boards/article-hot
if [ -n "$SEGMENT" ]; then
  PATH_UNDER_TEST=/api/v1/boards/article-rising-by-tag/segments/bench
  VARIANT=${VARIANT:-"a $SEGMENT segment board"}
  if [ "$SEGMENT" = cold ]; then
    HOTRANK_ARGS="${HOTRANK_ARGS:-} --hotrank.board.segments-local-bytes=1B"
  fi
fi
REPORT=${REPORT:-BENCHMARKS.md}
HOTRANK_ARGS=${HOTRANK_ARGS:-}      # extra --name=value arguments, e.g. --hotrank.board.fast-path=false
NGINX_WORKERS=${NGINX_WORKERS:-auto}
VARIANT=${VARIANT:-}                # appended to the report heading, to keep several variants
READ_PORT=${READ_PORT:-}            # set: measure hotrank's Netty read port (hotrank.read-server.port)

bench_require_tools "wrk nginx-light" wrk nginx
bench_server_jar

WORK=$(mktemp -d /tmp/hotrank-readbench-XXXXXX)
chmod 755 "$WORK" # nginx workers run as another user
HOTRANK_PID=""
cleanup() {
  bench_stop "$HOTRANK_PID"
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
}
bench_on_exit cleanup

echo "bench: starting hotrank (embedded default, data in $WORK)"
(cd "$WORK" && exec "$JAVA" -Xms$HEAP -Xmx$HEAP -jar "$JAR" \
  --server.port=$HOTRANK_PORT --hotrank.admin.token=bench-token \
  --hotrank.export.dir="$WORK/export" --hotrank.board.scheduling=false \
  --logging.level.root=WARN ${READ_PORT:+--hotrank.read-server.port=$READ_PORT} $HOTRANK_ARGS \
  > "$WORK/hotrank.log" 2>&1) &
HOTRANK_PID=$!
bench_await_ready "$HOTRANK_PORT" "$WORK/hotrank.log"

echo "bench: seeding 300 items and their interactions"
NOW=$(date -u +%s)
for i in $(seq 1 300); do
  created=$(date -u -d "@$((NOW - (i * 997) % 500000))" +%Y-%m-%dT%H:%M:%SZ)
  curl -sf -XPOST "localhost:$HOTRANK_PORT/api/v1/items" -H 'Content-Type: application/json' \
    -d "{\"biz\":\"article\",\"id\":$i,\"authorId\":$((i % 37 + 1)),\"title\":\"Benchmark article number $i about hot lists\",\"tags\":[\"bench\"],\"createdAt\":\"$created\"}" >/dev/null
done
python3 - "$HOTRANK_PORT" <<'PY'
import json, random, sys, urllib.request
port = sys.argv[1]
random.seed(7)
types = ["like"] * 5 + ["view"] * 20 + ["comment", "share", "collect"]
for _ in range(20):
    events = [{"biz": "article", "itemId": min(300, int(random.paretovariate(1.1))), "type": random.choice(types)}
              for _ in range(1000)]
    req = urllib.request.Request(f"http://localhost:{port}/api/v1/events", json.dumps({"events": events}).encode(),
                                 {"Content-Type": "application/json"})
    urllib.request.urlopen(req).read()
PY
curl -sf -XPOST "localhost:$HOTRANK_PORT/api/v1/admin/boards/article-hot/recompute" -H 'Authorization: Bearer bench-token' >/dev/null
SERVED=$WORK/export/boards/article-hot.json
if [ -n "$SEGMENT" ]; then
  # The live family publishes its segments itself; the run waits for the events' folds first.
  curl -sf -XPOST "localhost:$HOTRANK_PORT/api/v1/admin/boards/article-rising-by-tag/recompute" -H 'Authorization: Bearer bench-token' >/dev/null
  SERVED=$WORK/segment.json # the bytes hotrank answers, for nginx to serve
  curl -sf "localhost:$HOTRANK_PORT$PATH_UNDER_TEST" -o "$SERVED"
  chmod 644 "$SERVED"
fi

cat > "$WORK/nginx.conf" <<NGINX
worker_processes $NGINX_WORKERS;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    location = $PATH_UNDER_TEST {
      default_type application/json;
      alias $SERVED;
    }
  }
}
NGINX
nginx -c "$WORK/nginx.conf"
sleep 0.5

MEASURED_PORT=${READ_PORT:-$HOTRANK_PORT}
curl -s "localhost:$MEASURED_PORT$PATH_UNDER_TEST" -o "$WORK/from-hotrank.json"
curl -s "localhost:$NGINX_PORT$PATH_UNDER_TEST" -o "$WORK/from-nginx.json"
cmp "$WORK/from-hotrank.json" "$WORK/from-nginx.json"
BYTES=$(stat -c %s "$WORK/from-hotrank.json")
echo "bench: both serve the same $BYTES bytes"

cpu_ticks() { # total utime+stime of the given pids, in clock ticks
  local total=0
  for pid in "$@"; do
    [ -r "/proc/$pid/stat" ] || continue
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
  done
  echo $total
}
nginx_pids() { pgrep -f "nginx: (master|worker)" | tr '\n' ' '; }
TICK=$(getconf CLK_TCK)

run_wrk() { # run_wrk <name> <port> <pids...>: appends a line to $WORK/results
  local name=$1 port=$2; shift 2
  local before after out
  before=$(cpu_ticks "$@")
  out=$(wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency "http://127.0.0.1:$port$PATH_UNDER_TEST")
  after=$(cpu_ticks "$@")
  local rps p50 p99 requests
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  requests=$(echo "$out" | awk '/requests in/ {print $1}')
  p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
  p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
  local cpu_us
  cpu_us=$(awk -v t=$((after - before)) -v hz=$TICK -v n=$requests 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')
  echo "$name $rps $p50 $p99 $cpu_us $requests" | tee -a "$WORK/results"
  if echo "$out" | grep -q "Non-2xx"; then echo "bench: $name answered non-2xx:"; echo "$out"; exit 1; fi
}

echo "bench: warming up hotrank (JIT) for 20s"
wrk -t$THREADS -c$CONNECTIONS -d20s "http://127.0.0.1:$MEASURED_PORT$PATH_UNDER_TEST" >/dev/null
wrk -t$THREADS -c$CONNECTIONS -d5s "http://127.0.0.1:$NGINX_PORT$PATH_UNDER_TEST" >/dev/null

: > "$WORK/results"
for round in $(seq 1 "$ROUNDS"); do
  echo "bench: round $round of $ROUNDS"
  run_wrk nginx $NGINX_PORT $(nginx_pids)
  run_wrk hotrank $MEASURED_PORT $HOTRANK_PID
done

HEAP_USED=$(curl -s -H 'Authorization: Bearer bench-token' "localhost:$HOTRANK_PORT/actuator/metrics/jvm.memory.used?tag=area:heap" | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["measurements"][0]["value"]/1048576,1))')
GC_PAUSES=$(curl -s -H 'Authorization: Bearer bench-token' "localhost:$HOTRANK_PORT/actuator/metrics/jvm.gc.pause" | python3 -c 'import json,sys; m={x["statistic"]:x["value"] for x in json.load(sys.stdin)["measurements"]}; print("%d pauses, %.2f s total" % (m.get("COUNT",0), m.get("TOTAL_TIME",0)))' 2>/dev/null || echo "n/a")
SOURCE=$(curl -sI "localhost:$MEASURED_PORT$PATH_UNDER_TEST" | awk -F': ' 'tolower($1)=="x-hotrank-source" {print $2}' | tr -d '\r')

python3 - "$WORK/results" "$REPORT" "$BYTES" "$HEAP" "$HEAP_USED" "$GC_PAUSES" "$SOURCE" \
    "$ROUNDS" "$DURATION" "$CONNECTIONS" "$THREADS" "$VARIANT" "$HOTRANK_ARGS" "$NGINX_WORKERS" \
    "$READ_PORT" "$PATH_UNDER_TEST" "$SEGMENT" <<'PY'
import re, statistics, subprocess, sys, datetime, platform
results, report, size, heap, heap_used, gc, source, rounds, duration, conns, threads, variant, extra, workers, read_port, path, segment = sys.argv[1:]
env_prefix = " ".join(x for x in [f"ROUNDS={rounds}", f"DURATION={duration}", f"CONNECTIONS={conns}",
    f"NGINX_WORKERS={workers}" if workers != "auto" else "",
    f"READ_PORT={read_port}" if read_port else "",
    f"SEGMENT={segment}" if segment else "",
    f"HOTRANK_ARGS='{extra}'" if extra else "", f"VARIANT='{variant}'" if variant else ""] if x)
def ms(v):
    m = re.match(r"([\d.]+)(us|ms|s)$", v)
    n, u = float(m.group(1)), m.group(2)
    return n / 1000 if u == "us" else n * 1000 if u == "s" else n
rows = {"nginx": [], "hotrank": []}
for line in open(results):
    name, rps, p50, p99, cpu, n = line.split()
    rows[name].append((float(rps), ms(p50), ms(p99), float(cpu)))
def med(name, i):
    return statistics.median(r[i] for r in rows[name])
cpu_model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
java = subprocess.run(["bash", "-c", "${JAVA_HOME:+$JAVA_HOME/bin/}java -version 2>&1 | head -n 1"], capture_output=True, text=True).stdout.strip()
nginx_v = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip()
wrk_v = subprocess.run(["bash", "-c", "wrk -v 2>&1 | head -n 1"], capture_output=True, text=True).stdout.strip()
h, n = "hotrank", "nginx"
lines = [
    "## Board read: hotrank vs nginx serving the same bytes" + (f" ({variant})" if variant else ""),
    "",
    f"- Date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M')} UTC; machine: {nproc} CPUs ({cpu_model}); wrk, both servers and nothing else on the same machine, over loopback",
    f"- Command (from the repository root): `{env_prefix} bench/board-read-vs-nginx.sh`",
    f"- Payload: `GET {path}` (default parameters), {size} bytes; nginx serves the same bytes (the statically exported board, or the segment board as hotrank answered it), checked byte-identical (`cmp`) before measuring",
    f"- wrk: `wrk -t{threads} -c{conns} -d{duration} --latency`, keep-alive; {rounds} rounds alternating nginx then hotrank after a 20 s hotrank warm-up; medians of the rounds",
    f"- hotrank: {java}, `-Xms{heap} -Xmx{heap}`{' ' + extra if extra else ''}, embedded default, {'its Netty read port (`hotrank.read-server.port`)' if read_port else 'Tomcat with virtual threads, the servlet-filter fast path'}, answers from the local snapshot (`X-Hotrank-Source: {source}`); {nginx_v}, `worker_processes {workers}`, `access_log off`; {wrk_v}",
    "",
    "| server | requests/s | p50 | p99 | CPU per request |",
    "|---|---:|---:|---:|---:|",
    f"| nginx | {med(n,0):,.0f} | {med(n,1):.2f} ms | {med(n,2):.2f} ms | {med(n,3):.1f} µs |",
    f"| hotrank | {med(h,0):,.0f} | {med(h,1):.2f} ms | {med(h,2):.2f} ms | {med(h,3):.1f} µs |",
    f"| **hotrank / nginx** | **{med(h,0)/med(n,0):.2f}x** | {med(h,1)/med(n,1):.2f}x | **{med(h,2)/med(n,2):.2f}x** | {med(h,3)/med(n,3):.2f}x |",
    "",
    "Rounds (requests/s, p99): " + "; ".join(f"nginx {a[0]:,.0f} / {a[2]:.2f} ms, hotrank {b[0]:,.0f} / {b[2]:.2f} ms" for a, b in zip(rows[n], rows[h])),
    "",
    f"- hotrank heap after the run: {heap_used} MiB used of {heap}; GC during the whole run: {gc}",
    "- CPU per request: the server processes' user+system CPU time (`/proc/<pid>/stat`) over a run, divided by the requests wrk completed in it.",
    f"- Targets (issue 3): throughput ≥ 0.8x nginx: {'met' if med(h,0)/med(n,0) >= 0.8 else 'not met'}; p99 ≤ 2x nginx: {'met' if med(h,2)/med(n,2) <= 2 else 'not met'}.",
    "",
]
sys.path.insert(0, "bench")
from report import write_section
write_section(report, lines)
PY
