package io.hotrank.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

  @Test
  void concurrentLoadsOfOneKey_shareOneLoad_andAllGetItsValue() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    TieredLoader<String, String> loader =
        loader(
            Duration.ZERO,
            k -> {
              calls.incrementAndGet();
              await(release);
              return Optional.of("shared");
            },
            k -> Optional.empty());
    int readers = 32;
    ExecutorService pool = Executors.newFixedThreadPool(readers);
    try {
      List<Future<Optional<TieredLoader.Loaded<String>>>> loads = new ArrayList<>();
      for (int i = 0; i < readers; i++) {
        loads.add(pool.submit(() -> loader.load("hot")));
      }
      // Let every reader reach the loader before the one load completes.
      Thread.sleep(200);
      release.countDown();
      for (var load : loads) {
        assertThat(load.get(10, TimeUnit.SECONDS).orElseThrow().value()).isEqualTo("shared");
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(calls.get()).as("loads of the tier").isBetween(1, readers / 4);
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
                      await(release);
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
      Future<?> joiner = pool.submit(() -> loader.load("k"));
      Thread.sleep(100);
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
    loader.forgetMiss("k");
    assertThat(loader.missedRecently("k")).isFalse();
  }

  @Test
  void zeroMissMemory_remembersNothing() {
    TieredLoader<String, String> loader =
        loader(Duration.ZERO, k -> Optional.empty(), k -> Optional.empty());
    assertThat(loader.load("k")).isEmpty();
    assertThat(loader.missedRecently("k")).isFalse();
  }

  private static void await(CountDownLatch latch) {
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
