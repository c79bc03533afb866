package io.hotrank.review;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardReview;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a publish of a board under review holds, and the queue it fills ({@link BoardReview}).
 *
 * <p>An item's status is its own decision, else its author's, else the board's default: pending on
 * a {@code required} board; on a {@code suspicious} one, pending if the item looks bought ({@link
 * Suspicion}), approved otherwise. Everything not approved is held. Suspicion is assessed for the
 * items the public board would list, in rank order, and again for those that move up into the
 * places held items leave, until the board is full; items further down are assessed when they move
 * up, by a later publish.
 *
 * <p>A held item that is pending and would rank within {@code hotrank.review.notify-rank} (on a
 * {@code required} board, within the board's size, {@value #MAX_QUEUED} at most) is queued with its
 * evidence. A publish writes a board's queue when what it queues or their ranks changed, and at
 * least every {@value #REQUEUE_SECONDS} s otherwise (refreshing the evidence); a queue that cannot
 * be written is logged, and the holds still apply. Thread-safe.
 */
final class ReviewHolds implements BoardReview {

  private static final Logger log = LoggerFactory.getLogger(ReviewHolds.class);

  static final long REQUEUE_SECONDS = 10;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** What a board's queue was last written with, by this instance. */
  private record Written(Map<Long, Integer> ranks, Instant at) {}

  /**
   * One candidate as review sees it.
   *
   * @param wouldRank its rank on the board were nothing held
   * @param decision the decision that applies (the item's, else its author's); null: the default
   * @param evidence null when it was not assessed
   */
  record Verdict(
      BoardEntry entry,
      int wouldRank,
      ReviewStatus status,
      @Nullable ReviewDecision decision,
      @Nullable Evidence evidence) {

    boolean held() {
      return status != ReviewStatus.APPROVED;
    }
  }

  private final ReviewStore store;
  private final Suspicion suspicion;
  private final ReviewProperties properties;
  private final Map<String, Written> written = new ConcurrentHashMap<>();

  ReviewHolds(ReviewStore store, Suspicion suspicion, ReviewProperties properties) {
    this.store = store;
    this.suspicion = suspicion;
    this.properties = properties;
  }

  @Override
  public Set<Long> held(
      BoardDefinition board, String key, List<BoardEntry> ranked, Instant now, boolean record) {
    List<Verdict> verdicts = judge(board, ranked, now);
    if (record) {
      queue(board, key, verdicts, now);
    }
    Set<Long> held = new HashSet<>();
    verdicts.stream().filter(Verdict::held).forEach(v -> held.add(v.entry().itemId()));
    return held;
  }

  /** The most items one board (or segment board) queues. */
  static final int MAX_QUEUED = 100;

  /**
   * The rank within which a held item is queued: the notify rank on a {@code suspicious} board, the
   * board's size on a {@code required} one ({@value #MAX_QUEUED} at most).
   */
  int queueWithin(BoardDefinition board) {
    return board.review() == BoardDefinition.Review.REQUIRED
        ? Math.min(board.size(), MAX_QUEUED)
        : properties.notifyRank();
  }

  /**
   * Each candidate's verdict, in the order given.
   *
   * @throws org.springframework.dao.DataAccessException if the database fails
   */
  List<Verdict> judge(BoardDefinition board, List<BoardEntry> ranked, Instant now) {
    List<Long> ids = ranked.stream().map(BoardEntry::itemId).toList();
    Map<Long, ReviewDecision> items = store.items(board.biz(), ids);
    Map<Long, ReviewDecision> authors =
        store.authors(ranked.stream().map(BoardEntry::authorId).toList());
    boolean required = board.review() == BoardDefinition.Review.REQUIRED;
    List<@Nullable ReviewDecision> decisions = new ArrayList<>(ranked.size());
    for (BoardEntry e : ranked) {
      ReviewDecision own = items.get(e.itemId());
      decisions.add(own != null ? own : authors.get(e.authorId()));
    }
    Map<Long, Evidence> evidence = new HashMap<>();
    if (!required) {
      // Assess in rank order until the board is full of shown items.
      int shown = 0;
      int next = 0;
      while (shown < board.size() && next < ranked.size()) {
        List<Long> batch = new ArrayList<>();
        int from = next;
        int wanted = board.size() - shown;
        while (next < ranked.size() && next - from < wanted) {
          if (decisions.get(next) == null) {
            batch.add(ids.get(next));
          }
          next++;
        }
        evidence.putAll(suspicion.assess(board, batch, now));
        for (int i = from; i < next; i++) {
          if (status(decisions.get(i), evidence.get(ids.get(i)), false) == ReviewStatus.APPROVED) {
            shown++;
          }
        }
      }
    }
    List<Long> unassessed = new ArrayList<>();
    int within = Math.min(ranked.size(), queueWithin(board));
    for (int i = 0; i < within; i++) {
      if (!evidence.containsKey(ids.get(i))
          && status(decisions.get(i), evidence.get(ids.get(i)), required) == ReviewStatus.PENDING) {
        unassessed.add(ids.get(i));
      }
    }
    evidence.putAll(suspicion.assess(board, unassessed, now));
    List<Verdict> verdicts = new ArrayList<>(ranked.size());
    for (int i = 0; i < ranked.size(); i++) {
      Evidence found = evidence.get(ids.get(i));
      verdicts.add(
          new Verdict(
              ranked.get(i),
              i + 1,
              status(decisions.get(i), found, required),
              decisions.get(i),
              found));
    }
    return verdicts;
  }

  /**
   * An item's status: its decision's; else pending on a {@code required} board; else pending if it
   * looks bought, approved if not (or if it was not assessed: below the board).
   */
  private static ReviewStatus status(
      @Nullable ReviewDecision decision, @Nullable Evidence evidence, boolean required) {
    if (decision != null) {
      return decision.status();
    }
    if (required) {
      return ReviewStatus.PENDING;
    }
    return evidence != null && evidence.suspicious() ? ReviewStatus.PENDING : ReviewStatus.APPROVED;
  }

  private void queue(BoardDefinition board, String key, List<Verdict> verdicts, Instant now) {
    int within = queueWithin(board);
    List<ReviewStore.Queued> queued = new ArrayList<>();
    Map<Long, Integer> ranks = new HashMap<>();
    for (Verdict v : verdicts) {
      if (v.wouldRank() > within || v.status() != ReviewStatus.PENDING || v.evidence() == null) {
        continue;
      }
      ranks.put(v.entry().itemId(), v.wouldRank());
      queued.add(
          new ReviewStore.Queued(
              key,
              board.biz(),
              v.entry().itemId(),
              v.entry().authorId(),
              v.wouldRank(),
              JSON.writeValueAsString(v.evidence()),
              now,
              now));
    }
    Written last = written.get(key);
    if (last != null
        && last.ranks().equals(ranks)
        && now.isBefore(last.at().plus(Duration.ofSeconds(REQUEUE_SECONDS)))) {
      return;
    }
    try {
      store.replaceQueue(key, queued);
      written.put(key, new Written(ranks, now));
    } catch (RuntimeException e) {
      written.remove(key);
      log.warn("Board '{}': the review queue could not be written: {}", key, e.toString());
    }
  }

  /** Forgets what this instance last wrote of every queue: a decision changed them. */
  void forgetQueues() {
    written.clear();
  }
}
