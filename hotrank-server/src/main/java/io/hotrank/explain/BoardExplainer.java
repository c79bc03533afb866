package io.hotrank.explain;

import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardKind;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardReview;
import io.hotrank.board.BoardSink;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.board.ControlAction;
import io.hotrank.board.ControlsApplied;
import io.hotrank.board.ServedBoards;
import io.hotrank.core.score.Explanation;
import io.hotrank.core.score.InteractionType;
import io.hotrank.core.score.Interactions;
import io.hotrank.item.Counters;
import io.hotrank.item.ItemCards;
import io.hotrank.item.ItemNotFoundException;
import io.hotrank.realtime.WindowBuckets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Explains an item on the version of a board a read is served now: finds it on the version (its
 * rank, or the reserve below the cut), says why it is not listed when it is not, and recomputes its
 * score part by part from what the item and the board hold now, at the instant the version was
 * computed, so that the parts give the served score unless events arrived since. Reads only;
 * thread-safe.
 */
@Component
class BoardExplainer {

  /** How close the recomputed score must be to the served one, relative, to be the same. */
  static final double SAME = 1e-9;

  private final BoardRegistry registry;
  private final ServedBoards served;
  private final BoardSink sink;
  private final ItemCards cards;
  private final WindowBuckets windows;
  private final ObjectProvider<BoardReview> review;
  private final Clock clock;

  BoardExplainer(
      BoardRegistry registry,
      ServedBoards served,
      BoardSink sink,
      ItemCards cards,
      WindowBuckets windows,
      ObjectProvider<BoardReview> review,
      Clock clock) {
    this.registry = registry;
    this.served = served;
    this.sink = sink;
    this.cards = cards;
    this.windows = windows;
    this.review = review;
    this.clock = clock;
  }

  /**
   * The explanation of an item on a board, or on one segment board.
   *
   * @throws io.hotrank.board.BoardNotFoundException if no such board is configured
   * @throws ItemNotFoundException if the item does not exist in the board's biz
   * @param operator whether an operator asks: only operators see blocks, review holds and a
   *     control's reason, author and expiry (the public sees what the board read shows)
   * @throws io.hotrank.board.BoardUnavailableException if the board cannot be read
   */
  ItemExplanation explain(String name, @Nullable String segment, long itemId, boolean operator) {
    BoardDefinition board = registry.require(name);
    BoardSnapshot snapshot = served.served(name, segment);
    ItemCards.Card card = cards.cards(board.biz(), List.of(itemId)).get(itemId);
    if (card == null) {
      throw new ItemNotFoundException(board.biz(), itemId, "itemId");
    }
    Instant at = snapshot.computedAt();
    BoardEntry listed = find(snapshot.entries(), itemId);
    BoardEntry kept = listed != null ? listed : find(snapshot.reserve(), itemId);
    Map<Long, BoardControl> live = liveControls(board, segment);
    BoardControl control = live.get(itemId);

    Interactions ranked = board.ranked(card.counters());
    Explanation formula = null;
    List<WindowBuckets.Bucket> buckets = null;
    double unscaled;
    boolean inWindow = true;
    switch (board.kind()) {
      case BoardKind.Window w -> {
        buckets = windows.buckets(board, segment, itemId, at);
        if (buckets == null) {
          unscaled = kept == null ? 0 : baseOf(kept);
        } else {
          unscaled = 0;
          for (WindowBuckets.Bucket bucket : buckets) {
            unscaled += bucket.events() * bucket.weight();
          }
          unscaled = WindowBuckets.asServed(unscaled);
          inWindow = !buckets.isEmpty();
        }
      }
      case BoardKind.Leaderboard l -> {
        unscaled = (double) l.value(ranked) / board.countUnit();
        inWindow = unscaled > 0;
      }
      default -> {
        // A second chance scores the item as if created when it was given.
        long created = ControlsApplied.scoredCreation(control, card.createdAtMillis(), at);
        formula = board.score().explain(ranked, Instant.ofEpochMilli(created), at);
        unscaled = formula.score();
        long windowStart = at.minus(board.window()).toEpochMilli();
        inWindow = created >= windowStart && created <= at.toEpochMilli();
      }
    }
    ItemExplanation.Scale scale = null;
    double base = unscaled;
    if (board.scaleBy() != null && kept != null && baseOf(kept) != 0 && unscaled != 0) {
      scale = new ItemExplanation.Scale(board.scaleBy().configName(), unscaled / baseOf(kept));
      base = baseOf(kept);
    }
    double explained = base;
    if (control != null && control.action() == ControlAction.BOOST) {
      explained =
          ControlsApplied.boosted(
              base, control.factor() == null ? 1 : control.factor(), board.logarithmicScore());
    }
    Double score = kept == null ? null : kept.score();
    boolean current = score != null && same(explained, score);

    BoardEntry last = snapshot.entries().isEmpty() ? null : snapshot.entries().getLast();
    ItemExplanation.Cut cut =
        last == null || snapshot.entries().size() < board.size()
            ? null
            : new ItemExplanation.Cut(last.rank(), last.itemId(), last.score());
    String[] why =
        status(board, segment, snapshot, card, listed, kept, live, inWindow, explained, cut);
    boolean hidden = !operator && control != null && control.action() == ControlAction.BLOCK;
    if (!operator && (why[0].equals("blocked") || why[0].equals("held"))) {
      why = new String[] {"not-listed", "Moderation keeps it off this board"};
    }
    return new ItemExplanation(
        name,
        segment,
        snapshot.version(),
        at,
        new ItemExplanation.Item(
            board.biz(),
            itemId,
            card.title(),
            card.authorId(),
            Instant.ofEpochMilli(card.createdAtMillis())),
        why[0],
        why[1],
        listed == null ? null : listed.rank(),
        score,
        cut,
        board.kind().configName(),
        board.algorithm(),
        board.trust().configName(),
        counts(board, card.counters()),
        formula,
        buckets,
        scale,
        control == null || hidden ? null : view(control, operator),
        base,
        explained,
        current);
  }

