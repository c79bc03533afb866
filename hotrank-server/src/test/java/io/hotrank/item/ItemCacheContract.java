package io.hotrank.item;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.hotrank.cache.CacheNotices;
import io.hotrank.cache.OriginBusyException;
import io.hotrank.cache.ReadSource;
import io.hotrank.core.score.Interactions;
import io.hotrank.hotkey.HotKeys;
import io.hotrank.job.JobContext;
import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.redis.RedisBloomFilter;
import io.hotrank.redis.RedisReadGuard;
import io.hotrank.redis.RedisReconnects;
import io.hotrank.storage.SqlDialect;
import io.hotrank.support.RedisProcess;
import io.hotrank.support.TestEngines;
import io.hotrank.time.Ticker;
import io.lettuce.core.resource.Delay;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The item read cache against a real Redis (a process of this class's own, so that it may be
 * flushed, stopped and restarted) and each database engine. Each test builds "instances" of the
 * cache (its own {@link ItemCaches}, with {@link ItemReads} and {@link ItemCacheWrites} over them,
 * a bulkhead of its own and counting stores) over the context's Redis and database: what the tests
 * count is what reached the database.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@Import(ItemCacheContract.QuickReconnect.class)
abstract class ItemCacheContract {

  /**
   * Lettuce retries a lost connection with an exponential delay (up to 30 s): after the outage test
   * restarts Redis, the client would come back seconds later. A constant 100 ms keeps the test
   * short; what it checks, the local caches dropped on reconnect, does not depend on when.
   */
  @TestConfiguration(proxyBeanMethods = false)
  static class QuickReconnect {
    @Bean
    ClientResourcesBuilderCustomizer quickReconnect() {
      return builder -> builder.reconnectDelay(Delay.constant(Duration.ofMillis(100)));
    }
  }

  static final String BIZ = "cached";
  // One process for every engine's class in this JVM (their contexts stay cached to the end);
  // the embedded-redis binary stops with the JVM.
  private static final RedisProcess REDIS = RedisProcess.startForClass();

  @DynamicPropertySource
  static void redis(DynamicPropertyRegistry registry) {
    registry.add("spring.data.redis.url", REDIS::url);
    registry.add("hotrank.redis.key-prefix", () -> "hrtest:");
    // What these tests count must not depend on a Redis call's speed on a loaded machine: a call
    // past the read timeout falls back to the database, as it should, and would be counted.
    registry.add("hotrank.redis.read-timeout", () -> "2s");
    // The tests build the Bloom filter themselves when they want one; left on its 30 s cron, the
    // filter job built it in the middle of a test counting which ids reached the database (the
    // absent ids were then answered by the filter, not by the query the test expects).
    registry.add("hotrank.items.cache.filter-check", () -> "0 0 0 1 1 *");
  }

  @Autowired JdbcTemplate jdbc;
  @Autowired SqlDialect dialect;
  @Autowired StringRedisTemplate redis;
  @Autowired HotrankRedisProperties redisProperties;
  @Autowired RedisReadGuard guard;
  @Autowired Ticker ticker;
  @Autowired MeterRegistry meters;
  @Autowired CacheNotices notices;
  @Autowired RedisReconnects reconnects;
  @Autowired ItemService items;
  @Autowired ItemStore itemStore;
  @Autowired CounterStore counterStore;
  @Autowired LiveItems liveItems;
  @Autowired HotKeys hotKeys;
  @Autowired Bizes bizes;

  @Autowired
  @Qualifier("cacheRefreshes")
  ExecutorService refreshes;

  abstract String engine();

  /** Counts what reaches the database, per id, and how many queries run at once. */
  final class CountingItems extends ItemStore {
    final Map<Long, AtomicInteger> perId = new ConcurrentHashMap<>();
    final AtomicInteger joint = new AtomicInteger();
    final AtomicInteger inFlight;
    final AtomicInteger mostInFlight;
    volatile CountDownLatch gate;
    final CountDownLatch atGate = new CountDownLatch(1);

    CountingItems(AtomicInteger inFlight, AtomicInteger mostInFlight) {
      super(jdbc, dialect);
      this.inFlight = inFlight;
      this.mostInFlight = mostInFlight;
    }

    @Override
    public Map<Long, Stored> findAll(String biz, Collection<Long> ids) {
      return counted(ids, () -> super.findAll(biz, ids));
    }

