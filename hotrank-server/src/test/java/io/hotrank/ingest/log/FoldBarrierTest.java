package io.hotrank.ingest.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hotrank.ingest.FoldBehindException;
import io.hotrank.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The barrier's fold loop: one loop for every concurrent caller (one fold at a time, so one
 * database connection), and a caller served only by a fold that began after it arrived.
 */
class FoldBarrierTest {

  private static final Duration BOUND = Duration.ofSeconds(5);

  @Test
  void concurrentCallersShareOneFoldAtATime() throws Exception {
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    AtomicLong position = new AtomicLong();
    int callerCount = 100;
    AtomicInteger arrived = new AtomicInteger();
    FoldBarrier barrier =
        new FoldBarrier(
            () -> {
              mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
              try {
                if (position.get() == 0) {
                  // The first fold lasts until every caller has arrived, so that they all call
                  // while a fold is running: a barrier that let one start its own would show.
                  await().atMost(BOUND).until(() -> arrived.get() == callerCount);
                }
                long at = position.addAndGet(10);
                return new FoldBarrier.Attempt(true, new FoldCursor(at, List.of(), at / 10));
              } finally {
                running.decrementAndGet();
              }
            },
            Ticker.system());
    List<Future<Long>> calls = new ArrayList<>();
    try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < callerCount; i++) {
        long head = 10L * (i % 20 + 1);
        calls.add(
            callers.submit(
                () -> {
                  arrived.incrementAndGet();
                  return barrier.awaitPast(head, BOUND);
                }));
      }
      for (int i = 0; i < calls.size(); i++) {
        long foldNo = calls.get(i).get(10, TimeUnit.SECONDS);
        assertThat(foldNo * 10)
            .as("call %d's fold reached its head", i)
            .isGreaterThanOrEqualTo(10L * (i % 20 + 1));
      }
    }
    assertThat(mostAtOnce.get()).as("folds running at once").isEqualTo(1);
  }

  @Test
  void aFoldBegunBeforeTheCall_orOneThatFailed_doesNotServeIt() throws Exception {
    CountDownLatch firstBegun = new CountDownLatch(1);
    CountDownLatch releaseFirst = new CountDownLatch(1);
    AtomicInteger attempts = new AtomicInteger();
    FoldBarrier barrier =
        new FoldBarrier(
            () -> {
              int n = attempts.incrementAndGet();
              if (n == 1) {
                firstBegun.countDown();
                try {
                  releaseFirst.await();
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              }
              if (n == 2) {
                throw new IllegalStateException("a lock wait timed out");
              }
              // Every attempt that succeeds reports the position past both heads.
              return new FoldBarrier.Attempt(n == 1, new FoldCursor(100, List.of(), n));
            },
            Ticker.system());
    try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<Long> early = callers.submit(() -> barrier.awaitPast(50, BOUND));
      assertThat(firstBegun.await(5, TimeUnit.SECONDS)).isTrue();
      // The first fold is in progress: a caller arriving now needs another one.
      Future<Long> late = callers.submit(() -> barrier.awaitPast(50, BOUND));
      // The late caller has registered (beside the early one) before the first fold ends.
      await().atMost(Duration.ofSeconds(5)).until(() -> barrier.waiting() == 2);
      releaseFirst.countDown();
      assertThat(early.get(5, TimeUnit.SECONDS)).isPositive();
      // Not the first (begun before it), not the second (failed): the third.
      assertThat(late.get(5, TimeUnit.SECONDS)).as("the fold that served it").isEqualTo(3);
    }
  }

  @Test
  void pastTheBoundItAnswersFoldBehindNamingTheFailure() {
    FoldBarrier barrier =
        new FoldBarrier(
            () -> {
              throw new IllegalStateException("database gone");
            },
            Ticker.system());
    assertThatThrownBy(() -> barrier.awaitPast(1, Duration.ofMillis(200)))
        .isInstanceOf(FoldBehindException.class)
        .hasMessageContaining("IllegalStateException");
  }
}
