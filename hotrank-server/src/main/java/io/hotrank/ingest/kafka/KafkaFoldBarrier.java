package io.hotrank.ingest.kafka;

import io.hotrank.ingest.FoldListeners;
import io.hotrank.ingest.FoldNumbers;
import io.hotrank.ingest.FoldOnRequest;
import io.hotrank.ingest.InFlightFolds;
import io.hotrank.ingest.IngestOverloadedException;
import io.hotrank.time.Ticker;
import java.time.Duration;
import java.util.Map;

/**
 * A manual fold on Kafka: the folders fold all the time, on whichever instances hold the
 * partitions, so the call waits until the stored positions of every partition have reached the high
 * watermarks the topic had when the call began (everything committed before it, including a batch
 * whose {@code 202} came just before, whose transaction markers the broker may not have written
 * yet), then brings this instance's Redis side up to the last fold. Bounded by {@link #WAIT}; past
 * it, 503.
 */
final class KafkaFoldBarrier implements FoldOnRequest {

  static final Duration WAIT = Duration.ofSeconds(30);
  private static final long STEP_MILLIS = 20;

  private final KafkaTopics topics;
  private final KafkaFoldStore positions;
  private final FoldNumbers numbers;
  private final FoldListeners listeners;
  private final InFlightFolds inFlight;
  private final Ticker ticker;

  KafkaFoldBarrier(
      KafkaTopics topics,
      KafkaFoldStore positions,
      FoldNumbers numbers,
      FoldListeners listeners,
      InFlightFolds inFlight,
      Ticker ticker) {
    this.inFlight = inFlight;
    this.ticker = ticker;
    this.topics = topics;
    this.positions = positions;
    this.numbers = numbers;
    this.listeners = listeners;
  }

  @Override
  public Summary foldAll(int maxFolds, Progress progress) {
    long before = numbers.lastFoldNo();
    Map<Integer, Long> ends = topics.highWatermarks();
    long deadline = ticker.read() + WAIT.toNanos();
    Map<Integer, Long> at = positions.positions(topics.topic(), ends.keySet());
    while (!reached(at, ends)) {
      if (ticker.read() > deadline) {
        throw new IngestOverloadedException(
            "the folders of '"
                + topics.topic()
                + "' did not reach the offsets "
                + ends
                + " in "
                + WAIT.toSeconds()
                + " s; they stand at "
                + at);
      }
      try {
        Thread.sleep(STEP_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IngestOverloadedException("interrupted while waiting for the folders");
      }
      at = positions.positions(topics.topic(), ends.keySet());
    }
    // This instance's folder may have committed the last of those folds and still be telling its
    // listeners; catching up beside it would race it (bounded: a folder stuck on a slow Redis
    // does not hold the call for ever; the catch-up below then covers what it missed).
    try {
      inFlight.awaitBegun(100, 100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IngestOverloadedException("interrupted while waiting for the folders");
    }
    long last = numbers.lastFoldNo();
    listeners.idle(last);
    long sum = at.values().stream().mapToLong(Long::longValue).sum();
    return new Summary((int) Math.min(Integer.MAX_VALUE, last - before), 0, last, sum, 0);
  }

  private static boolean reached(Map<Integer, Long> at, Map<Integer, Long> ends) {
    for (Map.Entry<Integer, Long> end : ends.entrySet()) {
      long position = at.getOrDefault(end.getKey(), 0L);
      if (position < end.getValue()) {
        return false;
      }
    }
    return true;
  }
}
