package io.hotrank.realtime;

import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardKind;
import io.hotrank.board.BoardSink;
import io.hotrank.board.ControlsApplied;
import io.hotrank.board.FamilyPublished;
import io.hotrank.board.SegmentBy;
import io.hotrank.ingest.FoldHistory;
import io.hotrank.item.ItemCards;
import io.hotrank.job.JobContext;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Window families ({@code type: window} with {@code segment-by}): a window board per segment, in
 * {@link WindowFamilyStore}, followed by {@link WindowFolds} as one window board is (replayed from
 * the event log when Redis lost it, its snapshots built once per bucket). A fold costs the segments
 * of the items it touched; an edit moves the item's whole window between segments at once, a delete
 * takes it out. The family's publish job takes the segments changed since its last look (every
 * segment with data after a bucket's end), reads their tops in one script and publishes them
 * together ({@link BoardSink#publishSegments}). Thread-safe.
 */
final class WindowFamilies extends SegmentedWindows implements FamilyKind {

  private static final Logger log = LoggerFactory.getLogger(WindowFamilies.class);

  private final PublishedCards published;
  private final BoardSink sink;
  private final Clock clock;

  WindowFamilies(
      WindowFamilyStore store,
      FoldHistory history,
      PublishedCards published,
      BoardSink sink,
      Clock clock,
      MeterRegistry meters) {
    super(
        store,
        new WindowFolds(
            store, history, clock, meters, board -> republishStored(store, sink, board)));
    this.published = published;
    this.sink = sink;
    this.clock = clock;
  }

  /**
   * Once a window is replayed (Redis lost it, or a rebuild reset it), the segments the database
   * stores with entries are published again, so that one the replay left empty is published empty
   * rather than kept as it was.
   */
  private static void republishStored(
      WindowFamilyStore store, BoardSink sink, BoardDefinition board) {
    try {
      store.changed(board, sink.segmentsWithEntries(board.name()));
    } catch (RuntimeException e) {
      log.warn(
          "Window family '{}': stored segments unreadable ({}); those the replay left empty"
              + " keep their boards until their next event",
          board.name(),
          e.toString());
    }
  }

  @Override
  public boolean keeps(BoardDefinition board) {
    return board.kind() instanceof BoardKind.Window && board.segmented();
  }

  @Override
  public boolean publishChanged(BoardDefinition board, JobContext context) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    LiveFamilyStore.Taken taken = store.take(board, LiveFamilies.MAX_LOOK);
    if (!taken.hasData()) {
      // Replaying its window (the folder goes on each idle second): what was published serves
      // meanwhile. No data at all yet: the run fails, as a window board's does.
      return store.applied(board) != null;
    }
    List<String> changed = taken.changed();
    try {
      publish(board, changed, now, context);
      if (context.cancelled()) {
        store.changed(board, changed); // some chunks may not have started
      } else {
        store.published(board);
      }
    } catch (RuntimeException e) {
      store.changed(board, changed);
      throw e;
    }
    context.report(new FamilyPublished(board.name(), now, changed.size(), 0, 0));
    return true;
  }

  private void publish(
      BoardDefinition board, List<String> changed, Instant now, JobContext context) {
    if (changed.isEmpty()) {
      return;
    }
    Map<String, List<BoardControl>> controls = sink.controls(board, changed);
    Map<String, Integer> need = new LinkedHashMap<>();
    Map<String, Integer> wanted = new LinkedHashMap<>();
    for (String segment : changed) {
      int live =
          ControlsApplied.controlledIds(controls.getOrDefault(segment, List.of()), now).size();
      // As a window board's: its size, one per live control and the reserve, read as deep as a
      // snapshot keeps.
      need.put(segment, board.size() + live + ControlsApplied.reserve(board));
      wanted.put(
          segment, Math.max(ScoredEntries.keep(board), need.get(segment) + AuthorCap.extra(board)));
    }
    Map<String, List<Scored>> tops = store.tops(board, now.toEpochMilli(), wanted);
    if (tops == null) {
      store.changed(board, changed); // reset or replaying meanwhile: published after
      return;
    }
    Set<Long> ids = new HashSet<>();
    tops.values().forEach(top -> top.forEach(s -> ids.add(s.itemId())));
    Map<Long, ItemCards.Card> cards = published.cards(board, ids);
    SegmentBy segmentBy = Objects.requireNonNull(board.segmentBy());
    Set<Long> misplaced = new HashSet<>();
    Map<String, List<BoardEntry>> boards = new LinkedHashMap<>();
    for (Map.Entry<String, List<Scored>> top : tops.entrySet()) {
      List<Scored> shown = new ArrayList<>(top.getValue().size());
      for (Scored s : top.getValue()) {
        ItemCards.Card card = cards.get(s.itemId());
        // An item without a card (deleted: its delete took it out; or unreadable now) is left out
        // and keeps its window, as a window board leaves it: a card missed once must not cost an
        // item its window.
        if (card != null && !segmentBy.segments(card.labels()).contains(top.getKey())) {
          // Its labels left this segment and the move was lost (an edit whose placing failed):
          // placed again, and not shown here meanwhile.
          misplaced.add(s.itemId());
        } else if (card != null) {
          shown.add(s);
        }
      }
      List<BoardEntry> entries = ScoredEntries.ranked(board, shown, cards);
      boards.put(top.getKey(), AuthorCap.cap(board, entries, need.get(top.getKey())));
    }
    if (!misplaced.isEmpty()) {
      store.move(board, misplaced);
    }
    sink.publishSegments(board, boards, now, context.fence(), context::cancelled);
  }

  /** A family publishes through {@link #publishChanged}; it has no single board's entries. */
  @Override
  public @Nullable List<BoardEntry> entries(BoardDefinition board, Instant now, int controls) {
    throw new UnsupportedOperationException("a family publishes its segments itself");
  }
}
