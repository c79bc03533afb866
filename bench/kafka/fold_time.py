"""Times a fold of a backlog through GET /api/v1/admin/ingest (bench/kafka-source.sh): polls the
report every 0.5 s until its lag is 0 and the folds stand at EXPECTED events at least, at most
TIMEOUT seconds, and prints
FOLD events=.. seconds=.. rate=.. first_position=.. folds=.. samples=..
where the rate counts the events folded from the first report (the instance has just become
ready) to the last. position is the fold cursor on the event log, and the sum of the partitions'
stored positions on Kafka (records, plus transaction markers: none for a non-transactional
producer's backlog).

    python3 fold_time.py PORT TOKEN EXPECTED TIMEOUT
"""
import http.client, json, sys, time

port, token, expected, timeout = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])


def report():
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/api/v1/admin/ingest", headers={"Authorization": "Bearer " + token})
    r = conn.getresponse()
    body = r.read()
    if r.status != 200:
        raise RuntimeError("GET /api/v1/admin/ingest: HTTP %d %s" % (r.status, body[:200]))
    rep = json.loads(body)
    if rep["source"] == "kafka":
        position = sum(p["position"] for p in rep["partitions"])
    else:
        position = rep["position"]
    return position, rep["lag"], rep["foldNo"]


deadline = time.time() + timeout
t0 = time.time()
p0, lag, _ = report()
samples = 1
while True:
    position, lag, folds = report()
    samples += 1
    now = time.time()
    if lag == 0 and position >= expected:
        break
    if now > deadline:
        sys.exit("the fold did not catch up in %.0f s: position %d, lag %d" % (timeout, position, lag))
    time.sleep(0.5)
seconds = now - t0
print("FOLD events=%d seconds=%.2f rate=%.0f first_position=%d folds=%d samples=%d" % (
    position - p0, seconds, (position - p0) / seconds, p0, folds, samples))
