#!/usr/bin/env bash
# Board controls: (a) board reads with no controls vs with 3 pins, 10 boosts and 10 blocks active on
# the same board, in the same run; (b) two instances on one Redis and one PostgreSQL database: the
# time from a control's PUT on instance A to its new version served by instance B.
#
#   bench/board-controls.sh                       # writes the section of BENCHMARKS.md
#   ROUNDS=3 DURATION=15s CONNECTIONS=64 N=200 bench/board-controls.sh
#   ROUNDS=1 DURATION=2s N=10 REPORT=/dev/null SKIP_BUILD=1 bench/board-controls.sh   # smoke test
#
# Starts two instances of the built jar on PostgreSQL ($HOTRANK_BENCH_PG*, database
# hotrank_bench_controls) and REDIS_URL under a key prefix of this run's (deleted at the end; the
# Redis is never flushed), seeds 300 items and their events, computes article-hot once (the
# scheduled computations are off: only control changes publish), then measures. (a) alternates
# wrk runs on A without and with the controls; (b) changes a boost N times on A and polls B's
# GET /api/v1/boards/article-hot as fast as one connection allows until its ETag changes.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-15s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
N=${N:-200}
PORT_A=${PORT_A:-18090}
PORT_B=${PORT_B:-18091}
HEAP=${HEAP:-512m}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
REPORT=${REPORT:-BENCHMARKS.md}
BOARD=article-hot
PGDB=hotrank_bench_controls
PREFIX="ctlbench-$$:"
TOKEN=bench-token

bench_require_tools "wrk redis-tools postgresql-client" wrk redis-cli psql
bench_redis_url "$REDIS_URL"
bench_require_redis "$REDIS_HOST" "$REDIS_PORT"
bench_require_postgres
bench_postgres_database "$PGDB"
bench_server_jar
bench_temp_dir WORK controls

PID_A=""
PID_B=""
cleanup() {
  bench_stop "$PID_A"
  bench_stop "$PID_B"
  bench_redis_delete_prefix "$PREFIX"
}
bench_on_exit cleanup

start() { # $1: name, $2: port; sets the pid in PID_<name>
  (cd "$WORK" && exec "$JAVA" -Xms$HEAP -Xmx$HEAP -jar "$JAR" --server.port="$2" \
    --spring.datasource.url="jdbc:postgresql://$HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT/$PGDB" \
    --spring.datasource.username="$HOTRANK_BENCH_PGUSER" --spring.data.redis.url="$REDIS_URL" \
    --hotrank.redis.key-prefix="$PREFIX" --hotrank.admin.token=$TOKEN \
    --hotrank.board.scheduling=false --hotrank.limits.enabled=false --logging.level.root=WARN \
    > "$WORK/$1.log" 2>&1) &
  printf -v "PID_$1" '%s' $!
}
log "starting instances A (:$PORT_A) and B (:$PORT_B)"
start A "$PORT_A"
bench_await_ready "$PORT_A" "$WORK/A.log"
start B "$PORT_B"
bench_await_ready "$PORT_B" "$WORK/B.log"

log "seeding 300 items and their interactions"
python3 - "$PORT_A" <<'PY'
import json, random, sys, time, urllib.request, urllib.error
port = sys.argv[1]
def call(method, path, body):
    req = urllib.request.Request(f"http://localhost:{port}{path}", json.dumps(body).encode(),
                                 {"Content-Type": "application/json"}, method=method)
    try:
        urllib.request.urlopen(req).read()
    except urllib.error.HTTPError as e:
        if e.code != 409:  # the item exists from an earlier run
            raise
now = time.time()
for i in range(1, 301):
    created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - (i * 997) % 500000))
    call("POST", "/api/v1/items", {"biz": "article", "id": i, "authorId": i % 37 + 1,
         "title": f"Benchmark article number {i} about hot lists", "tags": ["bench"], "createdAt": created})
random.seed(7)
types = ["like"] * 5 + ["view"] * 20 + ["comment", "share", "collect"]
for _ in range(20):
    call("POST", "/api/v1/events", {"events": [
        {"biz": "article", "itemId": min(300, int(random.paretovariate(1.1))), "type": random.choice(types)}
        for _ in range(1000)]})
PY
curl -sf -XPOST "localhost:$PORT_A/api/v1/admin/events/fold" -H "Authorization: Bearer $TOKEN" >/dev/null
curl -sf -XPOST "localhost:$PORT_A/api/v1/admin/boards/$BOARD/recompute" -H "Authorization: Bearer $TOKEN" >/dev/null

