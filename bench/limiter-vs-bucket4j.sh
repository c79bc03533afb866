#!/usr/bin/env bash
# Rate limit decisions on one hot key from 64 concurrent clients, in one run on the same Redis:
# hotrank's GcraLimiter (one Lua script call per decision) against Bucket4j's Lettuce backend
# (compare-and-swap), for a quota nearly every decision is under and one nearly every decision is
# over (io.hotrank.bench.LimiterBench). Prints a Markdown table and writes it to
# hotrank-bench/target/limiter-bench.md; BENCHMARKS.md is edited by hand (the section "Rate limits:
# hotrank vs Bucket4j on one hot key").
#
#   bench/limiter-vs-bucket4j.sh
#
# Environment: HOTRANK_BENCH_LIMIT_CLIENTS (64), HOTRANK_BENCH_LIMIT_QUOTAS (per second,
# "1000000,1000"), HOTRANK_BENCH_LIMIT_WARMUP (s per cell, 3), HOTRANK_BENCH_LIMIT_MEASURE (s per
# cell, 10), HOTRANK_BENCH_LIMIT_ROUNDS (3), HOTRANK_BENCH_REDIS_HOST (127.0.0.1),
# HOTRANK_BENCH_REDIS_PORT (6379), HOTRANK_BENCH_XMX (512m), HOTRANK_BENCH_SKIP_BUILD=1.
#
# Redis is never flushed: the run's keys carry a prefix of their own and are deleted at the end.
# Stops by itself: with the defaults, 3 rounds x 4 cells x 13 s, under 3 minutes.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers

XMX="${HOTRANK_BENCH_XMX:-512m}"
HOST="${HOTRANK_BENCH_REDIS_HOST:-127.0.0.1}"
PORT="${HOTRANK_BENCH_REDIS_PORT:-6379}"

bench_require_redis "$HOST" "$PORT"

bench_temp_dir LIB limiter-bench
bench_classpath "$LIB"

log "measuring with -Xmx$XMX"
mkdir -p hotrank-bench/target
"$JAVA" -Xms"$XMX" -Xmx"$XMX" -cp "$CP" io.hotrank.bench.LimiterBench \
  | tee hotrank-bench/target/limiter-bench.md
