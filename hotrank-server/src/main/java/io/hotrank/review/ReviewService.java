package io.hotrank.review;

import io.hotrank.audit.AuditLog;
import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardKind;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSink;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.ControlAction;
import io.hotrank.board.ControlsApplied;
import io.hotrank.board.RepublishRetries;
import io.hotrank.board.SegmentBy;
import io.hotrank.item.CounterPages;
import io.hotrank.item.ItemCards;
import io.hotrank.item.ItemNotFoundException;
import io.hotrank.problem.InvalidRequestException;
import io.hotrank.problem.Violations;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Operators' review: decisions on items and authors, the queue, and a board's candidates as review
 * sees them. A decision is validated before anything is touched, then stored with its audit entry
 * in one transaction (taking the decision's row, so that two decisions on one subject follow one
 * another), taking a decided item (or author's items) out of the queue. After the commit it
 * re-publishes every board under review it may change ({@link BoardSink#republish}), so that every
 * instance serves it within the usual notice; a re-publish that fails is logged and counted ({@code
 * hotrank.review.republish.failures}), and the board's next publish applies the decision.
 * Thread-safe.
 */
public final class ReviewService {

  private static final Logger log = LoggerFactory.getLogger(ReviewService.class);

  /** The longest reason kept, in characters after stripping. */
  static final int MAX_REASON = 500;

  /** The most queue entries or decisions one listing answers. */
  static final int MAX_LIMIT = 500;

  /**
   * How many of an author's newest items in a board's window a decision on the author re-publishes
   * the board with (looked up when they are not among its candidates).
   */
  static final int MAX_AUTHORED = 200;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final ReviewStore store;
  private final ReviewHolds holds;
  private final BoardRegistry registry;
  private final BoardSink publisher;
  private final ItemCards items;
  private final AuditLog audit;
  private final TransactionTemplate tx;
  private final Clock clock;
  private final MeterRegistry meters;
  private final CounterPages counters;
  private final RepublishRetries retries;

  ReviewService(
      ReviewStore store,
      ReviewHolds holds,
      BoardRegistry registry,
      BoardSink publisher,
      ItemCards items,
      AuditLog audit,
      PlatformTransactionManager transactions,
      Clock clock,
      MeterRegistry meters,
      CounterPages counters,
      RepublishRetries retries) {
    this.store = store;
    this.holds = holds;
    this.registry = registry;
    this.publisher = publisher;
    this.items = items;
    this.audit = audit;
    this.tx = new TransactionTemplate(transactions);
    this.clock = clock;
    this.meters = meters;
    this.counters = counters;
    this.retries = retries;
  }

  /**
   * Decides on one item, for every board under review.
   *
   * @param status {@code approved}, {@code rejected} or {@code pending}
   * @throws InvalidRequestException naming each invalid field; nothing changes then
   * @throws ItemNotFoundException if the item does not exist or is deleted
   */
  public ReviewDecision decideItem(
      String biz, long itemId, @Nullable String status, @Nullable String reason, String actor) {
    Decided decided = validate(status, reason);
    if (itemId < 1 || items.cards(biz, List.of(itemId)).isEmpty()) {
      throw new ItemNotFoundException(biz, itemId, null);
    }
    ReviewDecision decision =
        new ReviewDecision(
            ReviewDecision.ITEM, biz, itemId, decided.status(), decided.reason(), actor, now());
    store(decision, "review.item", "item:" + biz + "/" + itemId);
    for (BoardDefinition board : underReview(b -> b.biz().equals(biz))) {
      republish(board, List.of(itemId));
    }
    return decision;
  }

  /**
   * Decides on an author: for every item of theirs without a decision of its own, on every board
   * under review.
   *
   * @throws InvalidRequestException naming each invalid field; nothing changes then
   */
  public ReviewDecision decideAuthor(
      long authorId, @Nullable String status, @Nullable String reason, String actor) {
    Decided decided = validate(status, reason, authorId < 1 ? "authorId" : null);
    ReviewDecision decision =
        new ReviewDecision(
            ReviewDecision.AUTHOR, "", authorId, decided.status(), decided.reason(), actor, now());
    store(decision, "review.author", "author:" + authorId);
    for (BoardDefinition board : underReview(b -> true)) {
      retries.run(
          board.name(),
          () -> tryRepublish(board, () -> authored(board, authorId), looksUpAuthored(board)));
    }
    return decision;
  }

  private record Decided(ReviewStatus status, @Nullable String reason) {}

  private static Decided validate(@Nullable String status, @Nullable String reason) {
    return validate(status, reason, null);
  }

  /**
   * @param badId the name of an id field found invalid already, reported with the others; null if
   *     none
   */
  private static Decided validate(
      @Nullable String status, @Nullable String reason, @Nullable String badId) {
    Violations violations = new Violations();
    if (badId != null) {
      violations.add(badId, "must be 1 or more");
    }
    ReviewStatus parsed = ReviewStatus.parse(status);
    violations.check(parsed != null, "status", "is required: approved, rejected or pending");
    String kept = reason == null || reason.isBlank() ? null : reason.strip();
    violations.check(
        kept == null || kept.length() <= MAX_REASON,
        "reason",
        "must be at most " + MAX_REASON + " characters");
    violations.throwIfAny();
    return new Decided(parsed, kept);
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  private void store(ReviewDecision decision, String action, String target) {
    tx.executeWithoutResult(
        status -> {
          ReviewDecision before =
              store.lock(decision.subject(), decision.biz(), decision.id()).orElse(null);
          store.put(decision);
          if (decision.status() != ReviewStatus.PENDING) {
            if (decision.subject().equals(ReviewDecision.ITEM)) {
              store.dequeueItem(decision.biz(), decision.id());
            } else {
              store.dequeueAuthor(decision.id());
            }
          }
          audit.record(
              decision.decidedBy(),
              action,
              target,
              decision.reason(),
              before == null ? null : JSON.writeValueAsString(before),
              JSON.writeValueAsString(decision));
        });
    holds.forgetQueues();
  }

  private List<BoardDefinition> underReview(Predicate<BoardDefinition> which) {
    return registry.all().stream()
        .filter(b -> b.review() != BoardDefinition.Review.OFF)
        .filter(which)
        .toList();
  }

  /**
   * Re-publishes a board, or each of its segment boards the decided items belong to, with the
   * decisions as committed now, looking up the decided items that are not among its candidates
   * (they rank by their own score if they make it). Never throws: a failure is counted, tried again
   * ({@link RepublishRetries}), and the board's next publish applies the decision in any case.
   */
  private void republish(BoardDefinition board, Collection<Long> decided) {
    retries.run(board.name(), () -> tryRepublish(board, () -> List.copyOf(decided), true));
  }

  /**
   * An author's newest items in a board's window ({@value #MAX_AUTHORED} at most; a leaderboard's
   * window is all time): the segment boards they are on are re-published.
   */
  private List<Long> authored(BoardDefinition board, long authorId) {
    long from =
        board.kind() instanceof BoardKind.Leaderboard
            ? 0
            : clock.millis() - board.window().toMillis();
    return counters.authoredSince(board.biz(), authorId, from, MAX_AUTHORED);
  }

  /**
   * Whether a re-publish after a decision on an author looks the author's items up when they are
   * not among the board's candidates: on a batch or live board without an author cap or scaling,
   * which a look-up would not apply. Elsewhere the held items in the reserve come back at once and
   * the others at the next computation (window boards and leaderboards rank from Redis).
   */
  private static boolean looksUpAuthored(BoardDefinition board) {
    return board.scoresItems() && board.maxPerAuthor() == 0 && board.scaleBy() == null;
  }

  /**
   * @param decided the decided items: each segment board they are on is re-published
   * @param lookUp whether those items are looked up when they are not candidates
   */
  private boolean tryRepublish(
      BoardDefinition board, Supplier<List<Long>> decided, boolean lookUp) {
    try {
      List<Long> ids = decided.get();
      SegmentBy split = board.segmentBy();
      if (split == null) {
        publisher.republish(board, null, lookUp ? ids : List.of());
        return true;
      }
      // Each segment board with its own items only: a look-up does not check membership.
      Map<String, List<Long>> bySegment = new java.util.TreeMap<>();
      items
          .labels(board.biz(), ids)
          .forEach(
              (id, labels) ->
                  split
                      .segments(labels)
                      .forEach(
                          segment ->
                              bySegment.computeIfAbsent(segment, k -> new ArrayList<>()).add(id)));
      for (Map.Entry<String, List<Long>> segment : bySegment.entrySet()) {
        publisher.republish(board, segment.getKey(), lookUp ? segment.getValue() : List.of());
      }
      return true;
    } catch (RuntimeException e) {
      meters.counter("hotrank.review.republish.failures", "board", board.name()).increment();
      log.warn(
          "Board '{}': re-publish after a review decision failed; trying again shortly (its next"
              + " publish applies the decision in any case): {}",
          board.name(),
          e.toString());
      return false;
    }
  }

  /** An item waiting in the queue, as the API lists it. */
  public record QueuedItem(
      String board,
      @Nullable String segment,
      String biz,
      long itemId,
      @Nullable String title,
      long authorId,
      int wouldRank,
      Evidence evidence,
      Instant since,
      Instant seenAt) {}

  /**
   * The queue, or the decisions of a status.
   *
   * @param status {@code pending} (the queue and the items and authors sent back to pending),
   *     {@code approved} or {@code rejected} (the decisions); null for pending
   * @param board a board's name, for its queue only; null for every board's
   */
  public Listing list(@Nullable String board, @Nullable String status, int limit) {
    Violations violations = new Violations();
    ReviewStatus parsed = status == null ? ReviewStatus.PENDING : ReviewStatus.parse(status);
    violations.check(parsed != null, "status", "must be pending, approved or rejected");
    violations.check(
        limit >= 1 && limit <= MAX_LIMIT, "limit", "must be between 1 and " + MAX_LIMIT);
    if (board != null && registry.find(board).isEmpty()) {
      violations.add("board", "no board is named '" + board + "'");
    }
    violations.throwIfAny();
    List<QueuedItem> queue = new ArrayList<>();
    if (parsed == ReviewStatus.PENDING) {
      List<ReviewStore.Queued> rows = store.queue(board, limit);
      Map<String, Set<Long>> byBiz = new java.util.HashMap<>();
      rows.forEach(q -> byBiz.computeIfAbsent(q.biz(), b -> new HashSet<>()).add(q.itemId()));
      Map<String, Map<Long, ItemCards.Card>> cards = new java.util.HashMap<>();
      byBiz.forEach((biz, ids) -> cards.put(biz, items.cards(biz, ids)));
      for (ReviewStore.Queued q : rows) {
        ItemCards.Card card = cards.get(q.biz()).get(q.itemId());
        queue.add(queued(q, card == null ? null : card.title()));
      }
    }
    return new Listing(parsed.wireName(), queue, store.decided(parsed, limit), store.queued());
  }

  /**
   * A listing.
   *
   * @param queue the items waiting, best would-be rank first (pending only)
   * @param decisions the decisions of the status, the newest first
   * @param queued how many distinct items wait, on every board
   */
  public record Listing(
      String status, List<QueuedItem> queue, List<ReviewDecision> decisions, long queued) {}

  private static QueuedItem queued(ReviewStore.Queued q, @Nullable String title) {
    int slash = q.board().indexOf('/');
    return new QueuedItem(
        slash < 0 ? q.board() : q.board().substring(0, slash),
        slash < 0 ? null : q.board().substring(slash + 1),
        q.biz(),
        q.itemId(),
        title,
        q.authorId(),
        q.wouldRank(),
        JSON.readValue(q.evidence(), Evidence.class),
        q.since(),
        q.seenAt());
  }

  /** How many distinct items wait in the queue, on every board. */
  public long queued() {
    return store.queued();
  }

  /**
   * One candidate of a board as operators see it.
   *
   * @param rank its rank on the public board; null when it is not listed
   * @param wouldRank its rank were nothing held
   * @param blocked an operator blocked it
   * @param held review keeps it off the public board
   * @param status review's status of it; null on a board without review, or when it is blocked
   * @param evidence null when it was not assessed
   */
  public record Candidate(
      @Nullable Integer rank,
      int wouldRank,
      BoardEntry entry,
      boolean blocked,
      boolean held,
      @Nullable String status,
      @Nullable Evidence evidence) {}

  /**
   * A board's {@code review} setting.
   *
   * @throws io.hotrank.board.BoardNotFoundException if no board has this name
   */
  public String reviewOf(String name) {
    return registry.require(name).review().configName();
  }

  /**
   * The board as this instance serves it, unfiltered: its entries and the reserve, held and blocked
   * ones marked.
   *
   * @throws io.hotrank.board.BoardNotFoundException if no board has this name
   * @throws io.hotrank.board.BoardUnavailableException if this instance holds no snapshot of it
   */
  public List<Candidate> candidates(String name, @Nullable String segment) {
    BoardDefinition board = registry.require(name);
    if (segment != null) {
      String invalid =
          board.segmentBy() == null
              ? "board '" + name + "' is not segmented"
              : board.segmentBy().invalid(segment);
      if (invalid != null) {
        throw new InvalidRequestException("segment", invalid);
      }
    }
    Instant now = clock.instant();
    String key = BoardSnapshot.key(name, segment);
    BoardSnapshot served = publisher.current(key);
    if (served == null) {
      throw new io.hotrank.board.BoardUnavailableException(name, java.time.Duration.ofSeconds(1));
    }
    // The controls that shape it: a segment board's own and its family's, merged as a publish
    // merges them.
    List<BoardControl> shaping =
        segment == null
            ? publisher.controls(name)
            : publisher.controls(board, List.of(segment)).getOrDefault(segment, List.of());
    Set<Long> blocked = new HashSet<>();
    for (BoardControl control : shaping) {
      if (control.action() == ControlAction.BLOCK && ControlsApplied.live(control, now)) {
        blocked.add(control.itemId());
      }
    }
    List<BoardEntry> all = new ArrayList<>(served.entries());
    all.addAll(served.reserve());
    all.sort(ControlsApplied.BEST_FIRST);
    List<BoardEntry> open = all.stream().filter(e -> !blocked.contains(e.itemId())).toList();
    Map<Long, ReviewHolds.Verdict> verdicts = new java.util.HashMap<>();
    if (board.review() != BoardDefinition.Review.OFF) {
      holds.judge(board, open, now).forEach(v -> verdicts.put(v.entry().itemId(), v));
    }
    Map<Long, Integer> shown = new java.util.HashMap<>();
    served.entries().forEach(e -> shown.put(e.itemId(), e.rank()));
    List<Candidate> candidates = new ArrayList<>(all.size());
    int wouldRank = 0;
    for (BoardEntry entry : all) {
      boolean isBlocked = blocked.contains(entry.itemId());
      ReviewHolds.Verdict verdict = verdicts.get(entry.itemId());
      candidates.add(
          new Candidate(
              shown.get(entry.itemId()),
              isBlocked ? 0 : ++wouldRank,
              entry,
              isBlocked,
              verdict != null && verdict.held() && !shown.containsKey(entry.itemId()),
              verdict == null ? null : verdict.status().wireName(),
              verdict == null ? null : verdict.evidence()));
    }
    return candidates;
  }
}