controls() { # $1: on or off
  python3 - "$PORT_A" "$BOARD" "$TOKEN" "$1" <<'PY'
import json, sys, urllib.request
port, board, token, mode = sys.argv[1:]
def call(method, item, body=None):
    req = urllib.request.Request(f"http://localhost:{port}/api/v1/admin/boards/{board}/controls/{item}",
                                 json.dumps(body).encode() if body else None,
                                 {"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
                                 method=method)
    urllib.request.urlopen(req).read()
items = range(1, 24)
if mode == "off":
    for item in items:
        call("DELETE", item)
else:
    for n, item in enumerate(items):
        if n < 3:
            call("PUT", item, {"action": "pin", "position": n + 1, "reason": "bench"})
        elif n < 13:
            call("PUT", item, {"action": "boost", "factor": 1.5 + n, "reason": "bench"})
        else:
            call("PUT", item, {"action": "block", "reason": "bench"})
PY
}

run_wrk() { # $1: name: appends "name rps p50 p99" to $WORK/results
  local out
  out=$(wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency "http://127.0.0.1:$PORT_A/api/v1/boards/$BOARD")
  if echo "$out" | grep -q "Non-2xx"; then echo "$out"; exit 1; fi
  echo "$1 $(echo "$out" | awk '/Requests\/sec/ {print $2}') $(echo "$out" | awk '$1 == "50%" {print $2}') $(echo "$out" | awk '$1 == "99%" {print $2}')" \
    | tee -a "$WORK/results"
}

log "warming up A (JIT) for 10s"
wrk -t$THREADS -c$CONNECTIONS -d10s "http://127.0.0.1:$PORT_A/api/v1/boards/$BOARD" >/dev/null
: > "$WORK/results"
for round in $(seq 1 "$ROUNDS"); do
  log "reads, round $round of $ROUNDS"
  controls off
  run_wrk none
  controls on
  run_wrk controlled
done
controls off

log "propagation: $N control changes on A, watched on B"
python3 - "$PORT_A" "$PORT_B" "$BOARD" "$TOKEN" "$N" > "$WORK/propagation" <<'PY'
import http.client, json, statistics, sys, time
port_a, port_b, board, token, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
a = http.client.HTTPConnection("127.0.0.1", int(port_a))
b = http.client.HTTPConnection("127.0.0.1", int(port_b))
def etag():
    b.request("HEAD", f"/api/v1/boards/{board}")
    r = b.getresponse(); r.read()
    return r.getheader("ETag")
times = []
for i in range(n):
    before = etag()
    body = json.dumps({"action": "boost", "factor": 1.5 + i % 7, "reason": f"bench {i}"})
    start = time.perf_counter()
    a.request("PUT", f"/api/v1/admin/boards/{board}/controls/42", body,
              {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    r = a.getresponse(); r.read()
    assert r.status == 200, r.status
    while etag() == before:
        if time.perf_counter() - start > 10:
            raise SystemExit(f"change {i}: B still serves {before} after 10 s")
    times.append((time.perf_counter() - start) * 1000)
a.request("DELETE", f"/api/v1/admin/boards/{board}/controls/42", headers={"Authorization": f"Bearer {token}"})
a.getresponse().read()
times.sort()
p = lambda q: times[min(len(times) - 1, int(q * len(times)))]
print(f"{len(times)} {p(0.5):.2f} {p(0.99):.2f} {times[-1]:.2f}")
PY
read -r COUNT P50 P99 MAX < "$WORK/propagation"
log "propagation over $COUNT changes: p50 ${P50} ms, p99 ${P99} ms, max ${MAX} ms"

python3 - "$WORK/results" "$REPORT" "$ROUNDS" "$DURATION" "$CONNECTIONS" "$THREADS" "$N" \
    "$COUNT" "$P50" "$P99" "$MAX" <<'PY'
import datetime, re, statistics, subprocess, sys
results, report, rounds, duration, conns, threads, n, count, p50, p99, worst = sys.argv[1:]
def ms(v):
    m = re.match(r"([\d.]+)(us|ms|s)$", v)
    x, u = float(m.group(1)), m.group(2)
    return x / 1000 if u == "us" else x * 1000 if u == "s" else x
rows = {"none": [], "controlled": []}
for line in open(results):
    name, rps, a, b = line.split()
    rows[name].append((float(rps), ms(a), ms(b)))
med = lambda name, i: statistics.median(r[i] for r in rows[name])
nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
lines = [
    "## Board controls: reads with controls, and a change's time to the other instance",
    "",
    f"- Date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M')} UTC; {nproc} CPUs; two instances, PostgreSQL and Redis on the same machine",
    f"- Command: `ROUNDS={rounds} DURATION={duration} CONNECTIONS={conns} N={n} bench/board-controls.sh`",
    f"- Reads: `wrk -t{threads} -c{conns} -d{duration}` on `GET /api/v1/boards/article-hot` of instance A, alternating rounds without controls and with 3 pins, 10 boosts and 10 blocks; medians of {rounds} rounds",
    "",
    "| board | requests/s | p50 | p99 |",
    "|---|---:|---:|---:|",
    f"| no controls | {med('none',0):,.0f} | {med('none',1):.2f} ms | {med('none',2):.2f} ms |",
    f"| 3 pins, 10 boosts, 10 blocks | {med('controlled',0):,.0f} | {med('controlled',1):.2f} ms | {med('controlled',2):.2f} ms |",
    f"| **with / without** | **{med('controlled',0)/med('none',0):.2f}x** | {med('controlled',1)/med('none',1):.2f}x | {med('controlled',2)/med('none',2):.2f}x |",
    "",
    f"- Propagation: {count} boost changes `PUT` on A; each timed from sending the `PUT` to B serving a new ETag (B polled over one keep-alive connection): p50 {p50} ms, p99 {p99} ms, max {worst} ms.",
    "",
]
sys.path.insert(0, "bench")
from report import write_section
if report != "/dev/null":
    write_section(report, lines)
print("\n".join(lines))
PY
