package io.hotrank.review;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.hotrank.board.BoardDefinition;
import io.hotrank.core.score.Interactions;
import io.hotrank.core.score.Weights;
import io.hotrank.ingest.Engagement;
import io.hotrank.item.Counters;
import io.hotrank.item.ItemCards;
import io.hotrank.trust.Actor;
import io.hotrank.trust.Actors;
import io.hotrank.trust.TrustProperties;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether items look bought (docs/design/trust.md), from three reads per call whatever the number
 * of items: their counters, who gave them their interactions ({@link Engagement}) and what is known
 * of those actors. An item with fewer than {@code hotrank.review.min-interactions} raw interactions
 * is never suspicious. Otherwise it is when
 *
 * <ul>
 *   <li>its points weighed by their actors are under {@code hotrank.trust.suspicious-ratio} of its
 *       raw points (the board's weights; a like-storm of new accounts weighs a fifth), or
 *   <li>its three most active actors gave more than {@code hotrank.trust.concentration} of its
 *       interactions (a ring).
 * </ul>
 *
 * The points are compared rather than the scores: a Reddit score is a logarithm, and age divides
 * both scores alike. Who gave an item its interactions is read at most once per {@link
 * #ACTORS_FRESH} per item on this instance; the counters at every assessment. Thread-safe.
 */
final class Suspicion {

  /** The most active actors whose share makes a ring. */
  static final int TOP_ACTORS = 3;

  /** The most active actors of an item whose ages and flags give the shares of the evidence. */
  static final int MOST_ACTIVE = 100;

  private final ItemCards items;
  private final Engagement engagement;
  private final Actors actors;
  private final TrustProperties trust;
  private final ReviewProperties review;

  Suspicion(
      ItemCards items,
      Engagement engagement,
      Actors actors,
      TrustProperties trust,
      ReviewProperties review) {
    this.items = items;
    this.engagement = engagement;
    this.actors = actors;
    this.trust = trust;
    this.review = review;
  }

  /**
   * Who gave an item its interactions, summed up: how many actors, what the three most active gave,
   * and among the {@code looked} most active ({@value #MOST_ACTIVE} at most) how many are new and
   * how many flagged or bots.
   */
  record Summary(int distinct, int looked, long top, int fresh, int flagged, long interactions) {

    /**
     * Whether this summary, taken when the item had {@link #interactions}, still describes an item
     * with {@code now} interactions: it grew by a tenth at most (a storm does not hide behind it).
     */
    boolean describes(long now) {
      return now <= interactions + interactions / 10;
    }
  }

  private record ItemKey(String biz, long itemId) {}

  /**
   * How long an item's {@link Summary} is reused: a live board under review publishes every second,
   * and grouping a popular item's rows per actor each time would cost the database more than the
   * board. The trusted ratio is computed from the counters at every assessment; the concentration
   * and the shares lag by this much at most, and are read again at once when the item's
   * interactions grew by more than a tenth.
   */
  static final Duration ACTORS_FRESH = Duration.ofSeconds(5);

  private final Cache<ItemKey, Summary> summaries =
      Caffeine.newBuilder().expireAfterWrite(ACTORS_FRESH).maximumSize(100_000).build();

  /**
   * The evidence of each live item among {@code ids}, as the board weighs interactions.
   *
   * @throws org.springframework.dao.DataAccessException if the database fails
   */
  Map<Long, Evidence> assess(BoardDefinition board, Collection<Long> ids, Instant now) {
    if (ids.isEmpty()) {
      return Map.of();
    }
    Map<Long, ItemCards.Card> cards = items.cards(board.biz(), ids);
    Map<Long, Summary> summed = new HashMap<>();
    List<Long> missing = new ArrayList<>();
    for (Map.Entry<Long, ItemCards.Card> card : cards.entrySet()) {
      long id = card.getKey();
      Summary held = summaries.getIfPresent(new ItemKey(board.biz(), id));
      if (held == null || !held.describes(total(card.getValue().counts()))) {
        missing.add(id);
      } else {
        summed.put(id, held);
      }
    }
    if (!missing.isEmpty()) {
      Map<Long, Engagement.Given> given = engagement.byActor(board.biz(), missing, MOST_ACTIVE);
      Set<Long> users = new HashSet<>();
      given.values().forEach(g -> g.mostActive().forEach(a -> users.add(a.userId())));
      Map<Long, Actor> known = actors.findAll(users);
      for (Long id : missing) {
        Summary summary =
            summarize(
                given.getOrDefault(id, new Engagement.Given(0, List.of())),
                known,
                now,
                total(cards.get(id).counts()));
        summaries.put(new ItemKey(board.biz(), id), summary);
        summed.put(id, summary);
      }
    }
    Map<Long, Evidence> assessed = new HashMap<>();
    cards.forEach(
        (id, card) -> assessed.put(id, evidence(board.weights(), card.counters(), summed.get(id))));
    return assessed;
  }

  private Summary summarize(
      Engagement.Given given, Map<Long, Actor> known, Instant now, long interactions) {
    long top = 0;
    for (int i = 0; i < Math.min(TOP_ACTORS, given.mostActive().size()); i++) {
      top += given.mostActive().get(i).interactions();
    }
    int fresh = 0;
    int flagged = 0;
    Instant newSince = now.minus(trust.newActorAge());
    for (Engagement.ActorCount counted : given.mostActive()) {
      Actor actor = known.get(counted.userId());
      if (actor == null) {
        continue;
      }
      if (actor.bot() || actor.flag() != null) {
        flagged++;
      } else if (actor.createdAt() != null && actor.createdAt().isAfter(newSince)) {
        fresh++;
      }
    }
    return new Summary(
        given.actors(), given.mostActive().size(), top, fresh, flagged, interactions);
  }

  private Evidence evidence(Weights weights, Counters counters, Summary summary) {
    double raw = weights.upvotes(counters.raw());
    double trusted = weights.countingIn(Counters.TRUSTED_UNIT).upvotes(counters.trusted());
    double ratio = raw > 0 ? trusted / raw : 1;
    long interactions = total(counters.raw());
    double topShare = interactions > 0 ? Math.min(1, (double) summary.top() / interactions) : 0;
    int looked = summary.looked();
    List<String> reasons = new ArrayList<>(2);
    if (interactions >= review.minInteractions()) {
      if (raw > 0 && ratio < trust.suspiciousRatio()) {
        reasons.add(Evidence.RATIO);
      }
      if (topShare > trust.concentration()) {
        reasons.add(Evidence.CONCENTRATION);
      }
    }
    return new Evidence(
        raw,
        trusted,
        ratio,
        interactions,
        summary.distinct(),
        topShare,
        looked == 0 ? 0 : (double) summary.fresh() / looked,
        looked == 0 ? 0 : (double) summary.flagged() / looked,
        List.copyOf(reasons));
  }

  private static long total(Interactions counts) {
    return counts.like()
        + counts.view()
        + counts.comment()
        + counts.share()
        + counts.collect()
        + counts.dislike();
  }
}
