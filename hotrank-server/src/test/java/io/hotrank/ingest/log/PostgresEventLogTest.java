package io.hotrank.ingest.log;

import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The event log and its folder on PostgreSQL ({@code HOTRANK_TEST_POSTGRES_URL}). */
class PostgresEventLogTest extends EventLogContract {

  @RegisterExtension
  static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.POSTGRES);

  @Override
  protected MigratedDatabase database() {
    return DATABASE;
  }
}
