package io.hotrank.task;

import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The task platform's contract on MariaDB or MySQL ({@code HOTRANK_TEST_MYSQL_URL}). */
class MariaDbTaskEngineTest extends TaskEngineContract {

  @RegisterExtension
  static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.MARIADB);

  @Override
  protected MigratedDatabase database() {
    return DATABASE;
  }
}
