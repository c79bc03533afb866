#!/usr/bin/env bash
# The cost of a local board hit vs serializing the board on each request (JMH, GC profiler).
#
#   bench/board-snapshot-jmh.sh      # writes its section of BENCHMARKS.md
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers
bench_temp_dir LIB jmh-bench
bench_classpath "$LIB"
OUT="$LIB/jmh.json"
"$JAVA" -cp "$CP" org.openjdk.jmh.Main BoardSnapshotJmh -prof gc -f 1 -wi 3 -i 5 -w 1s -r 1s \
  -rf json -rff "$OUT" | grep -E '^Benchmark|^BoardSnapshotJmh' || true
python3 - "$OUT" BENCHMARKS.md <<'PY'
import json, sys, datetime, subprocess
results, report = sys.argv[1:]
rows = {}
for r in json.load(open(results)):
    name = r["benchmark"].rsplit(".", 1)[1]
    rows[name] = (r["primaryMetric"]["score"], r["primaryMetric"]["scoreError"],
                  r["secondaryMetrics"]["gc.alloc.rate.norm"]["score"])
peer = rows["jacksonPerRequest"]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
java = subprocess.run(["bash", "-c", "${JAVA_HOME:+$JAVA_HOME/bin/}java -version 2>&1 | head -n 1"],
                      capture_output=True, text=True).stdout.strip()
lines = [
    "## Local board hit vs serializing per request (JMH)",
    "",
    f"- Date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M')} UTC; {subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()} CPUs ({cpu}); {java}",
    "- Command (from the repository root): `bench/board-snapshot-jmh.sh` (JMH 1.37, 1 fork, 3 x 1 s warm-up, 5 x 1 s measurement, `-prof gc`)",
    "- Board of 100 entries, window of 50 (the default read); the peer serializes the same 50 entries with Jackson on each call",
    "",
    "| operation | time per op | time vs peer (this / peer) | bytes allocated per op |",
    "|---|---:|---:|---:|",
]
for name in ["localHitDefaultWindow", "localHitOtherWindow", "jacksonPerRequest"]:
    t, err, alloc = rows[name]
    lines.append(f"| `{name}` | {t:,.1f} ± {err:,.1f} ns | {t / peer[0]:.2g}x | {alloc:,.0f} B |")
lines += ["", "The default read hands out the pre-rendered bytes: a map lookup, no copy, no lock; another window copies pre-rendered entries into one array.", ""]
sys.path.insert(0, "bench")
from report import write_section
write_section(report, lines)
PY
