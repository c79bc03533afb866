#!/usr/bin/env bash
# Task schedulers side by side (io.hotrank.bench.tasks.TaskBench): db-scheduler and hotrank, each
# scheduler on PostgreSQL and on MariaDB, in each of its modes (db-scheduler: its polling
# strategies lock-and-fetch and fetch), always two scheduler instances, each a JVM of its own
# started by the coordinator JVM. Measures
#   1. throughput: 10,000 immediately due no-op one-time executions, executions per second until
#      none is left, on warm JVMs: 50,000 warm-up executions due earlier run first in the same two
#      instances, and the clock starts when they are done (HOTRANK_BENCH_TASKS_WARMUP=0: cold JVMs,
#      from the start of both instances); on PostgreSQL also the database's transactions
#      (pg_stat_database.xact_commit) per execution. The rounds run interleaved (round 1 of every
#      scheduler, database and mode, then round 2, ...), and a summary gives each one's ratio to
#      db-scheduler's lock-and-fetch on the same database, of the means and round by round;
#   2. takeover: kill -9 of the instance running a long execution, time until the other instance
#      starts it again;
#   3. duplicates: executions (6 s, side effect at start and at end) running on one instance,
#      which is SIGSTOPped past the dead-execution detection and SIGCONTed; executions whose end
#      side effect was written more than once.
# Prints a plain-text table and writes it to hotrank-bench/target/tasks-bench.txt; the instances'
# logs go to hotrank-bench/target/tasks-bench-logs/. BENCHMARKS.md is edited by hand.
#
#   bench/tasks-vs-db-scheduler.sh
#
# Environment: HOTRANK_BENCH_TASKS_SCHEDULERS (db-scheduler,hotrank), HOTRANK_BENCH_TASKS_DBS
# (postgresql,mariadb), HOTRANK_BENCH_TASKS_MODES (all: db-scheduler's lock-and-fetch and fetch,
# hotrank's history-failures, history-none and history-all), HOTRANK_BENCH_TASKS_EXECUTIONS (10000),
# HOTRANK_BENCH_TASKS_WARMUP (50000),
# HOTRANK_BENCH_TASKS_ROUNDS (throughput rounds, 3), HOTRANK_BENCH_TASKS_TAKEOVERS (5),
# HOTRANK_BENCH_TASKS_STALLED (20), HOTRANK_BENCH_TASKS_STALL_RUN (6s), HOTRANK_BENCH_TASKS_THREADS
# (20 per instance), HOTRANK_BENCH_TASKS_POLLING (100ms), HOTRANK_BENCH_TASKS_HEARTBEAT (1s),
# HOTRANK_BENCH_TASKS_DEAD_AFTER (3s; db-scheduler rounds it up to 4 heartbeats),
# HOTRANK_BENCH_TASKS_DBS_LIMITS (db-scheduler's lower,upper fractions of threads, 4.0,20.0),
# HOTRANK_BENCH_TASKS_INSTANCE_XMX (256m), HOTRANK_BENCH_TASKS_OUT, HOTRANK_BENCH_TASKS_LOGS,
# HOTRANK_BENCH_TASKS_DATABASE (hotrank_bench_tasks on both servers, created if absent,
# disposable), HOTRANK_BENCH_PGHOST (127.0.0.1), HOTRANK_BENCH_PGPORT (5432), HOTRANK_BENCH_PGUSER
# (postgres), PGPASSWORD, HOTRANK_BENCH_MARIADB_HOST (127.0.0.1), HOTRANK_BENCH_MARIADB_PORT (3306),
# HOTRANK_BENCH_MARIADB_USER (root), MYSQL_PWD, HOTRANK_BENCH_XMX (coordinator, 256m),
# HOTRANK_BENCH_SKIP_BUILD=1.
#
# Only the bench database's tables are touched (scheduled_tasks, hr_task, hr_task_run and bench_task_effect, truncated
# before every round); the servers are never restarted or flushed. Stops by itself: with the
# defaults about 20 minutes. Every instance JVM ends with the run: the coordinator stops or kills
# them, an instance whose coordinator is gone halts by itself, and the cleanup below kills what is
# left of the pids the coordinator recorded (only those carrying this run's marker).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers

