package io.hotrank.ingest.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotrank.core.score.Interactions;
import io.hotrank.event.Event;
import io.hotrank.event.EventType;
import io.hotrank.idempotency.HeldKeys;
import io.hotrank.idempotency.IdempotencyClaim;
import io.hotrank.ingest.EventSink;
import io.hotrank.ingest.FoldHistory;
import io.hotrank.ingest.FoldedEvent;
import io.hotrank.ingest.IngestOutcomeUnknownException;
import io.hotrank.ingest.IngestOverloadedException;
import io.hotrank.ingest.IngestProperties;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.ingest.fold.EventIds;
import io.hotrank.ingest.fold.FoldApplier;
import io.hotrank.ingest.fold.FoldNumbers;
import io.hotrank.ingest.fold.FoldReader;
import io.hotrank.ingest.fold.RecordedFolds;
import io.hotrank.ingest.fold.UserActionStore;
import io.hotrank.item.CounterStore;
import io.hotrank.item.ItemCards;
import io.hotrank.item.ItemStore;
import io.hotrank.job.FaultPoints;
import io.hotrank.storage.SqlDialect;
import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestIngestProperties;
import io.hotrank.trust.ActorWeights;
import io.hotrank.trust.TrustProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The event log and its folder against a real database: batches appended from several threads at
 * once (so seqs become visible out of order), folded by two folders at once, must reach the
 * counters and the per-user state exactly as an independent model says, each row in exactly one
 * fold. Other test classes' application contexts may fold the same log meanwhile (the cursor is
 * global); the claims hold whoever folds, so the test does not care. One subclass per engine.
 */
abstract class EventLogContract {

  private static final int ITEMS = 30;
  private static final Instant CREATED = Instant.parse("2026-06-01T00:00:00Z");

  private final String biz = "evlog-" + UUID.randomUUID().toString().substring(0, 8);

  /** The engine under test, registered by the subclass as a static extension. */
  protected abstract MigratedDatabase database();

  private JdbcTemplate jdbc() {
    return database().jdbc();
  }

  private SqlDialect dialect() {
    return database().dialect();
  }

  private PlatformTransactionManager transactions() {
    return database().tx().getTransactionManager();
  }

  private static final IngestProperties PROPERTIES =
      TestIngestProperties.of(
          IngestProperties.Source.LOG, Duration.ofSeconds(30), Duration.ofDays(1));

  private EventLog log() {
    return new EventLog(jdbc(), dialect(), new FoldNumbers(jdbc(), dialect()));
  }

  private EventFolder folder() {
    return new EventFolder(
        log(),
        new FoldApplier(
            new CounterStore(jdbc(), dialect()),
            new UserActionStore(jdbc(), dialect()),
            ActorWeights.reading(jdbc(), dialect(), TrustProperties.defaults())),
        Clock.systemUTC(),
        transactions(),
        PROPERTIES,
        FaultPoints.NONE);
  }

  @AfterEach
  void removeRows() {
    for (String table :
        List.of("hr_event_log", "hr_event_id", "hr_user_action", "hr_item_counter", "hr_item")) {
      jdbc().update("DELETE FROM " + table + " WHERE biz = ?", biz);
    }
  }

  private void createItems() {
    ItemStore items = new ItemStore(jdbc(), dialect());
    CounterStore counters = new CounterStore(jdbc(), dialect());
    TransactionTemplate tx = new TransactionTemplate(transactions());
    tx.executeWithoutResult(
        s -> {
          for (long id = 1; id <= ITEMS; id++) {
            items.insert(
                biz,
                id,
                1,
                "item " + id,
                List.of(),
                Collections.emptySortedMap(),
                CREATED,
                CREATED);
            counters.insertZero(
                biz,
                id,
                CREATED,
                new ItemCards.Labels(1, List.of(), Collections.emptySortedMap(), 1),
                CREATED);
          }
        });
  }

  private void delete(long id) {
    TransactionTemplate tx = new TransactionTemplate(transactions());
    Instant now = Instant.now();
    tx.executeWithoutResult(
        s -> {
          new ItemStore(jdbc(), dialect()).markDeleted(biz, id, now);
          new CounterStore(jdbc(), dialect()).markDeleted(biz, id, now);
        });
  }

