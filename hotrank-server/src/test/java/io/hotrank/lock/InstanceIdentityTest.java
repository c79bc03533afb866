package io.hotrank.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * How an instance finds a name it may call exclusive: the data directory's lock, or the presence
 * lease of a configured id in the database (H2 here, with the default presence time to live).
 */
class InstanceIdentityTest {

  @RegisterExtension static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.H2);

  private final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable closeable : opened.reversed()) {
      closeable.close();
    }
  }

  private <T extends AutoCloseable> T opened(T closeable) {
    opened.add(closeable);
    return closeable;
  }

  private InstanceIdentity configured(String id, LeaseWatchdog watchdog) {
    InstanceId probe = InstanceId.of(id);
    return InstanceIdentity.configured(
        probe,
        new JdbcLeaseStore(DATABASE.jdbc(), DATABASE.dialect(), probe),
        watchdog,
        Ticker.system());
  }

  private LeaseWatchdog watchdog() {
    return opened(new LeaseWatchdog(Ticker.system(), new SimpleMeterRegistry()));
  }

  @Test
  void theDataDirectory_namesOneProcessAtATime_andKeepsItsIdAcrossLives(@TempDir Path dir) {
    InstanceIdentity first = InstanceIdentity.fromDataDir(dir);
    InstanceId id = first.id();
    assertThat(id.exclusive()).isTrue();
    assertThat(Files.exists(dir.resolve("instance-id"))).isTrue();

    InstanceIdentity second = opened(InstanceIdentity.fromDataDir(dir));
    assertThat(second.id().exclusive()).as("the directory is held").isFalse();
    assertThat(second.id().value()).isNotEqualTo(id.value());

    first.close();
    InstanceIdentity next = opened(InstanceIdentity.fromDataDir(dir));
    assertThat(next.id().exclusive()).isTrue();
    assertThat(next.id().value()).isEqualTo(id.value());
    assertThat(next.id().incarnation()).isNotEqualTo(id.incarnation());
  }

  @Test
  void aDataDirectoryItCreates_isReadableByItsUserOnly(@TempDir Path parent) throws Exception {
    Path dir = parent.resolve("data");
    opened(InstanceIdentity.fromDataDir(dir));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
        .isEqualTo("rwx------");
  }

  @Test
  void aConfiguredId_inUseByALiveProcess_refusesToStart() {
    String id = "pod-" + UUID.randomUUID();
    InstanceIdentity alive = opened(configured(id, watchdog()));
    assertThat(alive.id().exclusive()).isTrue();

    assertThatThrownBy(() -> configured(id, watchdog()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("in use by another live process");
  }

  @Test
  void aConfiguredId_whoseEarlierProcessDied_isTakenOnceItsPresenceExpires() throws Exception {
    String id = "pod-" + UUID.randomUUID();
    LeaseWatchdog deadProcess = new LeaseWatchdog(Ticker.system(), new SimpleMeterRegistry());
    InstanceIdentity dead = configured(id, deadProcess);
    deadProcess.close(); // no more renewals, nothing released: as after kill -9

    InstanceIdentity restarted = opened(configured(id, watchdog()));
    assertThat(restarted.id().exclusive()).isTrue();
    assertThat(restarted.id().value()).isEqualTo(id);
    assertThat(restarted.id().incarnation()).isNotEqualTo(dead.id().incarnation());
  }
}
