package io.hotrank.trust;

import io.hotrank.core.score.InteractionType;
import io.hotrank.storage.SqlDialect;
import java.util.Collection;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What each actor's events weigh when folded, in thousandths of an interaction (what the trusted
 * counters add up): 0 for a bot or a flagged actor; {@code hotrank.trust.new-actor-weight} times
 * its trust while the account is younger than {@code new-actor-age} at the event's time; its trust
 * otherwise. An event without a {@code userId}, or of an actor the platform never sent (or only an
 * operator flagged and then cleared), weighs {@code anonymous-weight}. Thread-safe.
 */
public final class ActorWeights {

  /** Parts of an interaction in a weight: the trusted counters' unit. */
  public static final long UNIT = 1000;

  /** The weights of some actors, as read at once. */
  @FunctionalInterface
  public interface Weigher {
    /**
     * What an event of the actor at {@code atMillis} weighs, in thousandths.
     *
     * @param userId the event's {@code userId}; 0 for none
     */
    long weight(long userId, long atMillis);
  }

  private final ActorStore store;
  private final long anonymous;
  private final double newActorWeight;
  private final long newActorAgeMillis;
  private final TrustProperties.MaxPerActor caps;

  /** The weights read from {@code hr_actor} through {@code jdbc}, by {@code properties}. */
  public static ActorWeights reading(
      JdbcTemplate jdbc, SqlDialect dialect, TrustProperties properties) {
    return new ActorWeights(new ActorStore(jdbc, dialect), properties);
  }

  ActorWeights(ActorStore store, TrustProperties properties) {
    this.store = store;
    this.anonymous = Math.round(properties.anonymousWeight() * UNIT);
    this.newActorWeight = properties.newActorWeight();
    this.newActorAgeMillis = properties.newActorAge().toMillis();
    this.caps = properties.maxPerActor();
  }

  /**
   * The weights of the given actors, read from the database in the caller's transaction (one query
   * per few hundred actors): the actors as they stand when the fold reads them.
   */
  public Weigher of(Collection<Long> userIds) {
    Map<Long, Actor> actors = store.findAll(userIds);
    return (userId, atMillis) -> {
      Actor actor = userId == 0 ? null : actors.get(userId);
      return actor == null ? anonymous : weight(actor, atMillis);
    };
  }

  /** What an event of this actor at {@code atMillis} weighs, in thousandths. */
  long weight(Actor actor, long atMillis) {
    if (actor.flag() != null || actor.bot()) {
      return 0;
    }
    if (actor.createdAt() == null) {
      return anonymous; // an operator's cleared flag: the platform never sent it
    }
    boolean young = atMillis - actor.createdAt().toEpochMilli() < newActorAgeMillis;
    return Math.round((young ? newActorWeight : 1.0) * actor.trust() * UNIT);
  }

  /**
   * How many of one actor's interactions of {@code type} on one item the trusted counters take, 0
   * for no cap; likes and collects count once while they stand, by the actor's state.
   */
  public int maxPerActor(InteractionType type) {
    return switch (type) {
      case VIEW -> caps.view();
      case COMMENT -> caps.comment();
      case SHARE -> caps.share();
      case DISLIKE -> caps.dislike();
      case LIKE, COLLECT -> 1;
    };
  }
}