  /** The status and its reason in words. */
  private String[] status(
      BoardDefinition board,
      @Nullable String segment,
      BoardSnapshot snapshot,
      ItemCards.Card card,
      @Nullable BoardEntry listed,
      @Nullable BoardEntry kept,
      Map<Long, BoardControl> live,
      boolean inWindow,
      double explained,
      ItemExplanation.@Nullable Cut cut) {
    BoardControl control = live.get(card.itemId());
    if (listed != null) {
      String how =
          listed.control() == null
              ? ""
              : switch (listed.control().action()) {
                case PIN -> ", pinned at position " + listed.control().position();
                case BOOST -> ", boosted by " + listed.control().factor();
                default -> ", on a second chance given " + (control == null ? "" : control.setAt());
              };
      return new String[] {"listed", "Listed at rank " + listed.rank() + how};
    }
    if (control != null && control.action() == ControlAction.BLOCK) {
      return new String[] {"blocked", "An operator blocked it on this board: " + control.reason()};
    }
    if (segment != null
        && board.segmentBy() != null
        && !board.segmentBy().segments(card.labels()).contains(segment)) {
      return new String[] {
        "not-in-segment", "Its labels do not place it on the segment board '" + segment + "'"
      };
    }
    if (kept != null && board.review() != BoardDefinition.Review.OFF) {
      BoardReview reviewer = review.getIfAvailable();
      // What a publish asks of review: the candidates in the board's order, blocked ones left out.
      List<BoardEntry> ranked = new ArrayList<>();
      for (List<BoardEntry> part : List.of(snapshot.entries(), snapshot.reserve())) {
        for (BoardEntry entry : part) {
          BoardControl c = live.get(entry.itemId());
          if (c == null || c.action() != ControlAction.BLOCK) {
            ranked.add(entry);
          }
        }
      }
      Set<Long> held =
          reviewer == null
              ? Set.of()
              : reviewer.held(board, snapshot.key(), ranked, clock.instant(), false);
      if (held.contains(kept.itemId())) {
        return new String[] {"held", "The board's review holds it until an operator approves it"};
      }
    }
    if (!inWindow) {
      String why =
          switch (board.kind()) {
            case BoardKind.Window w -> "None of its events lies in the board's window";
            case BoardKind.Leaderboard l ->
                "Its " + l.counter().wireName() + " counter is 0: a leaderboard lists none such";
            default ->
                card.createdAtMillis() > snapshot.computedAt().toEpochMilli()
                    ? "It was created after the version was computed; the next one ranks it"
                    : "It was created outside the board's window of "
                        + board.window()
                        + " before the version was computed";
          };
      return new String[] {"not-in-window", why};
    }
    if (board.maxPerAuthor() > 0
        && (cut == null || explained > cut.score())
        && snapshot.entries().stream().filter(e -> e.authorId() == card.authorId()).count()
            >= board.maxPerAuthor()) {
      return new String[] {
        "capped-by-author",
        "Its author has " + board.maxPerAuthor() + " entries on the board, the most it lists"
      };
    }
    return new String[] {
      "below-cut",
      cut == null
          ? "The version was computed before it scored"
          : "Its score is below the cut, the score of rank " + cut.rank() + ": " + cut.score()
    };
  }