    @Override
    public Map<Long, WithCounts> findWithCounts(String biz, Collection<Long> ids) {
      joint.incrementAndGet();
      return counted(ids, () -> super.findWithCounts(biz, ids));
    }

    private <T> T counted(Collection<Long> ids, Supplier<T> query) {
      ids.forEach(id -> perId.computeIfAbsent(id, i -> new AtomicInteger()).incrementAndGet());
      mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      try {
        T found = query.get();
        CountDownLatch holding = gate;
        if (holding != null) {
          atGate.countDown();
          holding.await(30, TimeUnit.SECONDS);
        }
        return found;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } finally {
        inFlight.decrementAndGet();
      }
    }

    int queries(long id) {
      AtomicInteger n = perId.get(id);
      return n == null ? 0 : n.get();
    }
  }

  /** Counts counter queries per id, and in-flight queries with the item store's counters. */
  final class CountingCounters extends CounterStore {
    final Map<Long, AtomicInteger> perId = new ConcurrentHashMap<>();
    final AtomicInteger inFlight;
    final AtomicInteger mostInFlight;

    CountingCounters(AtomicInteger inFlight, AtomicInteger mostInFlight) {
      super(jdbc, dialect);
      this.inFlight = inFlight;
      this.mostInFlight = mostInFlight;
    }

    @Override
    public Map<Long, Counted> findAll(String biz, Collection<Long> ids) {
      ids.forEach(id -> perId.computeIfAbsent(id, i -> new AtomicInteger()).incrementAndGet());
      mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      try {
        return super.findAll(biz, ids);
      } finally {
        inFlight.decrementAndGet();
      }
    }

    int queries(long id) {
      AtomicInteger n = perId.get(id);
      return n == null ? 0 : n.get();
    }
  }

  /** One instance of the cache: its stores count, its bulkhead is its own. */
  final class Instance {
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger mostInFlight = new AtomicInteger();
    final CountingItems store = new CountingItems(inFlight, mostInFlight);
    final CountingCounters counters = new CountingCounters(inFlight, mostInFlight);
    final ItemCaches caches;
    final ItemReads reads;
    final ItemCacheWrites writes;

    Instance(ItemCacheProperties properties, int dbConcurrency) {
      this(properties, dbConcurrency, redis, refreshes);
    }

    Instance(
        ItemCacheProperties properties,
        int dbConcurrency,
        StringRedisTemplate template,
        ExecutorService background) {
      Bulkhead bulkhead =
          Bulkhead.of(
              "test-" + ThreadLocalRandom.current().nextInt(),
              BulkheadConfig.custom()
                  .maxConcurrentCalls(dbConcurrency)
                  .maxWaitDuration(Duration.ofMillis(20))
                  .build());
      caches =
          new ItemCaches(
              store,
              counters,
              template,
              redisProperties,
              properties,
              guard,
              bulkhead,
              ticker,
              background,
              meters,
              hotKeys);
      reads = new ItemReads(caches, properties, meters, bizes);
      writes = new ItemCacheWrites(caches, notices, reconnects, template, redisProperties);
    }

    Instance() {
      this(properties(1_000_000, Duration.ofSeconds(10)), 8);
    }
  }

  /** Counts the template's calls that take a callback: each is one round trip (or a round). */
  static final class CountingTemplate extends StringRedisTemplate {
    final AtomicInteger calls = new AtomicInteger();

    CountingTemplate(RedisConnectionFactory factory) {
      super(factory);
    }

    @Override
    public <T> T execute(RedisCallback<T> action) {
      calls.incrementAndGet();
      return super.execute(action);
    }
  }

  /** Holds what it is given to run until told to run it (the cache's write-backs). */
  static final class HeldTasks extends AbstractExecutorService {
    final List<Runnable> held = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public void execute(Runnable task) {
      held.add(task);
    }

    void runAll() {
      held.forEach(Runnable::run);
      held.clear();
    }

    @Override
    public void shutdown() {}

    @Override
    public List<Runnable> shutdownNow() {
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return false;
    }

    @Override
    public boolean isTerminated() {
      return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return true;
    }
  }

