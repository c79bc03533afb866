package io.hotrank.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.publish.BoardSnapshotStore;
import io.hotrank.board.publish.BoardSnapshotStore.Saved;
import io.hotrank.core.score.Interactions;
import io.hotrank.item.CounterPages;
import io.hotrank.item.CounterPages.CounterRow;
import io.hotrank.item.CounterStore;
import io.hotrank.item.Counters;
import io.hotrank.item.ItemCards;
import io.hotrank.item.ItemExistsException;
import io.hotrank.item.ItemStore;
import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The stores and the dialect against one real engine, in the style of db-scheduler's {@code
 * CompatibilityTest}: the same migrations users get, a session time zone other than UTC forced on
 * every connection (both from {@link MigratedDatabase}), and the claims that depend on the engine
 * driven through the stores with several threads and checked against what each thread recorded. One
 * subclass per engine; the {@link TestDatabase} says what the engine supports, and the detected
 * dialect must agree.
 *
 * <p>Every row this suite writes belongs to its own biz and board names, and the rows are removed
 * before each test, so it can share a database with the API tests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StorageCompatibilityContract {

  static final String BIZ = "compat";
  static final String BOARD = "compat-board";

  /** The labels of a counter row whose item the test does not look at. */
  static final ItemCards.Labels NO_LABELS =
      new ItemCards.Labels(1, List.of(), Collections.emptySortedMap(), 1);

  JdbcTemplate jdbc;
  SqlDialect dialect;
  TransactionTemplate tx;
  ItemStore items;
  CounterStore counters;
  BoardSnapshotStore snapshots;

  /** The engine under test, registered by the subclass as a static extension. */
  abstract MigratedDatabase database();

  @BeforeAll
  void createStores() {
    jdbc = database().jdbc();
    dialect = database().dialect();
    tx = database().tx();
    items = new ItemStore(jdbc, dialect);
    counters = new CounterStore(jdbc, dialect);
    snapshots =
        new BoardSnapshotStore(
            jdbc,
            new org.springframework.jdbc.support.JdbcTransactionManager(jdbc.getDataSource()));
  }

  @BeforeEach
  void removeThisSuitesRows() {
    for (String table : List.of("hr_user_action", "hr_item_counter", "hr_id_sequence", "hr_item")) {
      jdbc.update("DELETE FROM " + table + " WHERE biz LIKE ?", BIZ + "%");
    }
    jdbc.update("DELETE FROM hr_board_snapshot WHERE board LIKE ?", BOARD + "%");
  }

  /**
   * The database clock in epoch milliseconds, read under a +05:30 session zone, is the UTC instant:
   * leases compare against it, so an offset here would shift every expiry by hours.
   */
  @Test
  void theDatabaseClock_readsEpochMillisecondsInUtc_whateverTheSessionZone() {
    long before = System.currentTimeMillis();
    Long database = jdbc.queryForObject("SELECT " + dialect.nowMillis(), Long.class);
    long after = System.currentTimeMillis();
    // The database runs on this machine: the same clock, give or take rounding.
    assertThat(database).isBetween(before - 1000, after + 1000);
  }

  @Test
  void everyConnection_runsInTheForcedNonUtcSessionTimeZone() {
    String zone = jdbc.queryForObject(database().database().readSessionTimeZone(), String.class);
    assertThat(zone).isIn(TestDatabase.SESSION_ZONE_NAME, "+05:30");
  }

  @Test
  void theDetectedDialect_reportsWhatTheEngineSupports() {
    TestDatabase engine = database().database();
    assertThat(dialect.name()).isEqualTo(engine.expectedDialect());
    assertThat(dialect.supportsSkipLocked()).isEqualTo(engine.expectsSkipLocked());
    assertThat(dialect.supportsInsertIgnoringDuplicates())
        .isEqualTo(engine.expectsInsertIgnoringDuplicates());
    assertThat(dialect.supportsReturning()).isEqualTo(engine.expectsReturning());
    assertThat(dialect.supportsUpsert()).isTrue();
  }

  @Test
  void instants_roundTripToTheMillisecond_whateverTheSessionTimeZone() {
    Instant createdAt = Instant.parse("2026-03-29T01:30:00.123Z"); // a DST night in Europe
    Instant now = Instant.parse("2026-06-01T12:00:00.456Z");
    tx.executeWithoutResult(
        s -> {
          items.insert(
              BIZ, 1, 7, "t", List.of("a", "b"), Collections.emptySortedMap(), createdAt, now);
          counters.insertZero(
              BIZ,
              1,
              createdAt,
              new ItemCards.Labels(7, List.of("a", "b"), Collections.emptySortedMap(), 1),
              now);
        });

    ItemStore.Stored stored = items.find(BIZ, 1).orElseThrow();
    assertThat(stored.createdAt()).isEqualTo(createdAt);
    assertThat(stored.updatedAt()).isEqualTo(now);
    assertThat(stored.tags()).containsExactly("a", "b");
    List<CounterRow> page =
        counters.windowPage(BIZ, createdAt.toEpochMilli(), 0, createdAt.toEpochMilli(), 10);
    assertThat(page).extracting(CounterRow::itemId).containsExactly(1L);
  }

  /**
   * The counters carry their item's labels (V16): the labelled window page reads what was inserted
   * and, after a relabel, what the edit wrote, attributes and tags byte for byte.
   */
  @Test
  void labelledWindowPage_readsTheLabelsOnTheCounters_asInsertedAndRelabelled() {
    Instant createdAt = Instant.parse("2026-06-01T10:00:00Z");
    long at = createdAt.toEpochMilli();
    java.util.SortedMap<String, String> attributes =
        new java.util.TreeMap<>(Map.of("lang", "zh", "community", "\"quoted\" 社区"));
    tx.executeWithoutResult(
        s ->
            counters.insertZero(
                BIZ,
                5,
                createdAt,
                new ItemCards.Labels(9, List.of("a", "b-c"), attributes, 1),
                createdAt));
    assertThat(
            counters.labelledWindowPage(
                BIZ, at, 0, at, 10, EnumSet.allOf(CounterPages.Label.class)))
        .singleElement()
        .extracting(CounterPages.LabelledRow::labels)
        .isEqualTo(new ItemCards.Labels(9, List.of("a", "b-c"), attributes, 1));
    // A scan that asks for the tags alone reads no other label.
    assertThat(counters.labelledWindowPage(BIZ, at, 0, at, 10, EnumSet.of(CounterPages.Label.TAGS)))
        .singleElement()
        .extracting(CounterPages.LabelledRow::labels)
        .isEqualTo(new ItemCards.Labels(0, List.of("a", "b-c"), Collections.emptySortedMap(), 0));

    tx.executeWithoutResult(
        s ->
            counters.relabel(
                BIZ, 5, new ItemCards.Labels(11, List.of(), Collections.emptySortedMap(), 2)));
    assertThat(
            counters.labelledWindowPage(
                BIZ, at, 0, at, 10, EnumSet.allOf(CounterPages.Label.class)))
        .singleElement()
        .extracting(CounterPages.LabelledRow::labels)
        .isEqualTo(new ItemCards.Labels(11, List.of(), Collections.emptySortedMap(), 2));
  }

  /**
   * The id sequence: concurrent takers in their own short transactions never get the same id, and
   * together take a gapless range; raising it keeps later ids above an explicit one.
   */
  @Test
  void idSequence_concurrentTakers_getDistinctGaplessIds_andARaiseHolds() throws Exception {
    int threads = 8;
    int takesEach = 25;
    List<Long> taken = new CopyOnWriteArrayList<>();
    runConcurrently(
        threads,
        thread -> {
          for (int i = 0; i < takesEach; i++) {
            taken.add(tx.execute(s -> items.nextId(BIZ)));
          }
          return null;
        });

    assertThat(new TreeSet<>(taken)).hasSize(threads * takesEach);
    assertThat(Collections.min(taken)).isEqualTo(1L);
    assertThat(Collections.max(taken)).isEqualTo((long) threads * takesEach);

    tx.executeWithoutResult(s -> items.reserveId(BIZ, 1000));
    Long afterRaise = tx.execute(s -> items.nextId(BIZ));
    assertThat(afterRaise).isEqualTo(1001L);
    tx.executeWithoutResult(s -> items.reserveId(BIZ, 10)); // lower: no effect
    Long afterLowerRaise = tx.execute(s -> items.nextId(BIZ));
    assertThat(afterLowerRaise).isEqualTo(1002L);
  }

  /**
   * Items created with their own ids on a new biz at the same moment all raise its sequence, and
   * all but one find no row yet: the losers of that race must still succeed (the embedded default
   * once answered one of them with a 500, and a load test's seeding lost items).
   */
  @Test
  void idSequence_concurrentFirstRaises_ofANewBiz_allSucceed() throws Exception {
    int threads = 8;
    for (int round = 0; round < 20; round++) {
      String biz = "raise" + round;
      runConcurrently(
          threads,
          thread -> {
            tx.executeWithoutResult(s -> items.reserveId(biz, 100 + thread));
            return null;
          });
      Long next = tx.execute(s -> items.nextId(biz));
      assertThat(next).isEqualTo(100L + threads);
    }
  }

  @Test
  void itemInsert_ofATakenId_isItemExists_andLeavesTheTransactionUsable() {
    Instant t = Instant.parse("2026-06-01T00:00:00Z");
    tx.executeWithoutResult(
        s -> items.insert(BIZ, 5, 1, "first", List.of(), Collections.emptySortedMap(), t, t));
    tx.executeWithoutResult(
        s -> {
          try {
            items.insert(BIZ, 5, 1, "second", List.of(), Collections.emptySortedMap(), t, t);
            throw new AssertionError("a duplicate insert must be refused");
          } catch (ItemExistsException expected) {
            // PostgreSQL would abort the transaction here; that is what the caller must know.
          }
        });
    assertThat(items.find(BIZ, 5).orElseThrow().title()).isEqualTo("first");
  }

  /**
   * Counter locking order: batches that touch overlapping items in different orders lock them in id
   * order, so none deadlocks, and every increment lands (no lost update).
   */
  @Test
  void counterLocks_ofOverlappingBatchesInAnyOrder_neitherDeadlockNorLoseAnUpdate()
      throws Exception {
    int itemCount = 12;
    Instant t = Instant.parse("2026-06-01T00:00:00Z");
    tx.executeWithoutResult(
        s -> {
          for (long id = 1; id <= itemCount; id++) {
            items.insert(BIZ, id, 1, "i" + id, List.of(), Collections.emptySortedMap(), t, t);
            counters.insertZero(BIZ, id, t, NO_LABELS, t);
          }
        });
    int threads = 8;
    int batchesEach = 15;
    Map<Long, Integer> expected = new ConcurrentHashMap<>();
    runConcurrently(
        threads,
        thread -> {
          Random random = new Random(thread);
          for (int b = 0; b < batchesEach; b++) {
            List<Long> batch = new ArrayList<>();
            for (long id = 1; id <= itemCount; id++) {
              if (random.nextInt(3) > 0) {
                batch.add(id);
              }
            }
            Collections.shuffle(batch, random);
            if (batch.isEmpty()) {
              continue;
            }
            tx.executeWithoutResult(
                s -> {
                  Map<Long, CounterPages.CounterRow> locked = counters.lockCounters(BIZ, batch);
                  Map<Long, Counters> next = new HashMap<>();
                  locked.forEach(
                      (id, row) ->
                          next.put(
                              id,
                              Counters.allTrusted(
                                  new Interactions(
                                      row.counts().like() + 1,
                                      row.counts().view(),
                                      row.counts().comment(),
                                      row.counts().share(),
                                      row.counts().collect(),
                                      row.counts().dislike()))));
                  counters.writeCounters(BIZ, next, t, 1);
                });
            batch.forEach(id -> expected.merge(id, 1, Integer::sum));
          }
          return null;
        });

    for (long id = 1; id <= itemCount; id++) {
      assertThat(counters.find(BIZ, id).orElseThrow().raw().like())
          .as("likes of item %d", id)
          .isEqualTo(expected.getOrDefault(id, 0).longValue());
    }
  }

  /**
   * Keyset paging over many rows with the same created_at (a bulk import): small pages visit every
   * live row of the window exactly once, in (created_at, id) order, and skip deleted rows and rows
   * outside the window.
   */
  @Test
  void windowPages_overEqualCreatedAt_visitEveryLiveRowOnce_inKeysetOrder() {
    long from = Instant.parse("2026-06-01T00:00:00Z").toEpochMilli();
    long same = from + 60_000;
    long to = from + 3_600_000;
    Instant now = Instant.ofEpochMilli(to);
    Set<Long> expected = new TreeSet<>();
    tx.executeWithoutResult(
        s -> {
          for (long id = 1; id <= 23; id++) {
            counters.insertZero(BIZ, id, Instant.ofEpochMilli(same), NO_LABELS, now);
            expected.add(id);
          }
          counters.insertZero(
              BIZ, 30, Instant.ofEpochMilli(from), NO_LABELS, now); // on the lower bound
          counters.insertZero(
              BIZ, 31, Instant.ofEpochMilli(to), NO_LABELS, now); // on the upper bound
          counters.insertZero(BIZ, 32, Instant.ofEpochMilli(from - 1), NO_LABELS, now); // before
          counters.insertZero(BIZ, 33, Instant.ofEpochMilli(to + 1), NO_LABELS, now); // after
          counters.insertZero(BIZ, 34, Instant.ofEpochMilli(same), NO_LABELS, now);
          counters.markDeleted(BIZ, 34, now);
          counters.insertZero(BIZ + "-other", 35, Instant.ofEpochMilli(same), NO_LABELS, now);
        });
    expected.add(30L);
    expected.add(31L);

    List<CounterRow> visited = new ArrayList<>();
    long afterCreated = from;
    long afterId = 0;
    for (int pages = 0; pages < 100; pages++) {
      List<CounterRow> page = counters.windowPage(BIZ, afterCreated, afterId, to, 4);
      visited.addAll(page);
      if (page.size() < 4) {
        break;
      }
      afterCreated = page.getLast().createdAtMillis();
      afterId = page.getLast().itemId();
    }

    assertThat(visited).extracting(CounterRow::itemId).doesNotHaveDuplicates();
    assertThat(new TreeSet<>(visited.stream().map(CounterRow::itemId).toList()))
        .isEqualTo(expected);
    for (int i = 1; i < visited.size(); i++) {
      CounterRow a = visited.get(i - 1);
      CounterRow b = visited.get(i);
      assertThat(
              a.createdAtMillis() < b.createdAtMillis()
                  || (a.createdAtMillis() == b.createdAtMillis() && a.itemId() < b.itemId()))
          .as("%s before %s", a, b)
          .isTrue();
    }
  }

  /**
   * The guarded snapshot save: savers racing with shuffled versions, including the race for the
   * board's first row, leave the newest version stored, and a save never replaces a newer one.
   */
  @Test
  void snapshotSaves_racingWithShuffledVersions_leaveTheNewestStored() throws Exception {
    int versions = 40;
    List<Long> order = new ArrayList<>();
    for (long v = 1; v <= versions; v++) {
      order.add(v);
    }
    Collections.shuffle(order, new Random(42));
    List<Long> reportedStored = new CopyOnWriteArrayList<>();
    int threads = 8;
    runConcurrently(
        threads,
        thread -> {
          for (int i = thread; i < order.size(); i += threads) {
            long version = order.get(i);
            if (snapshots.save(snapshot(version), 0) == Saved.STORED) {
              reportedStored.add(version);
            }
          }
          return null;
        });

    assertThat(snapshots.version(BOARD)).isEqualTo(versions);
    assertThat(
            new String(
                snapshots.find(BOARD).orElseThrow(), java.nio.charset.StandardCharsets.UTF_8))
        .contains("\"version\":" + versions);
    assertThat(reportedStored).contains((long) versions);
    assertThat(snapshots.save(snapshot(versions - 1), 0)).isEqualTo(Saved.NOT_NEWER);
    assertThat(snapshots.save(snapshot(versions), 0)).isEqualTo(Saved.NOT_NEWER);
    assertThat(snapshots.version(BOARD)).isEqualTo(versions);
  }

  /**
   * A re-publish's save names the version it was built on: refused (changing nothing) once a newer
   * one is stored, accepted while the row is at or below it.
   */
  @Test
  void snapshotSaves_withABase_areACompareAndSwap() {
    assertThat(snapshots.save(snapshot(1), 10)).isEqualTo(Saved.STORED);
    assertThat(snapshots.save(snapshot(2), 10)).isEqualTo(Saved.STORED);
    assertThat(snapshots.save(snapshot(5), 10, 1)).isEqualTo(Saved.NOT_NEWER);
    assertThat(snapshots.version(BOARD)).isEqualTo(2);
    assertThat(snapshots.save(snapshot(5), 9, 2)).isEqualTo(Saved.STALE_FENCE);
    assertThat(snapshots.save(snapshot(5), 10, 2)).isEqualTo(Saved.STORED);
    assertThat(snapshots.save(snapshot(6), 10, 7)).isEqualTo(Saved.STORED);
    assertThat(snapshots.version(BOARD)).isEqualTo(6);
  }

  /**
   * The fence at the write: once a token has stored the board, a lower one is refused whatever its
   * version, an equal one (a leader's next cycle) passes, and the refusal changes nothing.
   */
  @Test
  void snapshotSaves_refuseALowerFence_andAcceptTheSameFenceAgain() {
    assertThat(snapshots.save(snapshot(1), 10)).isEqualTo(Saved.STORED);
    assertThat(snapshots.save(snapshot(2), 9)).isEqualTo(Saved.STALE_FENCE);
    assertThat(snapshots.version(BOARD)).isEqualTo(1);
    assertThat(snapshots.save(snapshot(2), 10)).isEqualTo(Saved.STORED);
    assertThat(snapshots.save(snapshot(3), 11)).isEqualTo(Saved.STORED);
    assertThat(snapshots.save(snapshot(9), 10)).isEqualTo(Saved.STALE_FENCE);
    assertThat(snapshots.save(snapshot(3), 12)).isEqualTo(Saved.NOT_NEWER);
    assertThat(snapshots.version(BOARD)).isEqualTo(3);
    assertThat(
            jdbc.queryForObject(
                "SELECT fence FROM hr_board_snapshot WHERE board = ?", Long.class, BOARD))
        .isEqualTo(11L);
  }

  /**
   * A family's segment boards saved at once (their guarded UPDATEs in one batch, then the rows the
   * batch did not write one by one): each comes out as its own save would, whatever the driver
   * reports of a batch.
   */
  @Test
  void snapshotSavesOfAFamily_inOneBatch_eachComeOutAsItsOwnSave() {
    assertThat(snapshots.save(segment("older", 5), 10)).isEqualTo(Saved.STORED);
    assertThat(snapshots.save(segment("newer", 5), 10)).isEqualTo(Saved.STORED);
    assertThat(snapshots.save(segment("fenced", 5), 12)).isEqualTo(Saved.STORED);
    Map<String, Saved> saved =
        snapshots.saveAll(
            List.of(
                segment("older", 4),
                segment("newer", 6),
                segment("fenced", 7),
                segment("fresh", 1)),
            11);
    assertThat(saved)
        .isEqualTo(
            Map.of(
                BOARD + "/older", Saved.NOT_NEWER,
                BOARD + "/newer", Saved.STORED,
                BOARD + "/fenced", Saved.STALE_FENCE,
                BOARD + "/fresh", Saved.STORED));
    assertThat(snapshots.version(BOARD + "/older")).isEqualTo(5);
    assertThat(snapshots.version(BOARD + "/newer")).isEqualTo(6);
    assertThat(snapshots.version(BOARD + "/fenced")).isEqualTo(5);
    assertThat(snapshots.version(BOARD + "/fresh")).isEqualTo(1);
  }

  private static BoardSnapshot segment(String segment, long version) {
    return BoardSnapshot.of(
        BOARD,
        segment,
        version,
        Instant.ofEpochMilli(1_780_000_000_000L + version),
        List.<BoardEntry>of(),
        List.<BoardEntry>of(),
        10);
  }

  /**
   * Inserting a duplicate inside a transaction must not poison it (PostgreSQL aborts a transaction
   * on any unique violation): the dialect's insert-ignoring-duplicates goes on in one transaction.
   */
  @Test
  void insertingARowTwice_inOneTransaction_insertsOnce_andTheTransactionGoesOn() {
    long t = Instant.parse("2026-06-01T00:00:00Z").toEpochMilli();
    String table = "hr_user_action";
    String columns = "biz, item_id, user_id, action, created_at";
    List<Integer> inserted =
        tx.execute(
            s ->
                List.of(
                    dialect.insertIgnoringDuplicate(jdbc, table, columns, BIZ, 1L, 9L, "like", t),
                    dialect.insertIgnoringDuplicate(jdbc, table, columns, BIZ, 1L, 9L, "like", t),
                    dialect.insertIgnoringDuplicate(
                        jdbc, table, columns, BIZ, 1L, 9L, "collect", t)));
    assertThat(inserted).containsExactly(1, 0, 1);
    assertThat(
            jdbc.queryForObject(
                "SELECT COUNT(*) FROM hr_user_action WHERE biz = ?", Integer.class, BIZ))
        .isEqualTo(2);
  }

  private static BoardSnapshot snapshot(long version) {
    return BoardSnapshot.of(
        BOARD,
        version,
        Instant.ofEpochMilli(1_780_000_000_000L + version),
        List.<BoardEntry>of(),
        10);
  }

  /** A task run by one thread of a concurrent round; receives the thread's index. */
  @FunctionalInterface
  interface Task {
    Object run(int thread) throws Exception;
  }

  /** Starts every thread at once and waits, at most a minute, for all; rethrows any failure. */
  static void runConcurrently(int threads, Task task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<Object>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        int thread = i;
        Callable<Object> call =
            () -> {
              start.await();
              return task.run(thread);
            };
        results.add(pool.submit(call));
      }
      start.countDown();
      for (Future<Object> result : results) {
        result.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
