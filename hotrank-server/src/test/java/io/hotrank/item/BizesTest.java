package io.hotrank.item;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hotrank.support.MutableTicker;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

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
    // The boards' bizes, as the board registry declares them.
    List<String> declared = List.of("news", "clip");
    return new Bizes(
        store, new BizProperties(List.of(configured)), Clock.systemUTC(), ticker, declared);
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
      // One reads (held at the gate), the seven others queue behind it.
      await().until(() -> store.reads.get() - before == 1 && bizes.waiting() == 7);
      store.gate.countDown();
      for (Future<Boolean> answer : answers) {
        assertThat(answer.get()).isTrue();
      }
    } finally {
      threads.shutdownNow();
    }
    assertThat(store.reads.get() - before).isEqualTo(1);
  }

  /**
   * Misses of random names that queue behind a slow read (longer than {@link Bizes#REREAD_EVERY})
   * take its answer: one read, not one per waiter after another (which made the k-th waiter wait k
   * reads, and the filter job's list behind them).
   */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void missesQueuedBehindASlowRead_takeItsAnswer_withoutReadingAgain() throws Exception {
    Bizes bizes = bizes();
    store.rows.put("video", 1L);
    int before = store.reads.get();
    store.gate = new CountDownLatch(1);
    List<String> names = names(16);
    ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    try {
      List<Future<Boolean>> answers =
          names.stream().map(name -> threads.submit(() -> bizes.known(name))).toList();
      await().until(() -> store.reads.get() - before == 1 && bizes.waiting() == names.size() - 1);
      ticker.advance(Duration.ofSeconds(3)); // the read is slow
      store.gate.countDown();
      for (int i = 0; i < names.size(); i++) {
        assertThat(answers.get(i).get()).as(names.get(i)).isEqualTo(names.get(i).equals("video"));
      }
    } finally {
      store.gate.countDown();
      threads.shutdownNow();
    }
    assertThat(store.reads.get() - before).isEqualTo(1);
  }

  /**
   * A slow read that fails: the misses that waited for it answer a storage failure each (an
   * exception of their own, caused by the read's), and nobody reads again.
   */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void missesQueuedBehindAFailingRead_answerAStorageFailureEach_withoutReadingAgain()
      throws Exception {
    Bizes bizes = bizes();
    int before = store.reads.get();
    store.down = true;
    store.gate = new CountDownLatch(1);
    List<String> names = names(16);
    List<Throwable> failures = new ArrayList<>();
    ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    try {
      List<Future<Boolean>> answers =
          names.stream().map(name -> threads.submit(() -> bizes.known(name))).toList();
      await().until(() -> store.reads.get() - before == 1 && bizes.waiting() == names.size() - 1);
      ticker.advance(Duration.ofSeconds(3));
      store.gate.countDown();
      for (Future<Boolean> answer : answers) {
        failures.add(assertThrows(ExecutionException.class, answer::get).getCause());
      }
    } finally {
      store.gate.countDown();
      threads.shutdownNow();
    }
    assertThat(store.reads.get() - before).isEqualTo(1);
    assertThat(failures)
        .allSatisfy(e -> assertThat(e).isInstanceOf(DataAccessResourceFailureException.class));
    assertThat(failures)
        .as("each caller its own exception")
        .doesNotHaveDuplicates()
        .allSatisfy(
            e -> assertThat(e.getCause() == null ? e : e.getCause()).hasMessage("database down"));
  }

  /**
   * A read that hangs (a database that takes connections but never answers) holds misses up for
   * {@link Bizes#WAIT} at most: then they answer a storage failure (503 with Retry-After) instead
   * of queueing, and so does the full list; known bizes keep working meanwhile.
   */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aHangingRead_holdsOtherMissesUpForTheWaitAtMost() throws Exception {
    Bizes bizes = bizes("news");
    int before = store.reads.get();
    store.gate = new CountDownLatch(1);
    ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    try {
      Future<Boolean> reading = threads.submit(() -> bizes.known("first"));
      await().until(() -> store.reads.get() - before == 1);
      List<Future<?>> waiting = new ArrayList<>();
      for (String name : names(8)) {
        waiting.add(threads.submit(() -> bizes.known(name)));
      }
      waiting.add(threads.submit(bizes::all));
      for (Future<?> waiter : waiting) {
        // Unbounded, they would wait here until the test's timeout.
        assertThat(assertThrows(ExecutionException.class, waiter::get).getCause())
            .isInstanceOf(DataAccessResourceFailureException.class);
      }
      assertThat(bizes.known("news")).isTrue();
      assertThat(reading.isDone()).as("the read still hangs").isFalse();
      store.gate.countDown();
      assertThat(reading.get()).isFalse();
    } finally {
      store.gate.countDown();
      threads.shutdownNow();
    }
    assertThat(store.reads.get() - before).isEqualTo(1);
  }

  /** Distinct names that are no biz, in random order. */
  private static List<String> names(int count) {
    List<String> names = new ArrayList<>();
    names.add("video");
    for (int i = 1; i < count; i++) {
      names.add("random-" + UUID.randomUUID());
    }
    Collections.shuffle(names);
    return names;
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

  /**
   * Regression (issue 24 review): the service's constructor took the audit log and the transaction
   * manager as optional, so a missing bean would have made an operator's create store a biz with no
   * audit entry.
   */
  @Test
  void theServicesConstructor_requiresTheAuditLogAndTheTransactionManager() {
    org.springframework.beans.factory.ObjectProvider<DeclaredBizes> declared =
        new org.springframework.beans.factory.support.StaticListableBeanFactory()
            .getBeanProvider(DeclaredBizes.class);
    BizProperties properties = new BizProperties(List.of());
    assertThatThrownBy(
            () ->
                new Bizes(
                    store,
                    properties,
                    Clock.systemUTC(),
                    ticker,
                    declared,
                    null,
                    new DataSourceTransactionManager()))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("audit");
    assertThatThrownBy(
            () -> new Bizes(store, properties, Clock.systemUTC(), ticker, declared, null, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("transactions");
  }

  @Test
  void anOperatorsCreate_withoutAnAuditLog_failsAndStoresNothing() {
    Bizes bizes = bizes();
    assertThatThrownBy(() -> bizes.create("unaudited", "alice", "why"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("without an audit log");
    assertThat(store.rows).doesNotContainKey("unaudited");
    assertThat(bizes.create("unaudited").created()).as("the tests' own create").isTrue();
  }
}
