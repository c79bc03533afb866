package io.hotrank.ingest.fold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** An admin fold waits for the attempts begun before it, and only for those. */
class InFlightFoldsTest {

  @Test
  void awaitBegun_waitsForAnAttemptBegunBefore_untilItEnds() throws Exception {
    InFlightFolds folds = new InFlightFolds();
    long telling = folds.begin(); // the scheduled folder, still telling the listeners
    AtomicReference<Thread> adminThread = new AtomicReference<>();
    CompletableFuture<Boolean> admin =
        CompletableFuture.supplyAsync(
            () -> {
              adminThread.set(Thread.currentThread());
              try {
                return folds.awaitBegun(100, 100);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    // The admin call is parked in its bounded wait, not done.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                adminThread.get() != null
                    && adminThread.get().getState() == Thread.State.TIMED_WAITING);
    assertThat(admin).isNotDone();
    folds.end(telling);
    assertThat(admin.get(5, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void awaitBegun_answersAtOnceWithNothingRunning_andGivesUpWhenBounded() throws Exception {
    InFlightFolds folds = new InFlightFolds();
    assertThat(folds.awaitBegun(1, 1)).isTrue();
    long stuck = folds.begin();
    assertThat(folds.awaitBegun(3, 10)).as("bounded: gives up on a stuck attempt").isFalse();
    folds.end(stuck);
    long later = folds.begin();
    folds.end(later);
    assertThat(folds.awaitBegun(1, 1)).isTrue();
  }
}