  /** The independent model: counters by item, per-user state, in the order it is told. */
  private static final class Model {
    final Map<Long, long[]> counts = new HashMap<>();
    final Set<String> userState = new HashSet<>();
    final Set<Long> deleted = new HashSet<>();

    void apply(Event e) {
      if (deleted.contains(e.itemId())) {
        return;
      }
      long[] c = counts.computeIfAbsent(e.itemId(), id -> new long[6]);
      int slot = e.type().counter().ordinal();
      if (e.userId() != 0 && e.type().perUser()) {
        String key = e.itemId() + "/" + e.userId() + "/" + e.type().counter().wireName();
        boolean on = userState.contains(key);
        if (on == (e.type().step() > 0)) {
          return;
        }
        if (on) {
          userState.remove(key);
        } else {
          userState.add(key);
        }
      }
      c[slot] = Math.max(0, c[slot] + e.type().step());
    }
  }

  /**
   * One round: batches whose results do not depend on how they interleave (every (user, item)
   * pair's like and collect events sit in one batch; anonymous events only count up), so the model
   * can apply them batch by batch while the database sees them in any order.
   */
  private List<List<Event>> round(Random random) {
    int batches = 12;
    List<List<Event>> out = new ArrayList<>();
    for (int b = 0; b < batches; b++) {
      out.add(new ArrayList<>());
    }
    EventType[] anonymous = {EventType.VIEW, EventType.COMMENT, EventType.SHARE, EventType.DISLIKE};
    EventType[] perUser = {
      EventType.LIKE, EventType.UNLIKE, EventType.COLLECT, EventType.UNCOLLECT, EventType.LIKE
    };
    for (int i = 0; i < 600; i++) {
      List<Event> batch = out.get(random.nextInt(batches));
      long item = 1 + random.nextInt(ITEMS);
      batch.add(
          new Event(
              batch.size(), biz, item, anonymous[random.nextInt(anonymous.length)], 0, 1000L + i));
    }
    // Each (user, item) pair of this round belongs to one batch.
    for (int user = 1; user <= 20; user++) {
      for (long item = 1; item <= ITEMS; item++) {
        if (random.nextInt(4) != 0) {
          continue;
        }
        List<Event> batch = out.get(random.nextInt(batches));
        int n = 1 + random.nextInt(4);
        for (int k = 0; k < n; k++) {
          batch.add(
              new Event(
                  batch.size(), biz, item, perUser[random.nextInt(perUser.length)], user, 2000L));
        }
      }
    }
    out.removeIf(List::isEmpty);
    out.forEach(java.util.Collections::shuffle);
    return out;
  }

  @Test
  void concurrentAppends_foldedByTwoFolders_matchTheModel_noRowInTwoFolds() throws Exception {
    createItems();
    Model model = new Model();
    Random random = new Random(42);
    EventLog log = log();
    List<EventFolder> folders = List.of(folder(), folder());
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      for (int r = 0; r < 3; r++) {
        if (r == 2) {
          for (long id : List.of(3L, 7L, 11L)) {
            delete(id);
            model.deleted.add(id);
          }
        }
        List<List<Event>> batches = round(random);
        batches.forEach(b -> b.forEach(model::apply));
        AtomicBoolean appending = new AtomicBoolean(true);
        List<Future<?>> folding = new ArrayList<>();
        for (EventFolder folder : folders) {
          folding.add(
              pool.submit(
                  () -> {
                    while (appending.get()) {
                      folder.foldOnce();
                    }
                    return null;
                  }));
        }
        List<Future<?>> appends = new ArrayList<>();
        for (List<Event> batch : batches) {
          appends.add(pool.submit(() -> log.append(batch)));
        }
        for (Future<?> f : appends) {
          f.get(30, TimeUnit.SECONDS);
        }
        appending.set(false);
        for (Future<?> f : folding) {
          f.get(30, TimeUnit.SECONDS);
        }
        foldUntilIdle(folders.getFirst());
      }
    } finally {
      pool.shutdownNow();
    }

