#!/usr/bin/env bash
# Lease acquire+release pairs per second and pair latency, in one run: hotrank's RedisLeaseStore
# vs Redisson's RLock on the same Redis, and hotrank's JdbcLeaseStore vs ShedLock's
# JdbcTemplateLockProvider (usingDbTime) on the same PostgreSQL database and HikariCP pool; 1 and
# 16 concurrent clients, each on its own lease name (io.hotrank.bench.LeaseBench). Prints a
# Markdown table and writes it to hotrank-bench/target/lease-bench.md; BENCHMARKS.md is edited
# by hand (the section "Leases: hotrank vs Redisson (Redis) and ShedLock (PostgreSQL)").
#
#   bench/lease-vs-redisson.sh
#
# Environment: HOTRANK_BENCH_LEASE_WARMUP (seconds per cell, 3), HOTRANK_BENCH_LEASE_MEASURE
# (seconds per cell, 10), HOTRANK_BENCH_LEASE_ROUNDS (3), HOTRANK_BENCH_LEASE_CLIENTS (1,16),
# HOTRANK_BENCH_LEASE_POOL (16: HikariCP's and Redisson's pool), HOTRANK_BENCH_LEASE_STORES
# (redis,jdbc), HOTRANK_BENCH_LEASE_OUT (hotrank-bench/target/lease-bench.md),
# HOTRANK_BENCH_REDIS_HOST (127.0.0.1), HOTRANK_BENCH_REDIS_PORT (6379), HOTRANK_BENCH_PGHOST
# (127.0.0.1), HOTRANK_BENCH_PGPORT (5432), HOTRANK_BENCH_LEASE_PGDATABASE (hotrank_lease_bench,
# created if absent, disposable), HOTRANK_BENCH_PGUSER (postgres), PGPASSWORD,
# HOTRANK_BENCH_XMX (512m), HOTRANK_BENCH_SKIP_BUILD=1.
#
# Redis is never flushed: the run's keys carry a prefix of their own and are deleted at the end.
# Stops by itself: with the defaults, 3 rounds x 8 cells x 13 s (plus a pause), about 6 minutes.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers

export HOTRANK_BENCH_LEASE_PGDATABASE="${HOTRANK_BENCH_LEASE_PGDATABASE:-hotrank_lease_bench}"
export HOTRANK_BENCH_REDIS_HOST="${HOTRANK_BENCH_REDIS_HOST:-127.0.0.1}"
export HOTRANK_BENCH_REDIS_PORT="${HOTRANK_BENCH_REDIS_PORT:-6379}"
XMX="${HOTRANK_BENCH_XMX:-512m}"
export HOTRANK_BENCH_COMMAND="bench/lease-vs-redisson.sh${*:+ $*}"

bench_no_arguments "$@"

# 1. Redis and PostgreSQL must be up; the bench database is created if absent.
bench_require_redis "$HOTRANK_BENCH_REDIS_HOST" "$HOTRANK_BENCH_REDIS_PORT"
bench_require_postgres
bench_postgres_database "$HOTRANK_BENCH_LEASE_PGDATABASE"

# 2. Build the reactor up to hotrank-bench (package, no install) and write each module's
#    classpath to its target/bench.classpath; hotrank-bench's is used, reactor jars included.
#    The reactor's own jars and classes are copied aside (bench_classpath, bench/lib.sh).
bench_temp_dir LIB lease-bench
bench_classpath "$LIB"

# 3. The measurement (its migrations run first, on the bench database).
log "measuring with -Xmx$XMX"
"$JAVA" -Xms"$XMX" -Xmx"$XMX" -cp "$CP" io.hotrank.bench.LeaseBench
