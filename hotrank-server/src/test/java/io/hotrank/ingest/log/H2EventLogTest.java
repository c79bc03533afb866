package io.hotrank.ingest.log;

import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The event log and its folder on H2, as the embedded default runs it: a file database of its own.
 */
class H2EventLogTest extends EventLogContract {

  @RegisterExtension static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.H2);

  @Override
  protected MigratedDatabase database() {
    return DATABASE;
  }
}
