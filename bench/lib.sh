# Sourced first by every bench script, as
#
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#
# It sets the strict mode (set -euo pipefail), makes the repository root the working directory
# and ROOT, picks the JDK ($JAVA; JAVA_HOME exported for Maven: Temurin 25 where this machine kind
# has it, else JAVA_HOME, else java on the PATH), states where PostgreSQL is (HOTRANK_BENCH_PGHOST,
# _PGPORT, _PGUSER, unless the caller set them), and defines the helpers below. Nothing here
# measures anything: each script's figures come from its own commands.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

if [[ -d /usr/lib/jvm/temurin-25-jdk-amd64 ]]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

export HOTRANK_BENCH_PGHOST="${HOTRANK_BENCH_PGHOST:-127.0.0.1}"
export HOTRANK_BENCH_PGPORT="${HOTRANK_BENCH_PGPORT:-5432}"
export HOTRANK_BENCH_PGUSER="${HOTRANK_BENCH_PGUSER:-postgres}"

# A progress line on stderr, prefixed with the script's name.
log() { echo "[$(basename "$0" .sh)] $*" >&2; }

# --- Cleanup -------------------------------------------------------------------------------------

# Commands run when the script exits, however it exits, the last registered first.
BENCH_ON_EXIT=()
bench_on_exit() { # $1: a command (a function name, or a string for eval)
  BENCH_ON_EXIT+=("$1")
}
bench_run_on_exit() {
  local i
  for ((i = ${#BENCH_ON_EXIT[@]} - 1; i >= 0; i--)); do
    eval "${BENCH_ON_EXIT[i]}" || true
  done
}
trap bench_run_on_exit EXIT

# Makes a directory of this run's under TMPDIR, removed at exit, and sets the variable $1 to its
# path (not a command substitution: the removal is registered in this shell).
bench_temp_dir() { # $1: variable name, $2: what it is for (part of the directory's name)
  local dir
  dir="$(mktemp -d "${TMPDIR:-/tmp}/hotrank-$2.XXXXXX")"
  bench_on_exit "rm -rf '$dir'"
  printf -v "$1" '%s' "$dir"
}

# Stops a process this script started (SIGTERM) and waits for it; nothing if the pid is empty.
bench_stop() { # $1: pid
  if [[ -n "$1" ]]; then
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
  fi
}

# --- Arguments and tools -------------------------------------------------------------------------

# For the scripts configured only by environment variables.
bench_no_arguments() { # "$@" of the script
  if [[ $# -gt 0 ]]; then
    log "no arguments expected; configure with the HOTRANK_BENCH_* variables (see the header)"
    exit 2
  fi
}

# Installs the Debian packages unless every command is on the PATH already.
bench_require_tools() { # $1: packages (space separated); the rest: commands
  local packages=$1 command
  shift
  for command in "$@"; do
    if ! command -v "$command" >/dev/null; then
      log "installing $packages"
      # shellcheck disable=SC2086 # one word a package
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >/dev/null
      return
    fi
  done
}

# --- Boards -------------------------------------------------------------------------------------

# The boards the event benches (events-ingest.sh, kafka-source.sh) configure: a window board and a
# 4-shard leaderboard on the events' biz, and the probe's leaderboard.
# shellcheck disable=SC2034 # used by the scripts that source this file
EVENT_BOARDS=(
  --hotrank.boards[0].name=article-hour --hotrank.boards[0].biz=article --hotrank.boards[0].type=window
  --hotrank.boards[0].bucket=1m --hotrank.boards[0].window=60m --hotrank.boards[0].weights.like=1
  --hotrank.boards[0].weights.view=0.05 --hotrank.boards[0].size=100
  --hotrank.boards[1].name=article-liked --hotrank.boards[1].biz=article --hotrank.boards[1].type=leaderboard
  --hotrank.boards[1].counter=like --hotrank.boards[1].shards=4 --hotrank.boards[1].size=100
  --hotrank.boards[2].name=probe-liked --hotrank.boards[2].biz=probe --hotrank.boards[2].type=leaderboard
  --hotrank.boards[2].counter=like --hotrank.boards[2].shards=1 --hotrank.boards[2].size=10
)

# --- Kafka ---------------------------------------------------------------------------------------

# Resolves Kafka's jars (bench/kafka/pom.xml) into the directory $1 and sets KCP (their classpath)
# and KAFKA_TOOL (a JVM on it, for Kafka's own tools).
bench_kafka_classpath() { # $1: a directory of this run's
  log "resolving Kafka's jars (bench/kafka/pom.xml)"
  ./mvnw -q -f bench/kafka/pom.xml dependency:build-classpath -Dmdep.outputFile="$1/kafka.classpath" >&2
  KCP=$(cat "$1/kafka.classpath")
  KAFKA_TOOL=("$JAVA" -Xmx512m -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$KCP")
}

# Starts a one-node KRaft broker on 127.0.0.1:$2 (its controller on the next port) with its data
# in $1/kafka, waits until it answers, and sets BROKER_PID (the caller stops it with bench_stop)
# and the function topics (Kafka's TopicCommand against it). Needs bench_kafka_classpath first.
bench_kafka_broker() { # $1: a directory of this run's, $2: port, $3: heap
  local dir=$1 port=$2 heap=$3 controller=$(($2 + 1))
  log "starting the broker on 127.0.0.1:$port"
  mkdir -p "$dir/kafka"
  cat > "$dir/server.properties" <<EOF2
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$dir/kafka
auto.create.topics.enable=false
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
EOF2
  "${KAFKA_TOOL[@]}" kafka.tools.StorageTool format -c "$dir/server.properties" \
    -t "$("${KAFKA_TOOL[@]}" kafka.tools.StorageTool random-uuid)" >"$dir/format.log" 2>&1
  "$JAVA" -Xms"$heap" -Xmx"$heap" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$KCP" \
    kafka.Kafka "$dir/server.properties" >"$dir/broker.log" 2>&1 &
  BROKER_PID=$!
  BENCH_BOOTSTRAP="127.0.0.1:$port"
  topics() { "${KAFKA_TOOL[@]}" org.apache.kafka.tools.TopicCommand --bootstrap-server "$BENCH_BOOTSTRAP" "$@"; }
  for _ in $(seq 1 60); do
    topics --list >/dev/null 2>&1 && break
    kill -0 "$BROKER_PID" 2>/dev/null || { cat "$dir/broker.log"; exit 1; }
    sleep 1
  done
  topics --list >/dev/null || { cat "$dir/broker.log"; exit 1; }
}

# --- Building ------------------------------------------------------------------------------------

# Installs the reactor (unless SKIP_BUILD=1) and sets JAR to the service's exec jar.
bench_server_jar() {
  [[ "${SKIP_BUILD:-}" == 1 ]] || ./mvnw -q -DskipTests install
  JAR=$(ls "$ROOT"/hotrank-server/target/hotrank-server-*-exec.jar | head -n 1)
}

# Builds the reactor up to hotrank-bench (unless HOTRANK_BENCH_SKIP_BUILD=1 and a classpath was
# written before), then copies the reactor's own jars and classes into the directory $1, so that a
# build running meanwhile (mvn clean, package) cannot pull them from under the measuring JVM, and
# sets CP to the classpath to run with (hotrank-bench's, reactor jars included).
bench_classpath() { # $1: a directory of this run's
  local lib=$1 cp_file="$ROOT/hotrank-bench/target/bench.classpath" entry entries
  if [[ "${HOTRANK_BENCH_SKIP_BUILD:-0}" != 1 || ! -f "$cp_file" ]]; then
    log "building"
    (cd "$ROOT" && ./mvnw -q -pl hotrank-bench -am -DskipTests package dependency:build-classpath \
      -Dmdep.outputFile=target/bench.classpath)
  fi
  cp -r "$ROOT/hotrank-bench/target/classes" "$lib/bench-classes"
  CP="$lib/bench-classes"
  IFS=: read -r -a entries <"$cp_file" || true # no final newline
  for entry in "${entries[@]}"; do
    if [[ "$entry" == "$ROOT"/* ]]; then
      cp -r "$entry" "$lib/"
      entry="$lib/$(basename "$entry")"
    fi
    CP="$CP:$entry"
  done
}

# --- The service and the engines ------------------------------------------------------------------

# Waits up to 60 s for the instance on the port to report ready; else prints its log and exits.
bench_await_ready() { # $1: HTTP port, $2: its log file
  for _ in $(seq 1 120); do
    curl -sf "localhost:$1/actuator/health/readiness" >/dev/null && return 0
    sleep 0.5
  done
  cat "$2"
  exit 1
}

# Sets REDIS_HOST, REDIS_PORT and RC (redis-cli for them) from a redis:// URL.
bench_redis_url() { # $1: redis://host:port
  REDIS_HOST=$(echo "$1" | sed -E 's#redis://([^:/]+).*#\1#')
  REDIS_PORT=$(echo "$1" | sed -E 's#.*:([0-9]+)/?$#\1#')
  RC=(redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT")
}

# Deletes this run's Redis keys (never a flush: the Redis may be shared). Needs RC.
bench_redis_delete_prefix() { # $1: the run's key prefix
  "${RC[@]}" --scan --pattern "$1*" | xargs -r -n 500 "${RC[@]}" DEL >/dev/null || true
}

bench_require_redis() { # $1: host, $2: port
  if ! redis-cli -h "$1" -p "$2" ping >/dev/null 2>&1; then
    log "Redis does not answer at $1:$2"
    exit 2
  fi
}

bench_require_postgres() {
  if ! pg_isready -q -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"; then
    log "PostgreSQL does not answer at $HOTRANK_BENCH_PGHOST:$HOTRANK_BENCH_PGPORT"
    exit 2
  fi
}

# Creates the PostgreSQL database unless it exists (bench databases are disposable, never dropped
# here).
bench_postgres_up() { # starts the local PostgreSQL cluster unless it answers
  if ! pg_isready -q -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"; then
    log "starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start
    for _ in $(seq 1 30); do
      pg_isready -q -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT" && break
      sleep 1
    done
  fi
}

bench_postgres_database() { # $1: database name
  local psql=(psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"
              -U "$HOTRANK_BENCH_PGUSER" -d postgres)
  if [[ "$("${psql[@]}" -Atc "SELECT 1 FROM pg_database WHERE datname = '$1'")" != 1 ]]; then
    log "creating database $1"
    "${psql[@]}" -c "CREATE DATABASE \"$1\""
  fi
}

# The ranking benchmark's items in PostgreSQL (biz 'bench', ids 1..$1, spread over 30 days before
# now), each with one tag drawn log-uniformly over t1..t$2 from a hash of its id (deterministic;
# SegmentBench.tagSql is the same expression). Needs CP (bench_classpath) and the HOTRANK_BENCH_PG*
# database; rows already generated and tagged so are left alone.
bench_tagged_items() { # $1: items, $2: tags
  local psql=(psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"
              -U "$HOTRANK_BENCH_PGUSER" -d "$HOTRANK_BENCH_PGDATABASE")
  log "applying migrations"
  "$JAVA" -Xmx256m -cp "$CP" io.hotrank.bench.RankingScanBench --migrate-only
  log "checking/generating $1 items"
  "${psql[@]}" -v n="$1" -v now_ms="$(date +%s%3N)" -f bench/generate-items.sql
  log "tagging the items over $2 tags"
  local tag="'t' || floor(exp(((hashtext(ID::text)::bigint & 2147483647)::float8 / 2147483648.0) * ln($2)))::int"
  # The item and its counter row (which carries a copy of the tags for the scan) alike.
  "${psql[@]}" -c "UPDATE hr_item SET tags = ${tag//ID/id} WHERE biz = 'bench' AND tags <> ${tag//ID/id}" \
    -c "UPDATE hr_item_counter SET tags = ${tag//ID/item_id} WHERE biz = 'bench' AND tags <> ${tag//ID/item_id}" \
    -c "VACUUM FULL ANALYZE hr_item" -c "VACUUM FULL ANALYZE hr_item_counter" # an UPDATE of every row leaves a table twice its size
}

# The value of name=value in a line of such pairs (the RESULT lines of the wrk scripts).
field() { # $1: the line, $2: the name
  echo "$1" | tr ' ' '\n' | grep "^$2=" | cut -d= -f2
}

# bench_events_rate PORT KEYED DURATION: posts bench/events/events.lua's batches of 100 events to
# the service on PORT unpaced for DURATION with wrk (2 threads, $CONNECTIONS connections, over
# $ITEMS items; KEYED as events.lua reads it: 0, key, ids or 1) and prints the events accepted
# (202) per second.
bench_events_rate() {
  local port=$1 keyed=$2 duration=$3 line
  line=$(KEYED=$keyed RATE=0 CONNECTIONS=$CONNECTIONS ITEMS=$ITEMS wrk -t2 -c"$CONNECTIONS" \
    -d"$duration" -s bench/events/events.lua "http://127.0.0.1:$port" | grep '^RESULT')
  python3 -c "print(round(($(field "$line" requests) - $(field "$line" non2xx)) * 100 / $(field "$line" seconds)))"
}

# bench_caught_up PORT TOKEN: waits (10 minutes at most) until the service's folders have applied
# every event it accepted: a manual fold that folded nothing. The call may wait on the Kafka
# folders for up to the fold barrier's timeout (30 s), hence the long request timeout.
bench_caught_up() {
  local port=$1 token=$2
  for _ in $(seq 1 600); do
    curl -sf -m 35 -XPOST "localhost:$port/api/v1/admin/events/fold" -H "Authorization: Bearer $token" \
      | grep -q '"folds":0' && return 0
    sleep 1
  done
  echo "the folders did not catch up" >&2
  return 1
}
