package io.hotrank.task;

import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The task platform's contract on PostgreSQL ({@code HOTRANK_TEST_POSTGRES_URL}). */
class PostgresTaskEngineTest extends TaskEngineContract {

  @RegisterExtension
  static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.POSTGRES);

  @Override
  protected MigratedDatabase database() {
    return DATABASE;
  }
}
