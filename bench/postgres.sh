# Sourced by the bench scripts that use PostgreSQL: where it is, unless the caller says otherwise.
export HOTRANK_BENCH_PGHOST="${HOTRANK_BENCH_PGHOST:-127.0.0.1}"
export HOTRANK_BENCH_PGPORT="${HOTRANK_BENCH_PGPORT:-5432}"
export HOTRANK_BENCH_PGUSER="${HOTRANK_BENCH_PGUSER:-postgres}"
