package io.hotrank.board.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardSnapshot;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * A save whose statement InnoDB picked as a deadlock's loser (seen on MariaDB when concurrent first
 * saves of a board race) is asked again; one that keeps losing fails after five tries.
 */
class BoardSnapshotStoreDeadlockTest {

  /** Fails the guarded UPDATE as a deadlock's loser, {@code deadlocks} times. */
  static final class DeadlockingJdbc extends JdbcTemplate {
    final AtomicInteger deadlocks;
    final AtomicInteger updates = new AtomicInteger();

    DeadlockingJdbc(SingleConnectionDataSource data, int deadlocks) {
      super(data);
      this.deadlocks = new AtomicInteger(deadlocks);
    }

    @Override
    public int update(String sql, Object... args) {
      if (sql.startsWith("UPDATE hr_board_snapshot")) {
        updates.incrementAndGet();
        if (deadlocks.getAndDecrement() > 0) {
          throw new CannotAcquireLockException("Deadlock found when trying to get lock");
        }
      }
      return super.update(sql, args);
    }
  }

  private SingleConnectionDataSource data;

  @BeforeEach
  void table() {
    data =
        new SingleConnectionDataSource(
            "jdbc:h2:mem:deadlock-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1", "sa", "", true);
    new JdbcTemplate(data)
        .execute(
            "CREATE TABLE hr_board_snapshot (board VARCHAR(160) NOT NULL PRIMARY KEY, version"
                + " BIGINT NOT NULL, computed_at BIGINT NOT NULL, payload CLOB NOT NULL, fence"
                + " BIGINT NOT NULL DEFAULT 0, family VARCHAR(64), segment VARCHAR(64),"
                + " entries INT NOT NULL DEFAULT 0)");
  }

  @Test
  void aSaveThatLostADeadlock_isAskedAgain_andStores() {
    DeadlockingJdbc jdbc = new DeadlockingJdbc(data, 2);
    BoardSnapshotStore store =
        new BoardSnapshotStore(
            new JdbcTemplate(data),
            new org.springframework.jdbc.support.JdbcTransactionManager(data));
    assertThat(store.save(snapshot(1), 0)).isEqualTo(BoardSnapshotStore.Saved.STORED);
    BoardSnapshotStore deadlocking =
        new BoardSnapshotStore(
            jdbc,
            new org.springframework.jdbc.support.JdbcTransactionManager(jdbc.getDataSource()));
    assertThat(deadlocking.save(snapshot(2), 0)).isEqualTo(BoardSnapshotStore.Saved.STORED);
    assertThat(jdbc.updates.get()).isEqualTo(3);
    assertThat(store.version("b")).isEqualTo(2);
  }

  @Test
  void aSaveThatKeepsLosing_failsAfterFiveTries_changingNothing() {
    DeadlockingJdbc jdbc = new DeadlockingJdbc(data, Integer.MAX_VALUE);
    BoardSnapshotStore store =
        new BoardSnapshotStore(
            new JdbcTemplate(data),
            new org.springframework.jdbc.support.JdbcTransactionManager(data));
    store.save(snapshot(1), 0);
    assertThatThrownBy(
            () ->
                new BoardSnapshotStore(
                        jdbc,
                        new org.springframework.jdbc.support.JdbcTransactionManager(
                            jdbc.getDataSource()))
                    .save(snapshot(2), 0))
        .isInstanceOf(CannotAcquireLockException.class);
    assertThat(jdbc.updates.get()).isEqualTo(5);
    assertThat(store.version("b")).isEqualTo(1);
  }

  private static BoardSnapshot snapshot(long version) {
    return BoardSnapshot.of(
        "b",
        version,
        Instant.ofEpochMilli(1_780_000_000_000L + version),
        List.<BoardEntry>of(),
        10);
  }
}
