package io.hotrank.storage;

import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The storage compatibility suite on MariaDB or MySQL ({@code HOTRANK_TEST_MYSQL_URL}). */
class MariaDbStorageCompatibilityTest extends StorageCompatibilityContract {

  @RegisterExtension
  static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.MARIADB);

  @Override
  MigratedDatabase database() {
    return DATABASE;
  }
}