    CounterStore counters = new CounterStore(jdbc(), dialect());
    for (long id = 1; id <= ITEMS; id++) {
      long[] expected = model.counts.getOrDefault(id, new long[6]);
      Interactions actual =
          jdbc()
              .queryForObject(
                  "SELECT like_cnt, view_cnt, comment_cnt, share_cnt, collect_cnt, dislike_cnt"
                      + " FROM hr_item_counter WHERE biz = ? AND item_id = ?",
                  (rs, n) ->
                      new Interactions(
                          rs.getLong(1),
                          rs.getLong(2),
                          rs.getLong(3),
                          rs.getLong(4),
                          rs.getLong(5),
                          rs.getLong(6)),
                  biz,
                  id);
      assertThat(actual).as("item %d", id).isEqualTo(toInteractions(expected));
    }
    assertThat(counters.find(biz, 3)).isEmpty();
    Set<String> states = new HashSet<>();
    jdbc()
        .query(
            "SELECT item_id, user_id, action FROM hr_user_action WHERE biz = ?",
            rs -> {
              states.add(rs.getLong(1) + "/" + rs.getLong(2) + "/" + rs.getString(3));
            },
            biz);
    // Deleted items keep the state they had when deleted; the model stopped there too.
    assertThat(states).isEqualTo(model.userState);

