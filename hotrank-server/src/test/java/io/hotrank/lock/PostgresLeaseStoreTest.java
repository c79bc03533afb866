package io.hotrank.lock;

import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lease contract, leases in {@code hr_lease}, on PostgreSQL ({@code
 * HOTRANK_TEST_POSTGRES_URL}).
 */
class PostgresLeaseStoreTest extends JdbcLeaseStoreContract {

  @RegisterExtension
  static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.POSTGRES);

  @Override
  protected MigratedDatabase database() {
    return DATABASE;
  }
}
