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
 * The gauges {@code hotrank.task.consecutive.failures}, one per task, as the database has the
 * counts: read every few seconds by the upkeep ({@link TaskUpkeep}), and set at once by a
 * completion here, so that every instance reports the same. Thread-safe.
 */
final class FailureGauges {

  private static final String NAME = "hotrank.task.consecutive.failures";

  private final MeterRegistry meters;
  private final Map<String, AtomicInteger> gauges = new ConcurrentHashMap<>();

  FailureGauges(MeterRegistry meters) {
    this.meters = meters;
  }

  /** The gauge of a task, registered on first use. */
  AtomicInteger of(String task) {
    return gauges.computeIfAbsent(
        task, name -> meters.gauge(NAME, List.of(Tag.of("task", name)), new AtomicInteger()));
  }

  /** Sets every task's gauge to the database's count, removing the gauges of tasks gone. */
  void setAll(Map<String, Integer> failures) {
    failures.forEach((task, count) -> of(task).set(count));
    for (String gone : List.copyOf(gauges.keySet())) {
      if (!failures.containsKey(gone)) {
        gauges.remove(gone);
        meters.remove(new Meter.Id(NAME, Tags.of("task", gone), null, null, Meter.Type.GAUGE));
      }
    }
  }
}
