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
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

source bench/java.sh # the scripts run from the repository root
source bench/postgres.sh

export HOTRANK_BENCH_LEASE_PGDATABASE="${HOTRANK_BENCH_LEASE_PGDATABASE:-hotrank_lease_bench}"
export HOTRANK_BENCH_REDIS_HOST="${HOTRANK_BENCH_REDIS_HOST:-127.0.0.1}"
export HOTRANK_BENCH_REDIS_PORT="${HOTRANK_BENCH_REDIS_PORT:-6379}"
XMX="${HOTRANK_BENCH_XMX:-512m}"
export HOTRANK_BENCH_COMMAND="bench/lease-vs-redisson.sh${*:+ $*}"
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"
      -U "$HOTRANK_BENCH_PGUSER")

log() { echo "[lease-vs-redisson] $*" >&2; }

if [[ $# -gt 0 ]]; then
  log "no arguments expected; configure with the HOTRANK_BENCH_* variables (see the header)"
  exit 2
fi

# 1. Redis and PostgreSQL must be up; the bench database is created if absent.
if ! redis-cli -h "$HOTRANK_BENCH_REDIS_HOST" -p "$HOTRANK_BENCH_REDIS_PORT" ping >/dev/null 2>&1; then
  log "Redis does not answer at $HOTRANK_BENCH_REDIS_HOST:$HOTRANK_BENCH_REDIS_PORT"
  exit 2
fi
if ! pg_isready -q -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"; then
  log "PostgreSQL does not answer at $HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT"
  exit 2
fi
if [[ "$("${PSQL[@]}" -d postgres -Atc \
      "SELECT 1 FROM pg_database WHERE datname = '$HOTRANK_BENCH_LEASE_PGDATABASE'")" != 1 ]]; then
  log "creating database $HOTRANK_BENCH_LEASE_PGDATABASE"
  "${PSQL[@]}" -d postgres -c "CREATE DATABASE \"$HOTRANK_BENCH_LEASE_PGDATABASE\""
fi

# 2. Build the reactor up to hotrank-bench (package, no install) and write each module's
#    classpath to its target/bench.classpath; hotrank-bench's is used, reactor jars included.
CP_FILE="$ROOT/hotrank-bench/target/bench.classpath"
if [[ "${HOTRANK_BENCH_SKIP_BUILD:-0}" != 1 || ! -f "$CP_FILE" ]]; then
  log "building"
  ./mvnw -q -pl hotrank-bench -am -DskipTests package dependency:build-classpath \
    -Dmdep.outputFile=target/bench.classpath
fi
# The reactor's own jars and classes are copied aside: a build of the project running meanwhile
# (mvn clean, package) must not pull them from under the measuring JVM.
LIB="$(mktemp -d "${TMPDIR:-/tmp}/hotrank-lease-bench.XXXXXX")"
trap 'rm -rf "$LIB"' EXIT
cp -r "$ROOT/hotrank-bench/target/classes" "$LIB/bench-classes"
CP="$LIB/bench-classes"
IFS=: read -r -a ENTRIES <"$CP_FILE" || true # no final newline
for entry in "${ENTRIES[@]}"; do
  if [[ "$entry" == "$ROOT"/* ]]; then
    cp -r "$entry" "$LIB/"
    entry="$LIB/$(basename "$entry")"
  fi
  CP="$CP:$entry"
done

# 3. The measurement (its migrations run first, on the bench database).
log "measuring with -Xmx$XMX"
"$JAVA" -Xms"$XMX" -Xmx"$XMX" -cp "$CP" io.hotrank.bench.LeaseBench
