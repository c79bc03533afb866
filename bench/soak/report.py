"""The soak's report (bench/soak.sh): a Markdown table of the per-minute samples and, per metric, a
verdict on whether it grows.

    python3 bench/soak/report.py MINUTES_TSV WARMUP_MIN OUT_MD [a context line ...]

MINUTES_TSV has a header line and a line per minute, tab-separated (the names below). The verdict
looks only at the minutes after the first WARMUP_MIN: a metric "grows" when the mean of the last
third of them is more than 10% above the mean of the first third (any rise from 0) and the
least-squares slope over all of them is positive; else it is "flat". Fewer than 3 minutes after the
warm-up give no verdict. The report is written to OUT_MD and printed."""
import sys

path, warmup, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
context = sys.argv[4:]

with open(path) as f:
    header = f.readline().rstrip("\n").split("\t")
    rows = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]

# (column in the TSV, heading, how to show a value); errors are non-2xx answers plus socket errors.
COLUMNS = [
    ("requests", "requests", "%d"),
    ("all_errors", "errors", "%d"),
    ("p99_ms", "p99 ms", "%.1f"),
    ("heap_mib", "heap after GC MiB", "%.1f"),
    ("threads", "threads", "%d"),
    ("fds", "open files", "%d"),
    ("redis_rss_mib", "redis RSS MiB", "%.1f"),
    ("java_rss_mib", "java RSS MiB", "%.1f"),
    ("java_cpu_pct", "java CPU % of a core", "%d"),
]
COLUMNS = [c for c in COLUMNS if c[0] in header or c[0] == "all_errors"]  # older samples: fewer
for r in rows:
    r["all_errors"] = int(r["non2xx"]) + int(r["errors"])


def value(r, name):
    return float(r[name])


lines = list(context)
if context:
    lines.append("")
lines.append("| minute | " + " | ".join(h for _, h, _ in COLUMNS) + " |")
lines.append("| ---: | " + " | ".join("---:" for _ in COLUMNS) + " |")
for r in rows:
    cells = [fmt % value(r, name) for name, _, fmt in COLUMNS]
    lines.append("| %s | %s |" % (r["minute"], " | ".join(cells)))

failing = [r for r in rows if r["failures"] != "-" or int(r["errors"]) > 0]
if failing:
    lines.append("")
    lines.append("Answers outside 2xx (status@kind:count) and socket errors, by minute:")
    for r in failing:
        lines.append("- minute %s: %s; socket errors %s" % (r["minute"], r["failures"], r["errors"]))

after = [r for r in rows if int(r["minute"]) > warmup]
lines.append("")
if len(after) < 3:
    lines.append("No verdicts: %d minute(s) after the warm-up of %d, at least 3 needed."
                 % (len(after), warmup))
else:
    lines.append("Verdicts (minutes %d to %d, after a warm-up of %d; \"grows\": the last third's mean "
                 "more than 10%% above the first third's and a positive slope):"
                 % (warmup + 1, int(rows[-1]["minute"]), warmup))


def slope(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0


for name, heading, _ in COLUMNS if len(after) >= 3 else []:
    third = len(after) // 3
    first = sum(value(r, name) for r in after[:third]) / third
    last = sum(value(r, name) for r in after[-third:]) / third
    s = slope([int(r["minute"]) for r in after], [value(r, name) for r in after])
    rises = last > first * 1.1 if first > 0 else last > first
    change = "%+.1f%%" % (100 * (last - first) / first) if first > 0 else ("up from 0" if last > 0 else "0")
    lines.append("- %s: %s (first third %.1f, last third %.1f, %s; slope %+.3g per minute)"
                 % (heading, "grows" if rises and s > 0 else "flat", first, last, change, s))

text = "\n".join(lines) + "\n"
with open(out, "w") as f:
    f.write(text)
print(text, end="")
