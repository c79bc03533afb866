package io.hotrank.review;

import io.hotrank.board.BoardDefinition;
import io.hotrank.core.score.Interactions;
import io.hotrank.core.score.Weights;
import io.hotrank.ingest.Engagement;
import io.hotrank.item.Counters;
import io.hotrank.item.ItemCards;
import io.hotrank.trust.Actor;
import io.hotrank.trust.Actors;
import io.hotrank.trust.TrustProperties;
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
 * both scores alike. Thread-safe.
 */
final class Suspicion {

  /** The most active actors whose share makes a ring. */
  static final int TOP_ACTORS = 3;

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
   * The evidence of each live item among {@code ids}, as the board weighs interactions.
   *
   * @throws org.springframework.dao.DataAccessException if the database fails
   */
  Map<Long, Evidence> assess(BoardDefinition board, Collection<Long> ids, Instant now) {
    if (ids.isEmpty()) {
      return Map.of();
    }
    Map<Long, ItemCards.Card> cards = items.cards(board.biz(), ids);
    Map<Long, Map<Long, Long>> given = engagement.byActor(board.biz(), cards.keySet());
    Set<Long> users = new HashSet<>();
    given.values().forEach(byUser -> users.addAll(byUser.keySet()));
    Map<Long, Actor> known = actors.findAll(users);
    Map<Long, Evidence> assessed = new HashMap<>();
    cards.forEach(
        (id, card) ->
            assessed.put(
                id,
                evidence(
                    board.weights(),
                    card.counters(),
                    given.getOrDefault(id, Map.of()),
                    known,
                    now)));
    return assessed;
  }

  private Evidence evidence(
      Weights weights,
      Counters counters,
      Map<Long, Long> byActor,
      Map<Long, Actor> known,
      Instant now) {
    double raw = weights.upvotes(counters.raw());
    double trusted = weights.countingIn(Counters.TRUSTED_UNIT).upvotes(counters.trusted());
    double ratio = raw > 0 ? trusted / raw : 1;
    long interactions = total(counters.raw());
    List<Long> given = new ArrayList<>(byActor.values());
    given.sort(java.util.Comparator.reverseOrder());
    long top = 0;
    for (int i = 0; i < Math.min(TOP_ACTORS, given.size()); i++) {
      top += given.get(i);
    }
    double topShare = interactions > 0 ? Math.min(1, (double) top / interactions) : 0;
    int fresh = 0;
    int flagged = 0;
    Instant newSince = now.minus(trust.newActorAge());
    for (Long user : byActor.keySet()) {
      Actor actor = known.get(user);
      if (actor == null) {
        continue;
      }
      if (actor.bot() || actor.flag() != null) {
        flagged++;
      } else if (actor.createdAt() != null && actor.createdAt().isAfter(newSince)) {
        fresh++;
      }
    }
    int distinct = byActor.size();
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
        distinct,
        topShare,
        distinct == 0 ? 0 : (double) fresh / distinct,
        distinct == 0 ? 0 : (double) flagged / distinct,
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