export HOTRANK_BENCH_MARIADB_HOST="${HOTRANK_BENCH_MARIADB_HOST:-127.0.0.1}"
export HOTRANK_BENCH_MARIADB_PORT="${HOTRANK_BENCH_MARIADB_PORT:-3306}"
export HOTRANK_BENCH_MARIADB_USER="${HOTRANK_BENCH_MARIADB_USER:-root}"
export HOTRANK_BENCH_TASKS_DATABASE="${HOTRANK_BENCH_TASKS_DATABASE:-hotrank_bench_tasks}"
DBS="${HOTRANK_BENCH_TASKS_DBS:-postgresql,mariadb}"
XMX="${HOTRANK_BENCH_XMX:-256m}"
export HOTRANK_BENCH_COMMAND="bench/tasks-vs-db-scheduler.sh${*:+ $*}"
MARIADB=(mariadb -h "$HOTRANK_BENCH_MARIADB_HOST" -P "$HOTRANK_BENCH_MARIADB_PORT"
         -u "$HOTRANK_BENCH_MARIADB_USER")

bench_no_arguments "$@"

# 1. The databases must be up; the bench database is created on each if absent.
if [[ ",$DBS," == *,postgresql,* ]]; then
  bench_require_postgres
  bench_postgres_database "$HOTRANK_BENCH_TASKS_DATABASE"
fi
if [[ ",$DBS," == *,mariadb,* ]]; then
  if ! "${MARIADB[@]}" -e "SELECT 1" >/dev/null 2>&1; then
    log "MariaDB does not answer at $HOTRANK_BENCH_MARIADB_HOST:$HOTRANK_BENCH_MARIADB_PORT"
    exit 2
  fi
  "${MARIADB[@]}" -e "CREATE DATABASE IF NOT EXISTS \`$HOTRANK_BENCH_TASKS_DATABASE\`"
fi

# 2. Build the reactor up to hotrank-bench (package, no install) and write each module's
#    classpath to its target/bench.classpath; hotrank-bench's is used, reactor jars included.
#    The reactor's own jars and classes are copied aside (bench_classpath, bench/lib.sh): a build
#    running meanwhile must not pull them from under the coordinator and its instance JVMs.
bench_temp_dir LIB tasks-bench
export HOTRANK_BENCH_TASKS_PIDFILE="$LIB/instances.pid"
COORDINATOR=""
cleanup() {
  # Only this run's processes: the coordinator, and the recorded instance pids that still carry
  # the run's marker (-Dhotrank.bench.run=..., set by the coordinator) in their command line.
  if [[ -n "$COORDINATOR" ]] && kill -0 "$COORDINATOR" 2>/dev/null; then
    kill "$COORDINATOR" 2>/dev/null || true
    sleep 1
    kill -9 "$COORDINATOR" 2>/dev/null || true
  fi
  if [[ -f "$HOTRANK_BENCH_TASKS_PIDFILE" ]]; then
    while read -r pid; do
      if [[ -r "/proc/$pid/cmdline" ]] && tr '\0' ' ' <"/proc/$pid/cmdline" \
          | grep -q -- "-Dhotrank.bench.run=.* io.hotrank.bench.tasks.TaskBench --role=instance"; then
        kill -CONT "$pid" 2>/dev/null || true # a SIGSTOPped JVM cannot die otherwise
        kill -9 "$pid" 2>/dev/null || true
      fi
    done <"$HOTRANK_BENCH_TASKS_PIDFILE"
  fi
}
bench_on_exit cleanup # runs before $LIB is removed
trap 'exit 130' INT TERM
bench_classpath "$LIB"

# 3. The measurement; the coordinator starts the instance JVMs with its own java and classpath.
log "measuring (coordinator -Xmx$XMX)"
"$JAVA" -Xms"$XMX" -Xmx"$XMX" -cp "$CP" io.hotrank.bench.tasks.TaskBench &
COORDINATOR=$!
wait "$COORDINATOR"
