package io.hotrank.task;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gauges {@code hotrank.task.consecutive.failures}, one per task that has failed in a row, as
 * the database has the counts: read every few seconds by the upkeep ({@link TaskUpkeep}), and set
 * at once by a completion here, so that every instance reports the same. A task whose last run
 * succeeded has no gauge (read as 0): a platform of many tasks keeps one series per failing task,
 * not one per task, and a completion looks up no meter. Thread-safe.
 */
final class FailureGauges {

  private static final String NAME = "hotrank.task.consecutive.failures";

  private final MeterRegistry meters;
  private final Map<String, AtomicInteger> gauges = new ConcurrentHashMap<>();

  FailureGauges(MeterRegistry meters) {
    this.meters = meters;
  }

  /** Sets a task's failures in a row: its gauge is registered while they are above 0. */
  void set(String task, int count) {
    if (count > 0) {
      gauges
          .computeIfAbsent(
              task, name -> meters.gauge(NAME, List.of(Tag.of("task", name)), new AtomicInteger()))
          .set(count);
    } else if (gauges.containsKey(task)) {
      remove(task);
    }
  }

  /**
   * Sets every failing task's gauge to the database's count ({@code failures} holds those above 0),
   * removing the others.
   */
  void setAll(Map<String, Integer> failures) {
    failures.forEach(this::set);
    for (String gone : List.copyOf(gauges.keySet())) {
      if (!failures.containsKey(gone)) {
        remove(gone);
      }
    }
  }

  private void remove(String task) {
    gauges.remove(task);
    meters.remove(new Meter.Id(NAME, Tags.of("task", task), null, null, Meter.Type.GAUGE));
  }
}
