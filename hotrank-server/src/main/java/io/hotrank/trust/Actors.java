package io.hotrank.trust;

import io.hotrank.audit.AuditLog;
import io.hotrank.problem.InvalidRequestException;
import io.hotrank.problem.Violations;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Actors: what the platform says of them and what operators decide. A flag and its clearing are
 * audited in the transaction that makes them.
 */
public final class Actors {

  /** How far a platform's clock may run ahead before a createdAt counts as in the future. */
  static final Duration FUTURE_TOLERANCE = Duration.ofMinutes(5);

  /**
   * Runs of a write that lost a deadlock to a concurrent write of the same actor, or (a flag on the
   * Kafka source) found that a fold gave the actor an action it had not locked yet.
   */
  private static final int ATTEMPTS = 10;

  /** The longest reason of a flag. */
  static final int MAX_REASON = 500;

  /** What a put did. */
  record Put(Actor actor, boolean created) {}

  private final ActorStore store;
  private final AuditLog audit;
  private final TransactionTemplate tx;
  private final Clock clock;
  private final FlagRetraction retraction;

  Actors(
      ActorStore store,
      AuditLog audit,
      TransactionTemplate tx,
      Clock clock,
      FlagRetraction retraction) {
    this.store = store;
    this.audit = audit;
    this.tx = tx;
    this.clock = clock;
    this.retraction = retraction;
  }

  /**
   * The actor with this user id.
   *
   * @throws ActorNotFoundException when there is none
   */
  public Actor get(long userId) {
    validUserId(userId);
    return store.find(userId).orElseThrow(() -> new ActorNotFoundException(userId));
  }

  /** The stored actors among these user ids (0, no actor, is left out), a few hundred per query. */
  public java.util.Map<Long, Actor> findAll(java.util.Collection<Long> userIds) {
    return store.findAll(userIds);
  }

  /** The actor with this user id, if the platform sent it or an operator flagged it. */
  public Optional<Actor> find(long userId) {
    return store.find(userId);
  }

  /**
   * Stores what the platform says of an actor; an operator's flag stays.
   *
   * @throws InvalidRequestException naming every invalid field; nothing is stored then
   */
  Put put(long userId, @Nullable ActorRequest request) {
    Instant now = clock.instant();
    Violations violations = new Violations();
    violations.check(userId > 0, "userId", "must be a positive integer");
    Instant createdAt = request == null ? null : request.createdAt();
    if (violations.check(createdAt != null, "createdAt", "is required")) {
      violations.check(
          !createdAt.isAfter(now.plus(FUTURE_TOLERANCE)),
          "createdAt",
          "must not lie more than " + FUTURE_TOLERANCE.toMinutes() + " minutes in the future");
      violations.check(
          !createdAt.isBefore(Instant.EPOCH), "createdAt", "must not be before " + Instant.EPOCH);
    }
    Double trust = request == null ? null : request.trust();
    if (trust != null) {
      violations.check(
          trust >= 0 && trust <= 1, "trust", "must be a number from 0 to 1, was " + trust);
    }
    violations.throwIfAny();
    boolean bot = request.bot() != null && request.bot();
    double kept = trust == null ? 1.0 : trust;
    return inTransaction(
        () -> {
          boolean created =
              store.put(
                  userId, createdAt.truncatedTo(ChronoUnit.MILLIS), bot, kept, now.toEpochMilli());
          return new Put(store.find(userId).orElseThrow(), created);
        });
  }

  /**
   * Flags an actor (one the platform never sent, too), audited as {@code actor.flag} with the actor
   * before and after; concurrent flags and puts of the actor are each applied whole, in turn. Then,
   * in a transaction of its own, the actor's standing likes and collects come out of the trusted
   * counters ({@link FlagRetraction}); a new reason for a flagged actor takes back whatever still
   * weighs (nothing, unless it was flagged before trusted counters, or that second transaction
   * failed: flagging again completes it).
   *
   * @throws InvalidRequestException naming {@code userId} and {@code reason}; nothing changes then
   */
  public Actor flag(long userId, @Nullable String reason, String operator) {
    Violations violations = new Violations();
    violations.check(userId > 0, "userId", "must be a positive integer");
    String kept = reason == null ? "" : reason.strip();
    violations.check(
        !kept.isEmpty() && kept.length() <= MAX_REASON,
        "reason",
        "is required, 1 to " + MAX_REASON + " characters");
    violations.throwIfAny();
    Actor flagged =
        inTransaction(
            () -> {
              long now = clock.millis();
              Actor before = store.lock(userId).orElse(null);
              if (before != null || !store.insertFlagged(userId, kept, operator, now)) {
                before = before != null ? before : store.lock(userId).orElseThrow();
                store.flag(userId, kept, operator, now);
              }
              Actor after = store.find(userId).orElseThrow();
              audit.record(operator, "actor.flag", target(userId), kept, before, after);
              retraction.seal();
              return after;
            });
    return inTransaction(
        () -> {
          Actor now = store.lock(userId).orElseThrow();
          if (now.flag() != null) {
            retraction.retract(userId); // not when cleared meanwhile
          }
          return flagged;
        });
  }

  /**
   * Clears an actor's flag, audited as {@code actor.unflag} when it was flagged.
   *
   * @param reason why, as the admin API's {@code ?reason=}: blank is none
   * @throws ActorNotFoundException when there is no such actor
   * @throws InvalidRequestException naming {@code userId} or {@code reason} (over 500 characters)
   */
  public Actor unflag(long userId, String operator, @Nullable String reason) {
    validUserId(userId);
    String kept = AuditLog.reason(reason);
    return inTransaction(
        () -> {
          Actor before = store.lock(userId).orElseThrow(() -> new ActorNotFoundException(userId));
          if (before.flag() == null) {
            return before;
          }
          store.unflag(userId, clock.millis());
          Actor after = store.find(userId).orElseThrow();
          audit.record(operator, "actor.unflag", target(userId), kept, before, after);
          return after;
        });
  }

  /** Up to {@code limit} flagged actors, the most recently flagged first. */
  public List<Actor> recentlyFlagged(int limit) {
    return store.recentlyFlagged(limit);
  }

  /**
   * Runs a write of one actor in a transaction, again when it lost a deadlock to a concurrent first
   * write of the same actor (see {@link ActorStore}); the retry finds the row and locks it before
   * anything else, so it cannot deadlock the same way.
   */
  private <T> T inTransaction(Supplier<T> write) {
    for (int attempt = 1; ; attempt++) {
      try {
        return tx.execute(s -> write.get());
      } catch (PessimisticLockingFailureException deadlocked) {
        if (attempt == ATTEMPTS) {
          throw deadlocked;
        }
        try {
          Thread.sleep(5L * attempt); // lets the fold that got in the way commit
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw deadlocked;
        }
      }
    }
  }

  private static String target(long userId) {
    return "actor:" + userId;
  }

  private static void validUserId(long userId) {
    if (userId <= 0) {
      throw new InvalidRequestException("userId", "must be a positive integer");
    }
  }
}
