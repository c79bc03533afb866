package io.hotrank.item;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotrank.support.MutableTicker;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.mock.env.MockEnvironment;

/**
 * The biz registry without Spring: which bizes are configured, how a miss re-reads the stored ones
 * (at most once a second, one thread at a time) and what a miss answers with the database down.
 */
class BizesTest {

  /** A store in memory that counts its reads and can be made to fail. */
  static final class Stored extends BizStore {
    final Map<String, Long> rows = new LinkedHashMap<>();
    final AtomicInteger reads = new AtomicInteger();
    volatile boolean down;
    volatile CountDownLatch gate = new CountDownLatch(0);

    Stored() {
      super(null);
    }

    @Override
    synchronized Map<String, Long> all() {
      reads.incrementAndGet();
      try {
        gate.await();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      if (down) {
        throw new DataAccessResourceFailureException("database down");
      }
      return new LinkedHashMap<>(rows);
    }

    @Override
    synchronized boolean insert(String name, long createdAt) {
      return rows.putIfAbsent(name, createdAt) == null;
    }
  }

  private final Stored store = new Stored();
  private final MutableTicker ticker = new MutableTicker();

  private Bizes bizes(String... configured) {
    MockEnvironment environment =
        new MockEnvironment()
            .withProperty("hotrank.boards[0].name", "news-hot")
            .withProperty("hotrank.boards[0].biz", "news")
            .withProperty("hotrank.boards[0].weights.like", "1")
            .withProperty("hotrank.boards[1].name", "clips")
            .withProperty("hotrank.boards[1].biz", "clip");
    return new Bizes(
        store, new BizProperties(List.of(configured)), Clock.systemUTC(), ticker, environment);
  }

  @Test
  void theConfiguredBizes_areTheListedOnesAndTheBoards() {
    Bizes bizes = bizes("video");
    assertThat(bizes.known("video")).isTrue();
    assertThat(bizes.known("news")).isTrue();
    assertThat(bizes.known("clip")).isTrue();
    assertThat(bizes.all())
        .extracting(Bizes.Biz::name, Bizes.Biz::configured)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("clip", true),
            org.assertj.core.groups.Tuple.tuple("news", true),
            org.assertj.core.groups.Tuple.tuple("video", true));
  }

  @Test
  void randomNames_reReadTheStoredBizes_atMostOnceASecond() {
    Bizes bizes = bizes();
    int before = store.reads.get();
    for (int i = 0; i < 1_000; i++) {
      assertThat(bizes.known("random" + i)).isFalse();
    }
    assertThat(store.reads.get() - before).isEqualTo(1);
    ticker.advance(Duration.ofSeconds(1));
    assertThat(bizes.known("another")).isFalse();
    assertThat(store.reads.get() - before).isEqualTo(2);
  }

  @Test
  void aBizStoredByAnotherInstance_isLearntOnTheNextMiss_aSecondAfterTheLast() {
    Bizes bizes = bizes();
    assertThat(bizes.known("video")).isFalse();
    store.rows.put("video", 1L); // created on another instance
    assertThat(bizes.known("video")).as("within the second").isFalse();
    ticker.advance(Duration.ofSeconds(1));
    assertThat(bizes.known("video")).isTrue();
    int reads = store.reads.get();
    assertThat(bizes.known("video")).isTrue();
    assertThat(store.reads.get()).as("a known biz is a lookup in memory").isEqualTo(reads);
  }

  @Test
  void concurrentMisses_shareOneRead() throws Exception {
    Bizes bizes = bizes();
    store.rows.put("video", 1L);
    int before = store.reads.get();
    store.gate = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<Boolean>> answers =
          java.util.stream.IntStream.range(0, 8)
              .mapToObj(i -> threads.submit(() -> bizes.known("video")))
              .toList();
      Thread.sleep(100); // let them queue behind the first read
      store.gate.countDown();
      for (Future<Boolean> answer : answers) {
        assertThat(answer.get()).isTrue();
      }
    } finally {
      threads.shutdownNow();
    }
    assertThat(store.reads.get() - before).isEqualTo(1);
  }

  @Test
  void aMiss_withTheDatabaseDown_isAStorageFailure_whileKnownBizesWork() {
    Bizes bizes = bizes("video");
    store.down = true;
    assertThatThrownBy(() -> bizes.known("other"))
        .isInstanceOf(DataAccessResourceFailureException.class);
    assertThatThrownBy(() -> bizes.known("other"))
        .as("within the second, without another query")
        .isInstanceOf(DataAccessResourceFailureException.class);
    assertThat(bizes.known("video")).isTrue();
    assertThat(bizes.known("news")).isTrue();
    store.down = false;
    ticker.advance(Duration.ofSeconds(1));
    assertThat(bizes.known("other")).isFalse();
  }

  @Test
  void create_storesOnce_andIsIdempotent() {
    Bizes bizes = bizes("video");
    Bizes.Created first = bizes.create("paper");
    assertThat(first.created()).isTrue();
    assertThat(first.biz().configured()).isFalse();
    assertThat(first.biz().createdAt()).isNotNull();
    assertThat(bizes.known("paper")).isTrue();
    assertThat(bizes.create("paper").created()).isFalse();
    Bizes.Created configured = bizes.create("video");
    assertThat(configured.created()).isFalse();
    assertThat(configured.biz().configured()).isTrue();
    assertThat(store.rows).containsOnlyKeys("paper");
    assertThatThrownBy(() -> bizes.create("Not A Biz"))
        .isInstanceOf(io.hotrank.problem.InvalidRequestException.class)
        .hasMessageStartingWith("name:");
  }
}
