package io.hotrank.lock;

import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lease contract, leases in {@code hr_lease}, on MariaDB or MySQL ({@code
 * HOTRANK_TEST_MYSQL_URL}).
 */
class MariaDbLeaseStoreTest extends JdbcLeaseStoreContract {

  @RegisterExtension
  static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.MARIADB);

  @Override
  protected MigratedDatabase database() {
    return DATABASE;
  }
}
