package io.hotrank.lock;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.MigratedDatabase;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lease contract on a database ({@link JdbcLeaseStore}, rows of {@code hr_lease}), with what
 * only a database store promises on top. One subclass per engine.
 */
abstract class JdbcLeaseStoreContract extends LeaseStoreContract {

  /** The engine under test, registered by the subclass as a static extension. */
  protected abstract MigratedDatabase database();

  @BeforeEach
  void removeContractLeases() {
    database().jdbc().update("DELETE FROM hr_lease WHERE name LIKE ?", "contract-%");
  }

  @Override
  protected LeaseStore store(InstanceId instance) {
    return new JdbcLeaseStore(database().jdbc(), database().dialect(), instance);
  }

  /** The expiry written is the database's now plus the time to live, not the instance's. */
  @Test
  void expiry_isSetFromTheDatabaseClock() {
    String name = freshName();
    store("instance-a").tryAcquire(name, Duration.ofSeconds(5)).orElseThrow();
    Long left =
        database()
            .jdbc()
            .queryForObject(
                "SELECT expires_at - "
                    + database().dialect().nowMillis()
                    + " FROM hr_lease WHERE name = ?",
                Long.class,
                name);
    assertThat(left).isBetween(4000L, 5000L);
  }
}
