package io.hotrank.bench.tasks;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;

/**
 * A task scheduler under test. {@link TaskBench} drives every implementation through the same
 * scenarios; an implementation only says how to set up its tables, enqueue executions, count the
 * ones not yet completed, and run one scheduler instance. Register an implementation in {@link
 * TaskBench#SCHEDULERS}.
 *
 * <p>Two kinds of callers: the coordinator (one JVM, no scheduler running) calls {@link
 * #resetTables}, {@link #enqueue} and {@link #pending}; each instance JVM calls {@link #node} once
 * and then {@link Node#start()} and {@link Node#stop()}. Implementations must therefore keep no
 * state between calls: each call may be in another process.
 */
public interface BenchScheduler {

  /** The name used on command lines and in the report, e.g. {@code db-scheduler}. */
  String name();

  /** The version measured, for the report. */
  String version();

  /** The modes measured on {@code db}, in report order, e.g. its polling strategies. */
  List<String> modes(BenchDb db);

  /** One line on how an instance is configured in {@code mode} on {@code db}, for the report. */
  String describe(BenchDb db, String mode, InstanceSettings settings);

  /**
   * The longest time from an instance's death (or stall) until another instance may start its
   * execution again, given {@code settings}: the stall scenario stops an instance for longer than
   * this, so that the other one has certainly taken over.
   */
  Duration takeoverBound(InstanceSettings settings);

  /**
   * Coordinator: creates the scheduler's tables if absent and removes every row, leaving no
   * leftover of an earlier run (a truncate rather than a delete, so no dead rows carry over).
   */
  void resetTables(DataSource dataSource, BenchDb db) throws Exception;

  /**
   * Coordinator: makes one execution of {@code kind} per id, all due now, and leaves the tables as
   * a running system would have them (e.g. planner statistics current).
   */
  void enqueue(DataSource dataSource, BenchDb db, Workload.Kind kind, List<String> ids)
      throws Exception;

  /**
   * Coordinator: executions of {@code kind} not yet completed, read from the database in exactly
   * one autocommit statement on {@code connection}: the harness subtracts one transaction per call
   * from the PostgreSQL transaction count.
   */
  long pending(Connection connection, BenchDb db, Workload.Kind kind) throws SQLException;

  /**
   * Coordinator: whether any execution of {@code kind} is not yet completed, as {@link #pending}
   * (one autocommit statement) but stopping at the first one found. The coordinator asks this every
   * 20 ms while the schedulers run: a count that reads every pending row each time would load the
   * database it measures.
   */
  boolean anyPending(Connection connection, BenchDb db, Workload.Kind kind) throws SQLException;

  /**
   * Instance: a scheduler instance named {@code instanceName} on {@code dataSource} (a pool of
   * {@code settings.threads() + 5} connections, all opened), built but not polling yet. Its tasks
   * call {@link Workload#run} with the execution's kind and id.
   */
  Node node(
      DataSource dataSource,
      BenchDb db,
      String mode,
      String instanceName,
      InstanceSettings settings,
      Workload workload)
      throws Exception;

  /** One scheduler instance in this JVM. */
  interface Node {

    /** Starts polling and executing. */
    void start() throws Exception;

    /** Stops, waiting about {@link InstanceSettings#shutdownWait()} for running executions. */
    void stop() throws Exception;
  }
}
