package io.hotrank.task;

import io.hotrank.storage.SqlDialect;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * MySQL and MariaDB: the portable statements of {@link TaskSql}. A batch claim is a transaction of
 * three statements, as their {@code UPDATE} returns no rows and takes no {@code LIMIT} in a
 * subquery on its own table; it runs at {@code READ COMMITTED}, since under InnoDB's default {@code
 * REPEATABLE READ} its locking read would also lock the gaps and every row it scans, holding up
 * other instances' completions until it commits. A group of completions is written one by one:
 * MariaDB's driver sends a JDBC batch in its bulk protocol, which takes no {@code INSERT ...
 * SELECT}.
 */
final class MySqlTaskSql extends TaskSql {

  MySqlTaskSql(SqlDialect dialect, JdbcTemplate jdbc, TransactionTemplate tx) {
    super(dialect, jdbc, tx, true);
  }
}
