package io.hotrank.task;

import io.hotrank.storage.SqlDialect;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * H2 (the embedded default): the portable statements of {@link TaskSql}. A batch claim is a
 * transaction of three statements, as H2 takes no {@code FOR UPDATE} in a subquery, at {@code READ
 * COMMITTED} (H2's default, set as on MySQL); it has no writing {@code WITH}, so a completion is
 * two statements in one transaction.
 */
final class H2TaskSql extends TaskSql {

  H2TaskSql(SqlDialect dialect, JdbcTemplate jdbc, TransactionTemplate tx) {
    super(dialect, jdbc, tx, true);
  }
}
