package io.hotrank.item;

import io.hotrank.audit.AuditLog;
import io.hotrank.problem.FieldViolation;
import io.hotrank.problem.Violations;
import io.hotrank.time.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The registry of bizes, the namespaces items live in: a biz is known if it is configured ({@code
 * hotrank.bizes}, plus every biz a configured board names) or was created by an admin ({@code POST
 * /api/v1/admin/bizes}, stored in {@code hr_biz}). Every write and read that names a biz asks here
 * first, so that nobody can make the service (and its per-biz Bloom filter in Redis) grow a new
 * namespace without the admin token.
 *
 * <p>Configured bizes are known from the configuration, never stored. The check is a lookup in an
 * in-memory set. A name not in the set may have been created on another instance since this one
 * read the table: a miss re-reads {@code hr_biz}, at most once per {@link #REREAD_EVERY} (counted
 * from the end of the last read) and by one thread at a time, so random names sent by a client cost
 * at most one query a second. Misses that arrive while a read is in flight wait for it, at most
 * {@link #WAIT}, and take its answer (or its failure) instead of reading again; one that waits
 * longer answers a storage failure (503 with Retry-After) rather than queue behind a slow or dead
 * database. If the read fails, the misses until the next one answer a storage failure too (each its
 * own exception, caused by the read's), while known bizes keep working. Thread-safe.
 */
@Component
public class Bizes {

  private static final Logger log = LoggerFactory.getLogger(Bizes.class);

  /** How often a miss may re-read the stored bizes at most. */
  static final Duration REREAD_EVERY = Duration.ofSeconds(1);

  /**
   * How long a miss (or the full list) waits for another thread's read of the stored bizes before
   * it answers a storage failure: the wait for a database connection, so that a miss never waits
   * longer for another's read than it would for its own connection.
   */
  static final Duration WAIT = Duration.ofSeconds(2);

  /** A known biz, as the admin API lists it. */
  public record Biz(String name, boolean configured, @Nullable Instant createdAt) {}

  private final BizStore store;
  private final @Nullable AuditLog audit;
  private final @Nullable TransactionTemplate tx;
  private final Clock clock;
  private final Ticker ticker;
  private final Set<String> configured;
  private final ReentrantLock rereading = new ReentrantLock();

  /** Stored bizes by name, with their creation time (epoch ms). Replaced whole, never mutated. */
  private volatile Map<String, Long> stored = Map.of();

  /** How many reads of the stored bizes finished (or failed); guarded by {@link #rereading}. */
  private volatile long generation;

  /** When the last read of the stored bizes finished (ticker nanos); none yet when null. */
  private @Nullable Long lastReread;

  /** Whether that read failed: misses until the next one answer a storage failure. */
  private @Nullable RuntimeException lastFailure;

  /**
   * For tests and tools that need no audit: {@link #create(String, String, String)} with an actor
   * then fails rather than store a biz without its entry.
   */
  Bizes(
      BizStore store,
      BizProperties properties,
      Clock clock,
      Ticker ticker,
      Collection<String> declared) {
    this(store, properties, clock, ticker, declared, (TransactionTemplate) null, null);
  }

  /**
   * The service's: the audit log and the transaction manager are required, so that an operator's
   * create can never be stored without its audit entry because a bean was missing.
   */
  @org.springframework.beans.factory.annotation.Autowired
  Bizes(
      BizStore store,
      BizProperties properties,
      Clock clock,
      Ticker ticker,
      ObjectProvider<DeclaredBizes> declared,
      AuditLog audit,
      PlatformTransactionManager transactions) {
    this(
        store,
        properties,
        clock,
        ticker,
        declared.orderedStream().flatMap(d -> d.bizes().stream()).toList(),
        new TransactionTemplate(Objects.requireNonNull(transactions, "transactions")),
        Objects.requireNonNull(audit, "audit"));
  }

  private Bizes(
      BizStore store,
      BizProperties properties,
      Clock clock,
      Ticker ticker,
      Collection<String> declared,
      @Nullable TransactionTemplate tx,
      @Nullable AuditLog audit) {
    this.audit = audit;
    this.tx = tx;
    this.store = store;
    this.clock = clock;
    this.ticker = ticker;
    this.configured = configured(properties.bizes(), declared);
    try {
      this.stored = Map.copyOf(store.all());
    } catch (RuntimeException e) {
      // Configured bizes work without the database; the first miss reads the table again.
      log.warn(
          "Stored bizes not read at start ({}); a request naming one reads them", e.toString());
    }
  }

  /** {@code hotrank.bizes} and the bizes other modules declare (the boards'), validated. */
  static Set<String> configured(List<String> bizes, Collection<String> declared) {
    Set<String> names = new TreeSet<>(bizes);
    names.addAll(declared);
    Violations violations = new Violations();
    for (String name : names) {
      ItemService.validateBiz(name, "hotrank.bizes", violations);
    }
    if (!violations.isEmpty()) {
      throw new IllegalStateException(
          "hotrank.bizes: every biz must match " + ItemService.BIZ.pattern() + ", got " + names);
    }
    return Set.copyOf(names);
  }

  /**
   * Whether the biz is known. A lookup in memory, except on a miss, which may re-read the stored
   * bizes (see the class comment).
   *
   * @throws org.springframework.dao.DataAccessException if that read failed, or another thread's
   *     read held this one up for longer than {@link #WAIT} (503)
   */
  public boolean known(String biz) {
    return configured.contains(biz) || stored.containsKey(biz) || reread(biz);
  }

  /** Whether the configuration names the biz ({@code hotrank.bizes} or a board's biz). */
  public boolean configured(String biz) {
    return configured.contains(biz);
  }

  /**
   * Refuses a read of an unknown biz with a 404.
   *
   * @throws UnknownBizException (404) unless the biz is known
   */
  public void requireReadable(String biz, String field) {
    if (!known(biz)) {
      throw UnknownBizException.read(biz, field);
    }
  }

  /**
   * Refuses a write of an unknown biz with a 400 naming the field.
   *
   * @throws UnknownBizException (400) unless the biz is known
   */
  public void requireWritable(String biz, String field) {
    if (!known(biz)) {
      throw UnknownBizException.write(List.of(UnknownBizException.violation(biz, field)));
    }
  }

  /**
   * Refuses a batch of writes (events) that names any unknown biz, naming the field of each write
   * that does. A known biz costs a set lookup per write, nothing more.
   *
   * @param writes the batch, in request order
   * @param biz the biz each write names
   * @param field the request field of that biz, for example {@code events[3].biz}
   * @throws UnknownBizException (400) unless every biz is known
   */
  public <T> void requireWritable(
      List<T> writes, Function<T, String> biz, Function<T, String> field) {
    Set<String> unknown = null;
    for (T write : writes) {
      String name = biz.apply(write);
      if (!known(name)) {
        (unknown == null ? unknown = new HashSet<>() : unknown).add(name);
      }
    }
    if (unknown != null) {
      List<FieldViolation> violations = new ArrayList<>();
      for (T write : writes) {
        String name = biz.apply(write);
        if (unknown.contains(name)) {
          violations.add(UnknownBizException.violation(name, field.apply(write)));
        }
      }
      throw UnknownBizException.write(violations);
    }
  }

  /**
   * Creates a biz (an admin's call): stored unless configured or stored already.
   *
   * @return the biz, and whether this call created it
   * @throws io.hotrank.problem.InvalidRequestException naming {@code name} if it is not a biz name
   */
  public Created create(@Nullable String name) {
    return create(name, null, null);
  }

  /**
   * {@link #create(String)} by an operator: a biz this call stores is audited (action {@code
   * biz.create}, target {@code biz:<name>}) in the insert's transaction; one that existed writes no
   * entry. On PostgreSQL a duplicate (another instance's create won the race) fails the
   * transaction, which then holds nothing else: its rollback at commit loses nothing.
   *
   * @param actor the operator's name, or null for no audit entry (tests, the demo)
   * @param reason why, or null
   * @throws IllegalStateException with an actor, on an instance built without an audit log (the
   *     constructor for tests), before anything is stored
   */
  public Created create(@Nullable String name, @Nullable String actor, @Nullable String reason) {
    Violations violations = new Violations();
    ItemService.validateBiz(name, "name", violations);
    violations.throwIfAny();
    if (configured.contains(name)) {
      return new Created(biz(name), false);
    }
    long now = clock.millis();
    if (actor != null && (audit == null || tx == null)) {
      throw new IllegalStateException(
          "Bizes built without an audit log cannot create biz '" + name + "' for " + actor);
    }
    boolean inserted =
        actor == null || audit == null || tx == null
            ? store.insert(name, now)
            : Boolean.TRUE.equals(
                tx.execute(
                    status -> {
                      boolean stored = store.insert(name, now);
                      if (stored) {
                        audit.record(
                            actor, "biz.create", "biz:" + name, reason, null, Map.of("name", name));
                      }
                      return stored;
                    }));
    lock();
    try {
      Map<String, Long> all = new LinkedHashMap<>(read());
      all.putIfAbsent(name, now);
      stored = Map.copyOf(all);
    } finally {
      rereading.unlock();
    }
    return new Created(biz(name), inserted);
  }

  /** The outcome of {@link #create}. */
  public record Created(Biz biz, boolean created) {}

  /**
   * Every known biz, by name, read afresh from the database (the admin's list and the filter
   * job's).
   *
   * @throws org.springframework.dao.DataAccessException if the read failed, or another thread's
   *     read held it up for longer than {@link #WAIT} (503)
   */
  public List<Biz> all() {
    lock();
    try {
      stored = Map.copyOf(read());
    } finally {
      rereading.unlock();
    }
    Set<String> names = new TreeSet<>(configured);
    names.addAll(stored.keySet());
    return names.stream().map(this::biz).toList();
  }

  private Biz biz(String name) {
    Long createdAt = stored.get(name);
    return new Biz(
        name,
        configured.contains(name),
        createdAt == null ? null : Instant.ofEpochMilli(createdAt));
  }

  /**
   * On a miss: re-reads the stored bizes unless that was done less than {@link #REREAD_EVERY} ago
   * or finished while this thread waited (then that read's answer is this one's), one thread at a
   * time, and answers whether the biz is among them.
   */
  private boolean reread(String biz) {
    long seen = generation;
    lock();
    try {
      if (stored.containsKey(biz)) {
        return true; // read by the thread this one waited for
      }
      if (generation == seen
          && (lastReread == null || ticker.read() - lastReread >= REREAD_EVERY.toNanos())) {
        read();
        return stored.containsKey(biz);
      }
      // A read finished while this thread waited, or less than a second ago: its answer.
      if (lastFailure != null) {
        throw new DataAccessResourceFailureException(
            "The stored bizes could not be read: " + lastFailure.getMessage(), lastFailure);
      }
      return false;
    } finally {
      rereading.unlock();
    }
  }

  /**
   * Reads the stored bizes into {@link #stored}, under the lock, and records when it finished and
   * whether it failed.
   *
   * @return what was read
   */
  private Map<String, Long> read() {
    try {
      Map<String, Long> all = store.all();
      stored = Map.copyOf(all);
      lastFailure = null;
      return all;
    } catch (RuntimeException e) {
      lastFailure = e;
      throw e;
    } finally {
      lastReread = ticker.read();
      generation++;
    }
  }

  /**
   * Takes the lock of the reads, waiting at most {@link #WAIT} for another thread's.
   *
   * @throws DataAccessResourceFailureException (503) if that read held it longer
   */
  private void lock() {
    boolean locked;
    try {
      locked = rereading.tryLock(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DataAccessResourceFailureException(
          "Interrupted while waiting for a read of the stored bizes", e);
    }
    if (!locked) {
      throw new DataAccessResourceFailureException(
          "The stored bizes are being read by another request for over " + WAIT.toMillis() + " ms");
    }
  }

  /** How many threads wait for a read of the stored bizes (for tests). */
  int waiting() {
    return rereading.getQueueLength();
  }
}
