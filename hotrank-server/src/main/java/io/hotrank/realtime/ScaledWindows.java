package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardKind;
import io.hotrank.board.ControlsApplied;
import io.hotrank.item.ItemCards;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Window boards with {@code scale-by}: each item's window score divided by {@code log10(10 + n)}, n
 * the events its largest segment received over the window (every interaction counted once, weighted
 * or not), as {@link ScaledBoards} scales live boards.
 *
 * <p>The items' window scores are kept unscaled, per segment, in a {@link WindowFamilyStore} (items
 * in no segment in a set of their own, {@link LiveFamilies#UNSEGMENTED}) whose snapshots keep every
 * member ({@link ScoredEntries#keep}): trimmed, a segment's set could lose an item that scores more
 * scaled than the items kept (they may sit in a larger segment). The same folds count each
 * segment's events per bucket where the item is when they come: an edit that moves an item moves
 * its score at once, not the events its old segment counted, which leave with the window. Each look
 * reads the segments' events and merges their sets ({@link ThresholdMerge}). Thread-safe.
 */
final class ScaledWindows extends SegmentedWindows {

  private final PublishedCards published;

  ScaledWindows(WindowFamilyStore store, WindowFolds folds, PublishedCards published) {
    super(store, folds);
    this.published = published;
  }

  @Override
  public boolean keeps(BoardDefinition board) {
    return board.kind() instanceof BoardKind.Window && board.scaleBy() != null;
  }

  /**
   * The board's candidates at {@code now}, best scaled first; null while Redis holds no data of the
   * board or only a part (it is replaying its window from the log).
   */
  @Override
  public @Nullable List<BoardEntry> entries(BoardDefinition board, Instant now, int controls) {
    WindowFamilyStore.Sizes sizes = store.sizes(board, now.toEpochMilli());
    if (sizes == null) {
      return null;
    }
    Map<String, Double> divisors = new LinkedHashMap<>();
    for (String segment : sizes.segments()) {
      divisors.put(segment, divisor(sizes, segment));
    }
    WindowSets sets = new WindowSets(board, sizes, now);
    int need = board.size() + controls + ControlsApplied.reserve(board);
    List<BoardEntry> merged =
        new ThresholdMerge<>(sets).merge(divisors, need, ScoredEntries.keep(board));
    if (!sets.misplaced.isEmpty()) {
      store.move(board, sets.misplaced);
    }
    return merged;
  }

  private static double divisor(WindowFamilyStore.Sizes sizes, String segment) {
    return segment.equals(LiveFamilies.UNSEGMENTED)
        ? 1
        : Math.log10(10 + Math.max(0, sizes.events().getOrDefault(segment, 0L)));
  }

  /**
   * A look's sets: the segments' window scores at {@code now}, rounded as a window board rounds
   * them; an item in a set its labels left is noted, to be placed again.
   */
  private final class WindowSets implements ThresholdMerge.Sets<Scored> {
    final BoardDefinition board;
    final WindowFamilyStore.Sizes sizes;
    final Instant now;
    final Set<Long> misplaced = new HashSet<>();

    WindowSets(BoardDefinition board, WindowFamilyStore.Sizes sizes, Instant now) {
      this.board = board;
      this.sizes = sizes;
      this.now = now;
    }

    @Override
    public @Nullable Map<String, List<Scored>> top(Map<String, Integer> wanted) {
      return store.tops(board, now.toEpochMilli(), wanted);
    }

    @Override
    public long itemId(Scored member) {
      return member.itemId();
    }

    @Override
    public double score(Scored member) {
      return ScoredEntries.rounded(member.score());
    }

    /** A set orders equal scores by their text, not by age: the merge reads on past a tie. */
    @Override
    public boolean ranksAhead(BoardEntry entry, Scored member) {
      return false;
    }

    /**
     * The item's window score over the divisor of its largest segment, if it has a card (a deleted
     * item left every set with its delete; one whose card is unreadable now is left out, as a
     * window board leaves it).
     */
    @Override
    public void score(List<ThresholdMerge.Popped<Scored>> popped, Consumer<BoardEntry> offer) {
      List<Long> ids = new ArrayList<>(popped.size());
      popped.forEach(p -> ids.add(p.member().itemId()));
      Map<Long, ItemCards.Card> cards = published.cards(board, ids);
      for (ThresholdMerge.Popped<Scored> p : popped) {
        ItemCards.Card card = cards.get(p.member().itemId());
        if (card == null) {
          continue;
        }
        Set<String> segments = LiveFamilies.segments(board, card.labels());
        if (!segments.contains(p.segment())) {
          misplaced.add(card.itemId()); // its move between sets was lost: placed again
        }
        double divisor = 1;
        for (String segment : segments) {
          divisor = Math.max(divisor, divisor(sizes, segment));
        }
        offer.accept(LiveBoards.entry(board, card, score(p.member()) / divisor));
      }
    }
  }
}
