# Sourced by the bench scripts that run a class of hotrank-bench: bench_classpath builds the
# reactor up to hotrank-bench (unless HOTRANK_BENCH_SKIP_BUILD=1 and a classpath was written
# before), then copies the reactor's own jars and classes into the directory $1, so that a build
# running meanwhile (mvn clean, package) cannot pull them from under the measuring JVM, and sets
# CP to the classpath to run with. Needs ROOT (the repository) and a log function.
bench_classpath() {
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