  /** Settings as shipped, but for the Bloom filter's largest size and the lease wait. */
  static ItemCacheProperties properties(long filterMaxCapacity, Duration leaseWait) {
    return new ItemCacheProperties(
        100_000,
        Duration.ofSeconds(30),
        Duration.ofSeconds(1),
        Duration.ofMinutes(10),
        Duration.ofHours(1),
        Duration.ofSeconds(10),
        0.2,
        Duration.ofSeconds(10),
        leaseWait,
        1024,
        filterMaxCapacity,
        0.01,
        "0 0 0 1 1 *",
        Duration.ofSeconds(2),
        true);
  }

  @BeforeEach
  void emptyEverything() {
    TestEngines.exercised(engine());
    // A test that stopped Redis may leave the read breaker open: wait until reads go through.
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(
            () -> {
              guard.redisSeemsBack();
              guard.read("test ping", () -> redis.hasKey("ping"));
              return guard.closed();
            });
    for (String table : List.of("hr_user_action", "hr_item_counter", "hr_item", "hr_id_sequence")) {
      jdbc.update("DELETE FROM " + table);
    }
    liveItems.forgetAll();
    redis.execute(
        (org.springframework.data.redis.core.RedisCallback<Void>)
            connection -> {
              connection.serverCommands().flushAll();
              return null;
            });
  }

  /**
   * Puts an item straight into the tables. Not through {@link ItemService#create}: its notice
   * reaches every instance a test builds, whenever Pub/Sub delivers it, and would drop their
   * entries in the middle of what the test counts.
   */
  private void create(long id, String title) {
    long now = Instant.parse("2026-11-01T00:00:00Z").toEpochMilli();
    jdbc.update(
        "INSERT INTO hr_item (biz, id, author_id, title, tags, created_at, updated_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?)",
        BIZ,
        id,
        1L,
        title,
        "t",
        now,
        now);
    jdbc.update(
        "INSERT INTO hr_item_counter (biz, item_id, created_at, updated_at) VALUES (?, ?, ?, ?)",
        BIZ,
        id,
        now,
        now);
  }

  /** Inserts items straight into the tables, many at once (no cache hooks). */
  private void insert(long fromId, long toId) {
    Instant now = Instant.parse("2026-11-01T00:00:00Z");
    List<Object[]> itemRows = new ArrayList<>();
    List<Object[]> counterRows = new ArrayList<>();
    for (long id = fromId; id <= toId; id++) {
      itemRows.add(
          new Object[] {BIZ, id, 1L, "item " + id, "", now.toEpochMilli(), now.toEpochMilli()});
      counterRows.add(new Object[] {BIZ, id, now.toEpochMilli(), now.toEpochMilli()});
    }
    jdbc.batchUpdate(
        "INSERT INTO hr_item (biz, id, author_id, title, tags, created_at, updated_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?)",
        itemRows);
    jdbc.batchUpdate(
        "INSERT INTO hr_item_counter (biz, item_id, created_at, updated_at) VALUES (?, ?, ?, ?)",
        counterRows);
    itemStore.reserveId(BIZ, toId);
  }

