package io.hotrank.storage;

import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The storage compatibility suite on PostgreSQL ({@code HOTRANK_TEST_POSTGRES_URL}). */
class PostgresStorageCompatibilityTest extends StorageCompatibilityContract {

  @RegisterExtension
  static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.POSTGRES);

  @Override
  MigratedDatabase database() {
    return DATABASE;
  }
}
