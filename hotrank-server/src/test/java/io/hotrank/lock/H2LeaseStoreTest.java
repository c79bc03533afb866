package io.hotrank.lock;

import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lease contract, leases in {@code hr_lease}, on H2, as the embedded default runs it: a file
 * database of its own.
 */
class H2LeaseStoreTest extends JdbcLeaseStoreContract {

  @RegisterExtension static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.H2);

  @Override
  protected MigratedDatabase database() {
    return DATABASE;
  }
}