  @Test
  void twoHundredConcurrentMisses_onTwoInstances_queryTheDatabaseOncePerCache() throws Exception {
    create(1, "one");
    Instance a = new Instance();
    Instance b = new Instance();
    CountDownLatch start = new CountDownLatch(1);
    List<Future<ItemReads.Found>> reads = new ArrayList<>();
    try (ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 200; i++) {
        Instance on = i % 2 == 0 ? a : b;
        reads.add(
            readers.submit(
                () -> {
                  start.await();
                  return on.reads.get(BIZ, 1);
                }));
      }
      start.countDown();
      for (Future<ItemReads.Found> read : reads) {
        assertThat(read.get(30, TimeUnit.SECONDS).item().title()).isEqualTo("one");
      }
    }
    assertThat(a.store.queries(1) + b.store.queries(1)).as("metadata queries").isEqualTo(1);
    assertThat(a.counters.queries(1) + b.counters.queries(1)).as("counter queries").isEqualTo(1);
  }

  @Test
  void aBatchRead_makesOneRedisRoundTrip_andOneDatabaseQuery_forItsMisses() {
    insert(1, 200);
    new Instance().reads.getAll(BIZ, range(1, 40));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                redis.hasKey("hrtest:im:" + BIZ + ":40")
                    && redis.hasKey("hrtest:ic:" + BIZ + ":40"));
    CountingTemplate template = new CountingTemplate(redis.getConnectionFactory());
    HeldTasks writeBacks = new HeldTasks();
    Instance cold =
        new Instance(properties(1_000_000, Duration.ofSeconds(10)), 8, template, writeBacks);
    List<Long> inRedis = range(1, 40);
    List<Long> inDatabase = range(150, 180);
    List<Long> absent = range(100_001, 100_010);
    List<Long> ids = new ArrayList<>(inRedis);
    ids.addAll(inDatabase);
    ids.addAll(absent);
    java.util.Collections.shuffle(ids, new java.util.Random(7));
    List<Long> live = ids.stream().filter(id -> id <= 200).toList();

    ItemReads.Batch first = cold.reads.getAll(BIZ, ids);
    assertThat(first.items()).extracting(Item::id).containsExactlyElementsOf(live);
    assertThat(first.missing())
        .containsExactlyElementsOf(ids.stream().filter(id -> id > 200).toList());
    assertThat(first.source()).isEqualTo(ReadSource.DB);
    assertThat(template.calls.get()).as("Redis round trips").isEqualTo(1);
    assertThat(cold.store.joint.get()).as("database queries").isEqualTo(1);
    assertThat(cold.counters.perId).as("separate counter queries").isEmpty();
    Set<Long> queried = new HashSet<>(inDatabase);
    queried.addAll(absent);
    assertThat(cold.store.perId.keySet()).as("ids the query asked for").isEqualTo(queried);

    // The write-back runs after the answer; then a new instance finds everything in Redis.
    writeBacks.runAll();
    template.calls.set(0);
    Instance next =
        new Instance(properties(1_000_000, Duration.ofSeconds(10)), 8, template, writeBacks);
    ItemReads.Batch second = next.reads.getAll(BIZ, ids);
    assertThat(second.items()).extracting(Item::id).containsExactlyElementsOf(live);
    assertThat(second.source()).isEqualTo(ReadSource.REDIS);
    assertThat(template.calls.get()).as("Redis round trips").isEqualTo(1);
    assertThat(next.store.joint.get()).as("database queries").isZero();
    // And once held locally, none at all.
    template.calls.set(0);
    assertThat(next.reads.getAll(BIZ, ids).source()).isEqualTo(ReadSource.LOCAL);
    assertThat(template.calls.get()).as("Redis round trips").isZero();
  }

  @Test
  void aBatchRead_thatQueriedBeforeACreate_doesNotHideTheItemAfterIt() throws Exception {
    HeldTasks writeBacks = new HeldTasks();
    Instance reader =
        new Instance(properties(1_000_000, Duration.ofSeconds(10)), 8, redis, writeBacks);
    reader.store.gate = new CountDownLatch(1);
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<ItemReads.Batch> early = pool.submit(() -> reader.reads.getAll(BIZ, List.of(77L)));
      assertThat(reader.store.atGate.await(30, TimeUnit.SECONDS)).isTrue();
      // The query found nothing; the item is created before the batch installs that answer.
      create(77, "new");
      reader.writes.created(BIZ, 77);
      reader.store.gate.countDown();
      assertThat(early.get(30, TimeUnit.SECONDS).missing()).containsExactly(77L);
    }
    reader.store.gate = null;
    writeBacks.runAll();
    assertThat(reader.reads.get(BIZ, 77).item().title()).isEqualTo("new");
    assertThat(reader.reads.getAll(BIZ, List.of(77L)).missing()).isEmpty();
    assertThat(new Instance().reads.get(BIZ, 77).item().title()).isEqualTo("new");
  }

  private static List<Long> range(long from, long to) {
    List<Long> ids = new ArrayList<>();
    for (long id = from; id <= to; id++) {
      ids.add(id);
    }
    return ids;
  }

  @Test
  void tenThousandAbsentIds_reachTheDatabaseOnlyForBloomFalsePositives() throws Exception {
    insert(1, 1_000);
    Instance a = new Instance(properties(1_000_000, Duration.ofSeconds(10)), 8);
    ItemFilterJobs jobs =
        new ItemFilterJobs(a.store, a.caches, bizes, properties(1_000_000, Duration.ZERO));
    runFilterJob(jobs);
    assertThat(a.caches.filter().built(BIZ)).isTrue();
    a.reads.getAll(BIZ, List.of(50_000L)); // loads the scripts into Redis
    a.store.perId.clear();

    Set<Long> mayExist = new HashSet<>();
    for (long from = 1_001; from <= 11_000; from += 100) {
      List<Long> ids = new ArrayList<>();
      for (long id = from; id < from + 100; id++) {
        ids.add(id);
      }
      ItemReads.Batch batch = a.reads.getAll(BIZ, ids);
      assertThat(batch.items()).isEmpty();
      assertThat(batch.missing()).containsExactlyElementsOf(ids);
      Set<Long> absent = a.caches.filter().certainlyAbsent(BIZ, ids);
      ids.stream().filter(id -> !absent.contains(id)).forEach(mayExist::add);
    }
    assertThat(a.store.perId.keySet()).as("ids that reached the database").isEqualTo(mayExist);
    double rate = mayExist.size() / 10_000.0;
    System.out.printf(
        "[%s] Bloom false positives: %d of 10000 absent ids (%.2f%%)%n",
        engine(), mayExist.size(), rate * 100);
    assertThat(rate).as("false-positive rate, configured 1%").isLessThan(0.03);
    // The existing ids all still read (a Bloom filter never denies a member).
    ItemReads.Batch present = a.reads.getAll(BIZ, List.of(1L, 500L, 1_000L));
    assertThat(present.missing()).isEmpty();
  }

  @Test
  void aRedisFlush_underSteadyLoad_reachesTheDatabaseOnlyThroughTheBulkhead() throws Exception {
    final int threads = 8;
    final int reads = 150;
    insert(1, 2_000);
    int places = 3;
    ItemCacheProperties small =
        new ItemCacheProperties(
            50, // a local cache far smaller than the items read: most reads go to Redis
            Duration.ofSeconds(30),
            Duration.ofSeconds(1),
            Duration.ofMinutes(10),
            Duration.ofHours(1),
            Duration.ofSeconds(10),
            0.2,
            Duration.ofSeconds(2),
            Duration.ofMillis(300),
            1024,
            1_000_000,
            0.01,
            "0 0 0 1 1 *",
            Duration.ofSeconds(2),
            true);
    Instance a = new Instance(small, places);
    // Warm Redis with every item.
    for (long from = 1; from <= 2_000; from += 100) {
      List<Long> ids = new ArrayList<>();
      for (long id = from; id < from + 100; id++) {
        ids.add(id);
      }
      a.reads.getAll(BIZ, ids);
    }
    int warmQueries = a.store.perId.values().stream().mapToInt(AtomicInteger::get).sum();
    a.mostInFlight.set(0);
    AtomicInteger served = new AtomicInteger();
    AtomicInteger shed = new AtomicInteger();
    AtomicInteger fromDb = new AtomicInteger();
    List<Throwable> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();
    CountDownLatch flushed = new CountDownLatch(1);
    try (ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int t = 0; t < threads; t++) {
        readers.submit(
            () -> {
              for (int i = 0; i < reads; i++) {
                long id = 1 + ThreadLocalRandom.current().nextInt(2_000);
                try {
                  ItemReads.Found found = a.reads.get(BIZ, id);
                  served.incrementAndGet();
                  if (found.source() == ReadSource.DB) {
                    fromDb.incrementAndGet();
                  }
                } catch (OriginBusyException e) {
                  shed.incrementAndGet();
                } catch (Throwable e) {
                  unexpected.add(e);
                }
                if (i == reads / 4 && flushed.getCount() == 1) {
                  flushed.countDown();
                  redis.execute(
                      (org.springframework.data.redis.core.RedisCallback<Void>)
                          connection -> {
                            connection.serverCommands().flushAll();
                            return null;
                          });
                }
              }
              return null;
            });
      }
    }
    System.out.printf(
        "[%s] FLUSHALL under load: %d reads served (%d from the database), %d shed, at most %d"
            + " queries at once (bulkhead %d), %d warm-up queries%n",
        engine(),
        served.get(),
        fromDb.get(),
        shed.get(),
        a.mostInFlight.get(),
        places,
        warmQueries);
    assertThat(unexpected).isEmpty();
    assertThat(fromDb.get()).as("reads the flush sent to the database").isPositive();
    assertThat(a.mostInFlight.get()).as("queries at once").isLessThanOrEqualTo(places);
    assertThat(served.get() + shed.get()).isEqualTo(threads * reads);
  }

  @Test
  void aReadOfTheOldVersion_finishingAfterAnEdit_neverPutsItBack() throws Exception {
    create(7, "before");
    Instance reader = new Instance();
    reader.store.gate = new CountDownLatch(1);
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<ItemReads.Found> slow = pool.submit(() -> reader.reads.get(BIZ, 7));
      assertThat(reader.store.atGate.await(30, TimeUnit.SECONDS)).isTrue();
      // The read holds version 1; the edit commits version 2 and puts its floor into Redis.
      items.update(BIZ, 7, new ItemRequest(null, null, 1L, "after", List.of("t"), null, null));
      reader.store.gate.countDown();
      assertThat(slow.get(30, TimeUnit.SECONDS).item().title()).isEqualTo("before");
    }
    reader.store.gate = null;
    // Redis kept the floor of version 2: the old read's write was refused.
    assertThat(redis.opsForHash().get("hrtest:im:" + BIZ + ":7", "v")).isEqualTo("2");
    assertThat(redis.opsForHash().get("hrtest:im:" + BIZ + ":7", "k")).isEqualTo("f");
    // Whoever reads next, here or on a new instance, gets the edit.
    assertThat(new Instance().reads.get(BIZ, 7).item().title()).isEqualTo("after");
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> reader.reads.get(BIZ, 7).item().title().equals("after"));
    assertThat(redis.opsForHash().get("hrtest:im:" + BIZ + ":7", "k")).isEqualTo("d");
  }

  @Test
  void aReadAfterAnEdit_doesNotJoinALoadThatStartedBeforeIt() throws Exception {
    create(11, "before");
    Instance here = new Instance();
    CountDownLatch gate = new CountDownLatch(1);
    here.store.gate = gate;
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<ItemReads.Found> early = pool.submit(() -> here.reads.get(BIZ, 11));
      assertThat(here.store.atGate.await(30, TimeUnit.SECONDS)).isTrue();
      here.store.gate = null;
      // The edit commits while that load holds version 1; this instance hears of it at once.
      jdbc.update("UPDATE hr_item SET title = 'after', version = 2 WHERE biz = ? AND id = 11", BIZ);
      here.writes.changed(BIZ, 11, 2);
      // A read from now on loads anew: joined to the early load, it would wait for the gate.
      ItemReads.Found late = pool.submit(() -> here.reads.get(BIZ, 11)).get(10, TimeUnit.SECONDS);
      assertThat(late.item().title()).isEqualTo("after");
      gate.countDown();
      assertThat(early.get(30, TimeUnit.SECONDS).item().title()).isEqualTo("before");
    }
    // The early load finished last, with version 1: it replaced nothing.
    assertThat(here.reads.get(BIZ, 11).item().title()).isEqualTo("after");
    assertThat(new Instance().reads.get(BIZ, 11).item().title()).isEqualTo("after");
  }

  /**
   * Each biz's filter is sized from its count of ids: a biz of 10 items gets the smallest (1,024
   * ids at 1%, 1.2 KB), not a filter for a million ids (1.2 MB: what every new biz name cost
   * before), and the job rebuilds it at the next size once the count passes its capacity.
   */
  @Test
  void aFilter_isSizedFromItsBizsCount_andRebuiltLargerOnceOutgrown() {
    insert(1, 10);
    ItemCacheProperties properties = properties(1_000_000, Duration.ZERO);
    Instance a = new Instance(properties, 8);
    ItemFilterJobs jobs = new ItemFilterJobs(a.store, a.caches, bizes, properties);
    Runnable check = () -> runFilterJob(jobs);
    check.run();
    RedisBloomFilter filter = a.caches.filter();
    RedisBloomFilter.Held small = filter.held(BIZ);
    assertThat(small).isNotNull();
    assertThat(small.shape()).isEqualTo(RedisBloomFilter.Shape.of(1024, 0.01));
    assertThat(small.count()).isEqualTo(10);
    Long bytes = strlen(filter.key(BIZ, small.shape()));
    assertThat(bytes).isEqualTo(small.shape().bytes()).isLessThanOrEqualTo(4096);
    assertThat(filter.certainlyAbsent(BIZ, List.of(1L, 5L, 10L))).isEmpty();

    insert(11, 1_100);
    check.run();
    RedisBloomFilter.Held grown = filter.held(BIZ);
    assertThat(grown).isNotNull();
    assertThat(grown.shape()).isEqualTo(RedisBloomFilter.Shape.of(2048, 0.01));
    assertThat(grown.count()).isEqualTo(1_100);
    assertThat(strlen(filter.key(BIZ, grown.shape()))).isEqualTo(grown.shape().bytes());
    assertThat(redis.hasKey(filter.key(BIZ, small.shape()))).as("the outgrown filter").isFalse();
    List<Long> all = new ArrayList<>();
    for (long id = 1; id <= 1_100; id++) {
      all.add(id);
    }
    assertThat(filter.certainlyAbsent(BIZ, all)).isEmpty();
    List<Long> absent = new ArrayList<>();
    for (long id = 100_001; id <= 101_000; id++) {
      absent.add(id);
    }
    assertThat(filter.certainlyAbsent(BIZ, absent).size()).isGreaterThan(900);
  }

  private Long strlen(String key) {
    return redis.execute(
        (org.springframework.data.redis.core.RedisCallback<Long>)
            connection -> connection.stringCommands().strLen(key.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aLostBloomAdd_isFoundByTheCountCheck_andTheFilterRebuilt() {
    insert(1, 100);
    Instance a = new Instance(properties(1_000_000, Duration.ofSeconds(10)), 8);
    ItemFilterJobs jobs =
        new ItemFilterJobs(a.store, a.caches, bizes, properties(1_000_000, Duration.ZERO));
    Runnable check = () -> runFilterJob(jobs);
    check.run();
    assertThat(a.caches.filter().count(BIZ)).isEqualTo(100);
    // Items created without their add (a process that died between the two, a lost write).
    insert(101, 120);
    List<Long> late = new ArrayList<>();
    for (long id = 101; id <= 120; id++) {
      late.add(id);
    }
    assertThat(a.caches.filter().certainlyAbsent(BIZ, late)).isNotEmpty();
    check.run();
    assertThat(a.caches.filter().count(BIZ)).isEqualTo(120);
    assertThat(a.caches.filter().certainlyAbsent(BIZ, late)).isEmpty();
    assertThat(a.reads.getAll(BIZ, late).missing()).isEmpty();
  }

  @Test
  void anEditAndADeletion_reachTheOtherInstance_byNotice() {
    create(8, "first");
    Instance other = new Instance();
    assertThat(other.reads.get(BIZ, 8).item().title()).isEqualTo("first");
    assertThat(other.reads.get(BIZ, 8).source()).isEqualTo(ReadSource.LOCAL);
    items.update(BIZ, 8, new ItemRequest(null, null, 2L, "second", List.of("t"), null, null));
    // metadata-fresh is 30 s: only the notice can bring the edit within seconds.
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> other.reads.get(BIZ, 8).item().title().equals("second"));
    assertThat(other.reads.get(BIZ, 8).item().authorId()).isEqualTo(2L);
    items.delete(BIZ, 8);
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () ->
                assertThatThrownBy(() -> other.reads.get(BIZ, 8))
                    .isInstanceOf(ItemNotFoundException.class));
  }

  /**
   * Attributes are part of the metadata every tier keeps: a read from the database, from Redis and
   * from memory shows them (a single and a batch read), and an edit of the attributes alone raises
   * the version and reaches an instance holding the old ones, as a title edit does.
   */
  @Test
  void attributes_areShownFromEveryTier_andAnEditOfThemAlone_reachesTheOtherInstance() {
    create(12, "attributed");
    jdbc.update(
        "UPDATE hr_item SET attributes = ? WHERE biz = ? AND id = 12",
        "{\"community\":\"java\",\"lang\":\"en\"}",
        BIZ);
    Map<String, String> stored = Map.of("community", "java", "lang", "en");
    HeldTasks writeBacks = new HeldTasks();
    Instance cold =
        new Instance(properties(1_000_000, Duration.ofSeconds(10)), 8, redis, writeBacks);
    ItemReads.Found fromDb = cold.reads.get(BIZ, 12);
    assertThat(fromDb.source()).isEqualTo(ReadSource.DB);
    assertThat(fromDb.item().attributes())
        .containsExactlyEntriesOf(new java.util.TreeMap<>(stored));
    writeBacks.runAll();
    assertThat((String) redis.opsForHash().get("hrtest:im:" + BIZ + ":12", "d"))
        .contains("\"attributes\":{\"community\":\"java\",\"lang\":\"en\"}");

    Instance other = new Instance();
    ItemReads.Found fromRedis = other.reads.get(BIZ, 12);
    assertThat(fromRedis.source()).isEqualTo(ReadSource.REDIS);
    assertThat(fromRedis.item()).isEqualTo(fromDb.item());
    assertThat(fromRedis.item().attributes().keySet()).containsExactly("community", "lang");
    ItemReads.Found fromMemory = other.reads.get(BIZ, 12);
    assertThat(fromMemory.source()).isEqualTo(ReadSource.LOCAL);
    assertThat(fromMemory.item()).isEqualTo(fromDb.item());
    ItemReads.Batch batch = new Instance().reads.getAll(BIZ, List.of(12L));
    assertThat(batch.source()).isEqualTo(ReadSource.REDIS);
    assertThat(batch.items()).containsExactly(fromDb.item());

    long version = itemStore.version(BIZ, 12);
    items.update(
        BIZ,
        12,
        new ItemRequest(null, null, 1L, "attributed", List.of("t"), Map.of("lang", "de"), null));
    assertThat(itemStore.version(BIZ, 12)).isEqualTo(version + 1);
    // metadata-fresh is 30 s: only the notice can bring the edit within seconds.
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> other.reads.get(BIZ, 12).item().attributes().equals(Map.of("lang", "de")));
    assertThat(new Instance().reads.get(BIZ, 12).item().attributes())
        .isEqualTo(Map.of("lang", "de"));
    items.update(BIZ, 12, new ItemRequest(null, null, 1L, "attributed", List.of("t"), null, null));
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> other.reads.get(BIZ, 12).item().attributes().isEmpty());
    assertThat(other.reads.getAll(BIZ, List.of(12L)).items().getFirst().attributes()).isEmpty();
  }

  @Test
  void foldedCounters_areWhatItemReadsShow_onEveryInstance() {
    create(9, "counted");
    Instance other = new Instance();
    assertThat(other.reads.get(BIZ, 9).item().counts().like()).isZero();
    // What the folder does after a fold commits: write the counters under the fold's number.
    jdbc.update(
        "UPDATE hr_item_counter SET like_cnt = 5, fold_no = 40 WHERE biz = ? AND item_id = 9", BIZ);
    Instance folder = new Instance();
    folder.writes.countsFolded(
        40, Map.of(new ItemKey(BIZ, 9), Counters.allTrusted(new Interactions(5, 0, 0, 0, 0, 0))));
    assertThat(redis.opsForHash().get("hrtest:ic:" + BIZ + ":9", "v")).isEqualTo("40");
    // An older fold's counters arriving late are refused.
    folder.writes.countsFolded(
        39, Map.of(new ItemKey(BIZ, 9), Counters.allTrusted(new Interactions(4, 0, 0, 0, 0, 0))));
    assertThat(redis.opsForHash().get("hrtest:ic:" + BIZ + ":9", "v")).isEqualTo("40");
    Instance third = new Instance();
    assertThat(third.reads.get(BIZ, 9).item().counts().like()).isEqualTo(5);
    // The first instance, which holds the old counts, refreshes them within counts-fresh (1 s).
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> other.reads.get(BIZ, 9).item().counts().like() == 5);
  }

  @Test
  void withRedisDown_heldItemsAreServedLocally_andOthersFromTheDatabase() throws Exception {
    for (long id = 1; id <= 3; id++) {
      create(id, "item " + id);
    }
    Instance a = new Instance();
    a.reads.get(BIZ, 1);
    a.reads.get(BIZ, 2);
    REDIS.stop();
    try {
      ItemReads.Found held = a.reads.get(BIZ, 1);
      assertThat(held.source()).isEqualTo(ReadSource.LOCAL);
      assertThat(held.item().title()).isEqualTo("item 1");
      ItemReads.Found loaded = a.reads.get(BIZ, 3);
      assertThat(loaded.source()).isEqualTo(ReadSource.DB);
      assertThat(loaded.item().title()).isEqualTo("item 3");
      assertThatThrownBy(() -> a.reads.get(BIZ, 4)).isInstanceOf(ItemNotFoundException.class);
    } finally {
      REDIS.startAgain();
    }
    // Notices sent while disconnected are lost: on reconnecting, the local caches are dropped.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> !a.caches.metadata().holdsLocally(new ItemKey(BIZ, 1)));
  }

  /** One run of the item-filter job, as its lease would start it. */
  private static void runFilterJob(ItemFilterJobs jobs) {
    try {
      jobs.jobs()
          .getFirst()
          .job()
          .run(JobContext.of(ItemFilterJobs.NAME, Instant.now(), true, () -> false));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
