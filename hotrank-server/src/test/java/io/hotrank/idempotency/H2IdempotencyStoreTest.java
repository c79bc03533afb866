package io.hotrank.idempotency;

import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The answers recorded within a write's transaction, on H2. */
class H2IdempotencyStoreTest extends IdempotencyStoreContract {

  @RegisterExtension static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.H2);

  @Override
  protected MigratedDatabase database() {
    return DATABASE;
  }
}
