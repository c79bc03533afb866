package io.hotrank.bench.tasks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;

/**
 * What the benchmark's executions do, the same whichever scheduler runs them. Side effects are rows
 * in {@value #TABLE}, one per (execution id, phase) each time a phase runs, with no unique key: an
 * execution run twice leaves its rows twice, which is what the stall scenario counts.
 */
public final class Workload {

  /** The side-effect table, in the bench database next to the scheduler's own tables. */
  static final String TABLE = "bench_task_effect";

  /** The three tasks of the benchmark; each scheduler registers one task per kind. */
  public enum Kind {
    /** Throughput: does nothing, writes nothing. */
    NOOP("bench-noop"),
    /**
     * Throughput's warm-up: as {@link #NOOP}, due an hour earlier, so that both instances run these
     * first (every scheduler here takes due executions earliest first).
     */
    WARMUP("bench-warmup"),
    /** Takeover: writes its start, then runs until interrupted (at most {@link #longRun}). */
    LONG("bench-long"),
    /** Stall: writes its start, runs for {@link #stallRun}, writes its end. */
    STALL("bench-stall");

    /** The task's name in the scheduler. */
    public final String taskName;

    Kind(String taskName) {
      this.taskName = taskName;
    }
  }

  private final DataSource dataSource;
  private final String instance;
  private final Duration longRun;
  private final Duration stallRun;
  private final LongAdder executed = new LongAdder();

  Workload(DataSource dataSource, String instance, Duration longRun, Duration stallRun) {
    this.dataSource = dataSource;
    this.instance = instance;
    this.longRun = longRun;
    this.stallRun = stallRun;
  }

  /**
   * Runs one execution of {@code kind}; called by the scheduler's task on its execution thread.
   * Returns early, with the interrupt flag set, when the thread is interrupted (a stopping
   * scheduler).
   */
  public void run(Kind kind, String id) {
    executed.increment();
    try {
      switch (kind) {
        case NOOP, WARMUP -> {}
        case LONG -> {
          recordStart(id);
          Thread.sleep(longRun);
        }
        case STALL -> {
          recordStart(id);
          Thread.sleep(stallRun);
          recordEnd(id);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Writes the start side effect of execution {@code id}, stamped with this instance and the time
   * (µs) at which the execution began. Public so that an implementation whose task API differs can
   * write the effects itself.
   */
  public void recordStart(String id) {
    record(id, "start");
  }

  /** Writes the end side effect of execution {@code id}. */
  public void recordEnd(String id) {
    record(id, "end");
  }

  /** Counts an execution begun by a scheduler that writes the effects itself. */
  public void countExecution() {
    executed.increment();
  }

  /** How long a stall execution works between its start and its end. */
  public Duration stallRun() {
    return stallRun;
  }

  /** Executions this instance has begun (every kind), duplicates included. */
  long executed() {
    return executed.sum();
  }

  private void record(String id, String phase) {
    long atMicros = micros(Instant.now());
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO "
                    + TABLE
                    + " (task_id, phase, instance, at_micros) VALUES (?,?,?,?)")) {
      ps.setString(1, id);
      ps.setString(2, phase);
      ps.setString(3, instance);
      ps.setLong(4, atMicros);
      ps.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("Could not record the " + phase + " of " + id, e);
    }
  }

  static long micros(Instant instant) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }

  /** Creates the side-effect table if absent and empties it. */
  static void resetTable(DataSource dataSource) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      // Same DDL on PostgreSQL and MariaDB; no key on purpose (duplicates are the measurement).
      s.execute(
          "CREATE TABLE IF NOT EXISTS "
              + TABLE
              + " (task_id VARCHAR(100) NOT NULL, phase VARCHAR(8) NOT NULL,"
              + " instance VARCHAR(16) NOT NULL, at_micros BIGINT NOT NULL)");
      s.execute("TRUNCATE TABLE " + TABLE);
    }
  }
}
