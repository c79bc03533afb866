#!/usr/bin/env bash
# What an actor costs the database (issue 42): hr_actor created by the service's own migration
# (V19) in a database of its own on PostgreSQL and on MariaDB, ACTORS unflagged actors inserted
# with ids 1..ACTORS (as a platform's sequential user ids) and a trust below 1, the table analyzed,
# then the bytes per actor with its indexes (pg_total_relation_size; InnoDB's data_length +
# index_length).
#
#   bench/actor-size.sh            # prints a Markdown table
#
# Environment: ACTORS (200000), HOTRANK_BENCH_PG* (bench/lib.sh), MYSQL (mysql -uroot). Uses the
# databases hotrank_bench_actor_size on both (dropped and created again, left for a look).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # strict mode, cd to the root, ROOT, JAVA, helpers
bench_no_arguments "$@"
ACTORS=${ACTORS:-200000}
DB=hotrank_bench_actor_size
read -r -a MYSQL <<< "${MYSQL:-mysql -uroot}"
bench_require_tools "postgresql-client mariadb-client" psql mysql
bench_require_postgres
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$HOTRANK_BENCH_PGHOST" -p "$HOTRANK_BENCH_PGPORT"
      -U "$HOTRANK_BENCH_PGUSER")
MIGRATIONS=hotrank-server/src/main/resources/db/migration

"${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
"${PSQL[@]}" -d $DB -f $MIGRATIONS/postgresql/V19__actors.sql
"${PSQL[@]}" -d $DB -c "INSERT INTO hr_actor (user_id, created_at, bot, trust, updated_at)
  SELECT g, 1700000000000 + g, false, 0.9, 1700000000000 FROM generate_series(1, $ACTORS) g" \
  -c "VACUUM ANALYZE hr_actor"
pg=$("${PSQL[@]}" -d $DB -Atc "SELECT ROUND(pg_total_relation_size('hr_actor')::numeric / COUNT(*)) FROM hr_actor")
pg_version=$("${PSQL[@]}" -d $DB -Atc "SHOW server_version" | cut -d' ' -f1)

"${MYSQL[@]}" -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4"
"${MYSQL[@]}" $DB < $MIGRATIONS/mysql/V19__actors.sql
"${MYSQL[@]}" $DB -e "INSERT INTO hr_actor (user_id, created_at, bot, trust, updated_at)
  SELECT seq, 1700000000000 + seq, false, 0.9, 1700000000000 FROM seq_1_to_$ACTORS;
  ANALYZE TABLE hr_actor" >/dev/null
maria=$("${MYSQL[@]}" -N -e "SELECT ROUND((data_length + index_length) / $ACTORS)
  FROM information_schema.tables WHERE table_schema = '$DB' AND table_name = 'hr_actor'")
maria_version=$("${MYSQL[@]}" -N -e "SELECT VERSION()")

echo
echo "Command: \`bench/actor-size.sh\` (ACTORS=$ACTORS); $(date -u +%F)."
echo
echo "| engine | bytes per actor, with its indexes |"
echo "| --- | --- |"
echo "| PostgreSQL $pg_version | $pg |"
echo "| MariaDB $maria_version | $maria |"
