package io.hotrank.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hotrank.support.MutableTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class TieredLoaderTest {

  private final MutableTicker ticker = new MutableTicker();
  private final List<String> failures = new ArrayList<>();

  private TieredLoader<String, String> loader(
      Duration missMemory,
      Function<String, Optional<String>> first,
      Function<String, Optional<String>> second) {
    return new TieredLoader<>(
        List.of(new TieredLoader.Tier<>("redis", first), new TieredLoader.Tier<>("db", second)),
        missMemory,
        ticker,
        (key, tier, e) -> {
          synchronized (failures) {
            failures.add(key + "@" + tier + ": " + e.getMessage());
          }
        });
  }

  @Test
  void load_asksTiersInOrder_andNamesTheTierThatHadTheKey() {
    TieredLoader<String, String> loader =
        loader(Duration.ZERO, k -> Optional.empty(), k -> Optional.of("v-" + k));

    var loaded = loader.load("a").orElseThrow();

    assertThat(loaded.value()).isEqualTo("v-a");
    assertThat(loaded.tier()).isEqualTo("db");
  }

  @Test
  void aFailingTier_isReported_andTheNextTierAnswers() {
    TieredLoader<String, String> loader =
        loader(
            Duration.ZERO,
            k -> {
              throw new IllegalStateException("redis down");
            },
            k -> Optional.of("from-db"));

    assertThat(loader.load("a").orElseThrow().value()).isEqualTo("from-db");
    assertThat(failures).containsExactly("a@redis: redis down");
  }

  /**
   * The invariant of single flight: never two loads of one key at the same time. Readers that
   * arrive while a load runs join it; only one arriving after it completed starts another.
   */
  @Test
  void concurrentLoadsOfOneKey_neverOverlap_andReadersShareTheirValue() throws Exception {
    int readers = 32;
    AtomicInteger arrived = new AtomicInteger();
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger maxInFlight = new AtomicInteger();
    TieredLoader<String, String> loader =
        loader(
            Duration.ZERO,
            k -> {
              calls.incrementAndGet();
              maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
              // The load lasts until every reader has called load(): they all find it running.
              await().atMost(Duration.ofSeconds(10)).until(() -> arrived.get() == readers);
              inFlight.decrementAndGet();
              return Optional.of("shared");
            },
            k -> Optional.empty());
    ExecutorService pool = Executors.newFixedThreadPool(readers);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<Optional<TieredLoader.Loaded<String>>>> loads = new ArrayList<>();
      for (int i = 0; i < readers; i++) {
        loads.add(
            pool.submit(
                () -> {
                  start.await();
                  arrived.incrementAndGet();
                  return loader.load("hot");
                }));
      }
      start.countDown();
      for (var load : loads) {
        assertThat(load.get(10, TimeUnit.SECONDS).orElseThrow().value()).isEqualTo("shared");
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(maxInFlight.get()).as("loads of one key running at once").isEqualTo(1);
    assertThat(calls.get()).as("loads for %d readers", readers).isLessThan(readers);
  }

  @Test
  void loadsOfDifferentKeys_doNotWaitForEachOther() throws Exception {
    CountDownLatch bothInside = new CountDownLatch(2);
    TieredLoader<String, String> loader =
        loader(
            Duration.ZERO,
            k -> {
              bothInside.countDown();
              awaitLatch(bothInside); // deadlocks unless the two keys load at the same time
              return Optional.of(k);
            },
            k -> Optional.empty());
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<Optional<TieredLoader.Loaded<String>>> a = pool.submit(() -> loader.load("a"));
      Future<Optional<TieredLoader.Loaded<String>>> b = pool.submit(() -> loader.load("b"));
      assertThat(a.get(10, TimeUnit.SECONDS).orElseThrow().value()).isEqualTo("a");
      assertThat(b.get(10, TimeUnit.SECONDS).orElseThrow().value()).isEqualTo("b");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anExceptionOutsideTheTiers_reachesTheCallerAndThoseWhoJoinedIt() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    TieredLoader<String, String> loader =
        new TieredLoader<>(
            List.of(
                new TieredLoader.Tier<>(
                    "redis",
                    k -> {
                      entered.countDown();
                      awaitLatch(release);
                      throw new IllegalStateException("down");
                    })),
            Duration.ZERO,
            ticker,
            (key, tier, e) -> {
              throw new IllegalArgumentException("listener broke");
            });
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<?> owner = pool.submit(() -> loader.load("k"));
      assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
      AtomicReference<Thread> joining = new AtomicReference<>();
      Future<?> joiner =
          pool.submit(
              () -> {
                joining.set(Thread.currentThread());
                return loader.load("k");
              });
      awaitWaiting(joining); // the joiner waits on the shared load
      release.countDown();
      for (Future<?> call : List.of(owner, joiner)) {
        assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS))
            .hasRootCauseInstanceOf(IllegalArgumentException.class)
            .hasRootCauseMessage("listener broke");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aKeyFoundNowhere_isRememberedForTheMissMemory_thenAskedAgain() {
    AtomicInteger asked = new AtomicInteger();
    TieredLoader<String, String> loader =
        loader(
            Duration.ofMillis(250),
            k -> {
              asked.incrementAndGet();
              return Optional.empty();
            },
            k -> Optional.empty());

    assertThat(loader.missedRecently("ghost")).isFalse();
    assertThat(loader.load("ghost")).isEmpty();
    assertThat(loader.missedRecently("ghost")).isTrue();
    ticker.advance(Duration.ofMillis(249));
    assertThat(loader.missedRecently("ghost")).isTrue();
    ticker.advance(Duration.ofMillis(1));
    assertThat(loader.missedRecently("ghost")).isFalse();
    assertThat(loader.missedRecently("other")).isFalse();
    assertThat(asked.get()).isEqualTo(1);
  }

  @Test
  void aKeyFoundAfterAMiss_isNoLongerRememberedAsMissing() {
    AtomicInteger round = new AtomicInteger();
    TieredLoader<String, String> loader =
        loader(
            Duration.ofSeconds(10),
            k -> round.getAndIncrement() == 0 ? Optional.empty() : Optional.of("now here"),
            k -> Optional.empty());

    assertThat(loader.load("k")).isEmpty();
    assertThat(loader.missedRecently("k")).isTrue();
    assertThat(loader.load("k")).isPresent();
    assertThat(loader.missedRecently("k")).isFalse();
  }

  @Test
  void forgetMiss_endsTheMemoryOfAMissAtOnce() {
    TieredLoader<String, String> loader =
        loader(Duration.ofSeconds(10), k -> Optional.empty(), k -> Optional.empty());
    assertThat(loader.load("k")).isEmpty();
    assertThat(loader.missedRecently("k")).isTrue();

    loader.forgetMiss("k");

    assertThat(loader.missedRecently("k")).isFalse();
  }

  /** Regression guard: an Error in a shared load once left the readers who joined it waiting. */
  @Test
  void anErrorInASharedLoad_reachesTheReadersWhoJoinedIt() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    TieredLoader<String, String> loader =
        loader(
            Duration.ZERO,
            k -> {
              entered.countDown();
              awaitLatch(release);
              throw new StackOverflowError("deep");
            },
            k -> Optional.empty());
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<?> owner = pool.submit(() -> loader.load("k"));
      assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
      AtomicReference<Thread> joining = new AtomicReference<>();
      Future<?> joiner =
          pool.submit(
              () -> {
                joining.set(Thread.currentThread());
                return loader.load("k");
              });
      awaitWaiting(joining); // the joiner waits on the shared load
      release.countDown();
      for (Future<?> reader : List.of(owner, joiner)) {
        assertThatThrownBy(() -> reader.get(5, TimeUnit.SECONDS))
            .hasRootCauseInstanceOf(StackOverflowError.class);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void zeroMissMemory_remembersNothing() {
    TieredLoader<String, String> loader =
        loader(Duration.ZERO, k -> Optional.empty(), k -> Optional.empty());
    assertThat(loader.load("k")).isEmpty();
    assertThat(loader.missedRecently("k")).isFalse();
  }

  /** Waits, at most ten seconds, until the thread is parked waiting (on the shared load). */
  private static void awaitWaiting(AtomicReference<Thread> thread) {
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                thread.get() != null
                    && (thread.get().getState() == Thread.State.WAITING
                        || thread.get().getState() == Thread.State.TIMED_WAITING));
  }

  private static void awaitLatch(CountDownLatch latch) {
    try {
      if (!latch.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("not released within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
