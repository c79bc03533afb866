package io.hotrank.ingest.log;

import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The event log and its folder on MariaDB or MySQL ({@code HOTRANK_TEST_MYSQL_URL}). */
class MariaDbEventLogTest extends EventLogContract {

  @RegisterExtension
  static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.MARIADB);

  @Override
  protected MigratedDatabase database() {
    return DATABASE;
  }
}