  /** The live controls that shape this board (a segment's own winning over its family's). */
  private Map<Long, BoardControl> liveControls(BoardDefinition board, @Nullable String segment) {
    List<BoardControl> all =
        segment == null
            ? sink.controls(board.name())
            : sink.controls(board, List.of(segment)).getOrDefault(segment, List.of());
    Instant now = clock.instant();
    Map<Long, BoardControl> live = new HashMap<>();
    for (BoardControl control : all) {
      if (ControlsApplied.live(control, now)) {
        // A segment's own control wins over its family's.
        live.merge(control.itemId(), control, (a, b) -> b.board().equals(board.name()) ? a : b);
      }
    }
    return live;
  }

  /** A control as shown: who set it, why and until when to operators only. */
  private static ItemExplanation.Control view(BoardControl control, boolean operator) {
    return new ItemExplanation.Control(
        control.action().wireName(),
        control.position(),
        control.factor(),
        operator ? control.expiresAt() : null,
        operator ? control.reason() : null,
        operator ? control.actor() : null,
        control.setAt());
  }

  /** Each type the board weighs (a leaderboard: its counter): counters, weight and points. */
  private static List<ItemExplanation.Count> counts(BoardDefinition board, Counters counters) {
    List<ItemExplanation.Count> counts = new ArrayList<>();
    Interactions ranked = board.ranked(counters);
    for (InteractionType type : InteractionType.values()) {
      double weight;
      if (board.kind() instanceof BoardKind.Leaderboard l) {
        weight = l.counter() == type ? 1 : 0;
      } else if (type == InteractionType.DISLIKE && board.logarithmicScore()) {
        weight = -1; // Reddit's net votes take the dislikes off as they are
      } else {
        weight = board.weights().weight(type);
      }
      if (weight == 0) {
        continue;
      }
      counts.add(
          new ItemExplanation.Count(
              type.wireName(),
              type.countIn(counters.raw()),
              (double) type.countIn(counters.trusted()) / Counters.TRUSTED_UNIT,
              weight,
              weight * type.countIn(ranked) / board.countUnit()));
    }
    return counts;
  }

  private static @Nullable BoardEntry find(List<BoardEntry> entries, long itemId) {
    for (BoardEntry entry : entries) {
      if (entry.itemId() == itemId) {
        return entry;
      }
    }
    return null;
  }

  private static double baseOf(BoardEntry entry) {
    return entry.uncontrolled().score();
  }

  static boolean same(double a, double b) {
    return a == b || Math.abs(a - b) <= SAME * Math.max(Math.abs(a), Math.abs(b));
  }
}