    List<Long> mine =
        jdbc().queryForList("SELECT seq FROM hr_event_log WHERE biz = ?", Long.class, biz);
    Map<Long, Integer> foldsOf = new HashMap<>();
    Set<Long> mineSet = new HashSet<>(mine);
    // Not another source's folds (a Kafka test's, in a database the suite shares).
    for (String seqs :
        jdbc()
            .queryForList(
                "SELECT seqs FROM hr_fold WHERE source = ?", String.class, LogSource.NAME)) {
      for (long[] range : FoldCursor.parseRanges(seqs)) {
        for (long seq = range[0]; seq <= range[1]; seq++) {
          if (mineSet.contains(seq)) {
            foldsOf.merge(seq, 1, Integer::sum);
          }
        }
      }
    }
    // A fold records the rows that changed something: none twice, and never a repeated like.
    assertThat(foldsOf.values()).containsOnly(1);
    assertThat(foldsOf).hasSizeLessThan(mine.size());
    // Every row was read: the cursor is past them all and no open gap holds one.
    FoldCursor cursor = log.cursor();
    assertThat(cursor.position())
        .isGreaterThanOrEqualTo(mine.stream().mapToLong(x -> x).max().orElseThrow());
    for (FoldCursor.Gap gap : cursor.gaps()) {
      assertThat(mine).noneMatch(seq -> seq >= gap.from() && seq <= gap.to());
    }
  }

  /**
   * A row whose seq was allocated before a higher one's but committed after it was folded is folded
   * late, from the cursor's gaps, not skipped.
   */
  @Test
  void aRowCommittedAfterAHigherOneWasFolded_isFoldedFromTheGaps() throws Exception {
    createItems();
    EventFolder folder = folder();
    foldUntilIdle(folder);
    CountDownLatch inserted = new CountDownLatch(1);
    CountDownLatch commit = new CountDownLatch(1);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<?> slow =
          pool.submit(
              () ->
                  new TransactionTemplate(transactions())
                      .executeWithoutResult(
                          s -> {
                            jdbc()
                                .update(
                                    "INSERT INTO hr_event_log (biz, item_id, type, user_id, at_ms)"
                                        + " VALUES (?, ?, ?, ?, ?)",
                                    biz,
                                    1L,
                                    EventType.VIEW.code(),
                                    0L,
                                    1L);
                            inserted.countDown();
                            try {
                              commit.await(30, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                              Thread.currentThread().interrupt();
                            }
                          }));
      assertThat(inserted.await(30, TimeUnit.SECONDS)).isTrue();
      log().append(List.of(new Event(0, biz, 2, EventType.VIEW, 0, 1L)));
      foldUntilIdle(folder);
      assertThat(views(2)).isEqualTo(1);
      assertThat(views(1)).isZero();
      // The first row's seq is below the folded one's and not yet visible: a gap.
      assertThat(log().cursor().gaps()).isNotEmpty();
      commit.countDown();
      slow.get(30, TimeUnit.SECONDS);
      foldUntilIdle(folder);
      assertThat(views(1)).isEqualTo(1);
      assertThat(views(2)).isEqualTo(1);
    } finally {
      commit.countDown();
      pool.shutdownNow();
    }
  }

  /**
   * Pruning deletes folded rows only: another folder (another test's context) may fold the second
   * row meanwhile, and then pruning it is right; either way it is counted exactly once.
   */
  @Test
  void pruning_deletesFoldedRowsOnly() {
    createItems();
    EventLog log = log();
    log.append(List.of(new Event(0, biz, 1, EventType.VIEW, 0, 1L)));
    foldUntilIdle(folder());
    log.append(List.of(new Event(0, biz, 2, EventType.VIEW, 0, 1L)));
    long future = System.currentTimeMillis() + 60_000;
    while (log.prune(future, 10_000) > 0) {}
    assertThat(
            jdbc()
                .queryForList(
                    "SELECT item_id FROM hr_event_log WHERE biz = ? AND item_id = ?",
                    Long.class,
                    biz,
                    1L))
        .isEmpty();
    foldUntilIdle(folder());
    assertThat(views(1)).isEqualTo(1);
    assertThat(views(2)).isEqualTo(1);
  }

  /**
   * A fold's record is read back by the source it is tagged with, not by the shape of its text: the
   * same seq ranges tagged by another source are that source's to read, a fold of a source no
   * reader reads (not configured) reads as a pruned one, and the log's are read whatever the
   * source.
   */
  @Test
  void foldHistory_readsAFoldBackByTheSourceThatRecordedIt() {
    createItems();
    EventLog log = log();
    log.append(
        List.of(
            new Event(0, biz, 1, EventType.VIEW, 0, 1L),
            new Event(0, biz, 2, EventType.SHARE, 0, 2L)));
    List<Long> seqs =
        jdbc()
            .queryForList(
                "SELECT seq FROM hr_event_log WHERE biz = ? ORDER BY seq", Long.class, biz);
    String ranges = seqs.getFirst() + "-" + seqs.getFirst() + "," + seqs.get(1) + "-" + seqs.get(1);
    TransactionTemplate tx = new TransactionTemplate(transactions());
    long now = System.currentTimeMillis();
    FoldNumbers numbers = new FoldNumbers(jdbc(), dialect());
    long asLog = tx.execute(s -> numbers.number(LogSource.NAME, ranges, "1000,-200~", now));
    long asOther = tx.execute(s -> numbers.number("other", ranges, "300", now));
    // Weights that do not match the events read back: at full weight.
    long mismatched = tx.execute(s -> numbers.number(LogSource.NAME, ranges, "7", now));
    List<LoggedEvent> otherEvents = List.of(new LoggedEvent(7, biz, 3, EventType.LIKE, 9, 3L));

    FoldReader logReader = new LogFoldReader(log);
    FoldHistory onLog = new RecordedFolds(numbers, List.of(logReader));
    assertThat(onLog.eventsOf(asLog))
        .extracting(e -> e.event().itemId(), e -> e.event().type(), e -> e.raw(), e -> e.trusted())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1L, EventType.VIEW, true, 1000L),
            org.assertj.core.groups.Tuple.tuple(2L, EventType.SHARE, false, -200L));
    assertThat(onLog.eventsOf(mismatched))
        .extracting(e -> e.raw(), e -> e.trusted())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(true, 1000L),
            org.assertj.core.groups.Tuple.tuple(true, 1000L));
    assertThat(onLog.eventsOf(asOther)).isNull(); // not configured: as if pruned

    FoldHistory onOther =
        new RecordedFolds(numbers, List.of(logReader, reader("other", otherEvents)));
    assertThat(onOther.eventsOf(asOther))
        .containsExactly(new FoldedEvent(otherEvents.getFirst(), true, 300));
    assertThat(onOther.eventsOf(asLog)).hasSize(2); // the log's, whatever the source
    assertThatThrownBy(() -> new RecordedFolds(numbers, List.of(logReader, logReader)))
        .isInstanceOf(IllegalStateException.class);
  }

  /**
   * One user's views of an item: the trusted counter takes the first 3 (the default cap, kept in a
   * row per viewer and item), or all of them with the cap off (no row kept); the raw counter counts
   * them all either way.
   */
  @Test
  void viewsOfOneUser_countThreeTimesTrusted_orEveryTimeUncapped_withoutARow() {
    createItems();
    // Applied here rather than through the log, which other contexts' folders may fold meanwhile.
    applyViews(1, TrustProperties.defaults());
    CounterStore counters = new CounterStore(jdbc(), dialect());
    assertThat(counters.find(biz, 1).orElseThrow().raw().view()).isEqualTo(5);
    assertThat(counters.find(biz, 1).orElseThrow().trusted().view()).isEqualTo(3_000);
    assertThat(
            jdbc()
                .queryForObject(
                    "SELECT SUM(counted) FROM hr_user_action WHERE biz = ? AND item_id = 1",
                    Long.class,
                    biz))
        .as("views counted per actor past the cap, for review's concentration")
        .isEqualTo(5);

    applyViews(
        2,
        new TrustProperties(
            0.2, Duration.ofDays(7), 1, new TrustProperties.MaxPerActor(0, 3, 1, 1), 0.5, 0.5));
    assertThat(counters.find(biz, 2).orElseThrow().raw().view()).isEqualTo(5);
    assertThat(counters.find(biz, 2).orElseThrow().trusted().view()).isEqualTo(5_000);
    assertThat(
            jdbc()
                .queryForList(
                    "SELECT item_id FROM hr_user_action WHERE biz = ? AND action = ?",
                    Long.class,
                    biz,
                    "view"))
        .as("rows of views: the capped item's only")
        .containsExactly(1L);
  }

  /** Five views of user 77 (unknown: weighing 1) on item {@code itemId}, applied in one fold. */
  private void applyViews(long itemId, TrustProperties trust) {
    List<LoggedEvent> views = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      views.add(new LoggedEvent(i + 1, biz, itemId, EventType.VIEW, 77, 1_000L + i));
    }
    FoldApplier applier =
        new FoldApplier(
            new CounterStore(jdbc(), dialect()),
            new UserActionStore(jdbc(), dialect()),
            ActorWeights.reading(jdbc(), dialect(), trust));
    new TransactionTemplate(transactions())
        .executeWithoutResult(s -> applier.write(applier.apply(views), 1, 5_000L));
  }

  /**
   * A group with a batch whose key a retry took over (the request outlived its lease) writes
   * nothing, neither events nor ids nor the other batches' answers, and is refused 503: the retry
   * holding the key runs it again and counts it once.
   */
  @Test
  void keyedGroup_withAKeyTakenOverByARetry_writesNothing_andTheRetryCountsOnce() {
    HeldKeys keys = new HeldKeys(jdbc(), dialect());
    long now = System.currentTimeMillis();
    List<IdempotencyClaim> held = new ArrayList<>();
    List<Event> first = idEvents("a", 3);
    List<Event> second = idEvents("b", 2);
    try (EventSink.Writer writer = sink(keys, transactions()).writer(0)) {
      IdempotencyClaim current = keys.claim(now);
      held.add(current);
      IdempotencyClaim outrun = keys.claim(now - 120_000); // its lease ended a minute ago
      held.add(outrun);
      IdempotencyClaim retry = keys.takeOver(outrun, now);
      assertThatThrownBy(
              () ->
                  writer.write(
                      List.of(
                          new EventSink.Batch(first, 0, current),
                          new EventSink.Batch(second, 0, outrun)),
                      Long.MAX_VALUE))
          .isInstanceOf(IngestOverloadedException.class);

      assertThat(logRows()).isZero();
      assertThat(idRows()).isZero();
      assertThat(keys.answer(current)).isEqualTo("pending");
      assertThat(keys.answer(retry)).isEqualTo("pending");

      int[] dropped =
          writer.write(
              List.of(
                  new EventSink.Batch(first, 0, current), new EventSink.Batch(second, 0, retry)),
              Long.MAX_VALUE);

      assertThat(dropped).containsExactly(0, 0);
      assertThat(logRows()).isEqualTo(5);
      assertThat(idRows()).isEqualTo(5);
      assertThat(keys.answer(current))
          .isEqualTo("202 application/json {\"accepted\":3,\"duplicates\":0}");
      assertThat(keys.answer(retry))
          .isEqualTo("202 application/json {\"accepted\":2,\"duplicates\":0}");
      assertThat(keys.answer(outrun)).isEqualTo("taken");
    } finally {
      keys.remove(held.toArray(IdempotencyClaim[]::new));
    }
  }

  /**
   * A keyed group whose commit happened but whose answer from the database was lost is refused as
   * of unknown outcome; its key's answer committed with its events (the filter replays it to the
   * client's retry with the key), and the same events sent again, under another key or none, are
   * duplicates.
   */
  @Test
  void keyedGroup_committedButTheCommitsAnswerLost_isOfUnknownOutcome_andItsKeyHoldsTheAnswer() {
    HeldKeys keys = new HeldKeys(jdbc(), dialect());
    List<IdempotencyClaim> held = new ArrayList<>();
    List<Event> events = idEvents("c", 4);
    PlatformTransactionManager answerLost =
        new DataSourceTransactionManager(database().dataSource()) {
          @Override
          protected void doCommit(DefaultTransactionStatus status) {
            super.doCommit(status);
            throw new TransactionSystemException("the connection broke before the commit's answer");
          }
        };
    try {
      IdempotencyClaim claim = keys.claim(System.currentTimeMillis());
      held.add(claim);
      try (EventSink.Writer writer = sink(keys, answerLost).writer(0)) {
        assertThatThrownBy(
                () -> writer.write(List.of(new EventSink.Batch(events, 0, claim)), Long.MAX_VALUE))
            .isInstanceOf(IngestOutcomeUnknownException.class);
      }

      assertThat(logRows()).isEqualTo(4);
      assertThat(keys.answer(claim))
          .isEqualTo("202 application/json {\"accepted\":4,\"duplicates\":0}");
      IdempotencyClaim another = keys.claim(System.currentTimeMillis());
      held.add(another);
      try (EventSink.Writer writer = sink(keys, transactions()).writer(0)) {
        assertThat(writer.write(List.of(new EventSink.Batch(events, 0, another)), Long.MAX_VALUE))
            .containsExactly(4);
        assertThat(writer.write(List.of(new EventSink.Batch(events, 0, null)), Long.MAX_VALUE))
            .containsExactly(4);
      }
      assertThat(logRows()).isEqualTo(4);
      assertThat(keys.answer(another))
          .isEqualTo("202 application/json {\"accepted\":0,\"duplicates\":4}");
    } finally {
      keys.remove(held.toArray(IdempotencyClaim[]::new));
    }
  }

  private LogEventSink sink(HeldKeys keys, PlatformTransactionManager transactions) {
    return new LogEventSink(
        log(),
        new EventIds(jdbc(), dialect()),
        keys.answers(),
        new TransactionTemplate(transactions),
        JsonMapper.builder().build(),
        Clock.systemUTC(),
        new SimpleMeterRegistry().counter("duplicates"));
  }

  /** {@code n} views of item 1, with the ids {@code <prefix>-0..n-1}. */
  private List<Event> idEvents(String prefix, int n) {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      events.add(new Event(i, biz, 1, EventType.VIEW, 0, 1_000L + i, prefix + "-" + i));
    }
    return events;
  }

  private long logRows() {
    return jdbc()
        .queryForObject("SELECT COUNT(*) FROM hr_event_log WHERE biz = ?", Long.class, biz);
  }

  private long idRows() {
    return jdbc().queryForObject("SELECT COUNT(*) FROM hr_event_id WHERE biz = ?", Long.class, biz);
  }

  /** A reader of the folds of source {@code name}, each of which applied {@code events}. */
  private static FoldReader reader(String name, List<LoggedEvent> events) {
    return new FoldReader() {
      @Override
      public String source() {
        return name;
      }

      @Override
      public List<LoggedEvent> eventsOf(String record) {
        return events;
      }
    };
  }

  private long views(long id) {
    return jdbc()
        .queryForObject(
            "SELECT view_cnt FROM hr_item_counter WHERE biz = ? AND item_id = ?",
            Long.class,
            biz,
            id);
  }

  private static void foldUntilIdle(EventFolder folder) {
    for (int i = 0; i < 10_000 && folder.foldOnce() != null; i++) {}
  }

  private static Interactions toInteractions(long[] c) {
    return new Interactions(c[0], c[1], c[2], c[3], c[4], c[5]);
  }
}
