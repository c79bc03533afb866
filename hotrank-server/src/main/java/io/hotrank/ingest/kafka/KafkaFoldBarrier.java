package io.hotrank.ingest.kafka;

import io.hotrank.ingest.FoldBehindException;
import io.hotrank.ingest.FoldOnRequest;
import io.hotrank.ingest.IngestOverloadedException;
import io.hotrank.ingest.fold.FoldListeners;
import io.hotrank.ingest.fold.FoldNumbers;
import io.hotrank.ingest.fold.InFlightFolds;
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
  private final Duration timeout;

  KafkaFoldBarrier(
      KafkaTopics topics,
      KafkaFoldStore positions,
      FoldNumbers numbers,
      FoldListeners listeners,
      InFlightFolds inFlight,
      Ticker ticker,
      Duration timeout) {
    this.timeout = timeout;
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
    Map<Integer, Long> at =
        awaitPositions(
            WAIT,
            (ends, now) ->
                new IngestOverloadedException(
                    "the folders of '"
                        + topics.topic()
                        + "' did not reach the offsets "
                        + ends
                        + " in "
                        + WAIT.toSeconds()
                        + " s; they stand at "
                        + now));
    long last = numbers.lastFoldNo();
    long sum = at.values().stream().mapToLong(Long::longValue).sum();
    return new Summary((int) Math.min(Integer.MAX_VALUE, last - before), 0, last, sum, 0);
  }

  @Override
  public void awaitAccepted() {
    awaitPositions(
        timeout,
        (ends, now) ->
            new FoldBehindException(
                timeout, "partitions at " + now + " of the offsets " + ends + " accepted"));
  }

  /**
   * Waits until the stored positions reach the high watermarks of the call's start, then brings
   * this instance's listeners up to the last fold.
   *
   * @return the positions reached
   */
  private Map<Integer, Long> awaitPositions(
      Duration timeout,
      java.util.function.BiFunction<Map<Integer, Long>, Map<Integer, Long>, RuntimeException>
          late) {
    Map<Integer, Long> ends = topics.highWatermarks();
    long deadline = ticker.read() + timeout.toNanos();
    Map<Integer, Long> at = positions.positions(topics.topic(), ends.keySet());
    while (!reached(at, ends)) {
      if (ticker.read() - deadline > 0) {
        throw late.apply(ends, at);
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
    listeners.idle(numbers.lastFoldNo());
    return at;
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
