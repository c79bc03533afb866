package io.hotrank.storage;

import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The storage compatibility suite on H2, as the embedded default runs it: a file database of its
 * own.
 */
class H2StorageCompatibilityTest extends StorageCompatibilityContract {

  @RegisterExtension static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.H2);

  @Override
  MigratedDatabase database() {
    return DATABASE;
  }
}
