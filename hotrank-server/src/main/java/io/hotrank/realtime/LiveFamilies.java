package io.hotrank.realtime;

import static io.hotrank.realtime.LiveBoards.CLOCK_TOLERANCE;
import static io.hotrank.realtime.LiveBoards.rankKey;

import io.hotrank.board.BoardControl;
import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardKind;
import io.hotrank.board.BoardSink;
import io.hotrank.board.ControlsApplied;
import io.hotrank.board.FamilyPublished;
import io.hotrank.board.SegmentBy;
import io.hotrank.core.score.Interactions;
import io.hotrank.core.score.RankKey;
import io.hotrank.core.topn.BoundedTopN;
import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldHistory;
import io.hotrank.item.CounterPages;
import io.hotrank.item.ItemCards;
import io.hotrank.job.JobContext;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live families ({@code type: live} or {@code leaderboard} with {@code segment-by}): a board per
 * segment, kept in order by the fold as {@link LiveBoards} keeps one, in {@link LiveFamilyStore}. A
 * leaderboard is ordered by its counter, over all time, which orders any two items the same way at
 * every instant as a live board's rank key does ({@link Ordering}); its {@code shards} do not apply
 * to a family, whose every segment is one set.
 *
 * <p>A fold reads the labels (author, tags, attributes, item version) of the items it changed, one
 * query for the fold, and places each item in the sets of its segments, out of those it left: the
 * cost of a fold grows with the segments of its items, never with the family's. An edit places the
 * edited item at once (it leaves a segment whose tag it lost), a delete takes it out of every
 * segment; labels carry the item's version, so that labels read before an edit never undo it. Each
 * segment set trims to its own size and keeps its own floor. The family's publish job takes the
 * segments changed since its last look (and those whose members aged out of the window), reads
 * their tops in one script, and publishes them together ({@link BoardSink#publishSegments}); a
 * family with no data, or a segment thinned below what its board needs, is rebuilt by one labelled
 * keyset scan that fills every segment's heap in the same pass.
 *
 * <p>Thread-safe.
 */
final class LiveFamilies implements FamilyKind, FoldCursor.Followed {

  /**
   * How a family's kind orders its items: a key that orders any two items the same way at every
   * instant (null: the item is on no board, as a leaderboard leaves out an item whose counter is
   * 0), the score a board shows at an instant, and where its window starts.
   */
  interface Ordering {
    @Nullable Double key(Interactions counts, long createdAtMillis);

    double score(Interactions counts, long createdAtMillis, Instant at);

    /** The score at {@code at} of an item with this key: what bounds a set's members below it. */
    double scoreOfKey(double key, Instant at);

    /** The window's start at {@code now}; 0 for a board of all time. */
    long windowStart(Instant now);

    /** A live board's: its formula's rank key, over its window. */
    static Ordering of(BoardDefinition board) {
      if (board.kind() instanceof BoardKind.Leaderboard leaderboard) {
        return new Ordering() {
          @Override
          public @Nullable Double key(Interactions counts, long createdAtMillis) {
            long value = leaderboard.value(counts);
            return value > 0 ? (double) value : null;
          }

          @Override
          public double score(Interactions counts, long createdAtMillis, Instant at) {
            return (double) leaderboard.value(counts) / board.countUnit();
          }

          @Override
          public double scoreOfKey(double key, Instant at) {
            return key / board.countUnit();
          }

          @Override
          public long windowStart(Instant now) {
            return 0;
          }
        };
      }
      RankKey order = rankKey(board);
      return new Ordering() {
        @Override
        public Double key(Interactions counts, long createdAtMillis) {
          return order.key(counts, Instant.ofEpochMilli(createdAtMillis));
        }

        @Override
        public double score(Interactions counts, long createdAtMillis, Instant at) {
          return board.scoreAt(counts, createdAtMillis, at);
        }

        @Override
        public double scoreOfKey(double key, Instant at) {
          return order.score(key, at);
        }

        @Override
        public long windowStart(Instant now) {
          return LiveBoards.windowStart(board, now);
        }
      };
    }
  }

  private static final Logger log = LoggerFactory.getLogger(LiveFamilies.class);

  /**
   * The set of a scaled board ({@link ScaledBoards}) that holds the items in no scaling segment: no
   * segment has a slash in its name.
   */
  static final String UNSEGMENTED = "/";

  /** What splits the board's items into sets: its segments, or what it is scaled by. */
  static SegmentBy splitBy(BoardDefinition board) {
    SegmentBy scale = board.scaleBy();
    return scale != null ? scale : Objects.requireNonNull(board.segmentBy());
  }

  /**
   * The sets an item belongs in: a family's, its segments; a scaled board's, the segments it is
   * scaled by, or {@link #UNSEGMENTED} when it has none.
   */
  static Set<String> segments(BoardDefinition board, ItemCards.Labels labels) {
    Set<String> segments = splitBy(board).segments(labels);
    return segments.isEmpty() && board.scaleBy() != null ? Set.of(UNSEGMENTED) : segments;
  }

  /**
   * Segments a look publishes at most; the rest wait for the next look (a few looks a second): each
   * reads its segments' cards, so a family whose segments all change every second publishes them in
   * turn rather than in one look that holds the others back.
   */
  static final int MAX_LOOK = 500;

  /** Segments per script reading their tops. */
  private static final int TOP_CHUNK = 500;

  /** Members per script loading a rebuild. */
  private static final int LOAD_CHUNK = 5_000;

  /**
   * How long a family rebuilt because a segment thinned waits before the next such rebuild: a
   * rebuild scans the whole window, so a family of many segments, some of which thin now and then,
   * is not scanned more often than this; meanwhile a thinned segment shows what its set holds.
   */
  private static final Duration THINNED_GAP = Duration.ofMinutes(5);

  /** Attempts at placing a created or edited item before leaving it to the folds. */
  private static final int PLACE_ATTEMPTS = 5;

  private final LiveFamilyStore store;
  private final FoldHistory history;
  private final CounterPages counters;
  private final ItemCards items;
  private final PublishedCards published;
  private final BoardSink sink;
  private final Clock clock;
  private final int scanPageSize;
  private final MeterRegistry meters;
  private final FoldCursor cursor;

  /** Live controls of one segment at most, per family, as the last look saw them. */
  private final Map<String, Integer> controlled = new ConcurrentHashMap<>();

  /** When each family was last rebuilt because a segment thinned (epoch ms). */
  private final Map<String, Long> thinnedAt = new ConcurrentHashMap<>();

  LiveFamilies(
      LiveFamilyStore store,
      FoldHistory history,
      CounterPages counters,
      ItemCards items,
      PublishedCards published,
      BoardSink sink,
      Clock clock,
      int scanPageSize,
      MeterRegistry meters) {
    this.store = store;
    this.history = history;
    this.counters = counters;
    this.items = items;
    this.published = published;
    this.sink = sink;
    this.clock = clock;
    this.scanPageSize = scanPageSize;
    this.meters = meters;
    this.cursor = new FoldCursor(history, this);
  }

  @Override
  public boolean keeps(BoardDefinition board) {
    return (board.kind() instanceof BoardKind.Live || board.kind() instanceof BoardKind.Leaderboard)
        && board.segmented();
  }

  /**
   * How many members of a segment its publish reads (the board, the most controlled segment's
   * controls, the reserve, and a tenth more): a change below them does not change its board.
   */
  int visible(BoardDefinition board) {
    int need =
        board.size()
            + ControlsApplied.reserve(board)
            + controlled.getOrDefault(board.name(), 0)
            + AuthorCap.extra(board);
    return need + need / 10 + 1;
  }

  /**
   * Members per segment set: as {@link LiveBoards#keep}, with the most controlled segment's; a
   * scaled board's sets keep every member ({@link ScaledBoards}).
   */
  int keep(BoardDefinition board) {
    if (board.scaleBy() != null) {
      return ScaledBoards.EVERY_MEMBER;
    }
    return 2 * board.size()
        + ControlsApplied.reserve(board)
        + controlled.getOrDefault(board.name(), 0)
        + AuthorCap.extra(board);
  }

  @Override
  public void apply(BoardDefinition board, Fold fold) {
    List<Long> ids = new ArrayList<>();
    fold.counters()
        .forEach(
            (key, counts) -> {
              if (key.biz().equals(board.biz())) {
                ids.add(key.itemId());
              }
            });
    Map<Long, ItemCards.Labels> labels = ids.isEmpty() ? Map.of() : items.labels(board.biz(), ids);
    Ordering order = Ordering.of(board);
    List<LiveFamilyStore.Placed> placed = new ArrayList<>(ids.size());
    fold.counters()
        .forEach(
            (key, counts) -> {
              if (key.biz().equals(board.biz())) {
                long createdAt = fold.createdAt().get(key);
                placed.add(
                    placed(
                        board,
                        order,
                        key.itemId(),
                        createdAt,
                        board.ranked(counts),
                        labels.get(key.itemId())));
              }
            });
    String outcome =
        store.apply(
            board,
            LiveFamilyStore.Mode.FOLD,
            fold.foldNo(),
            fold.foldNo() - 1,
            keep(board),
            visible(board),
            foldWindowStart(board),
            placed);
    cursor.folded(board, fold.foldNo(), outcome);
  }

  @Override
  public void catchUp(BoardDefinition board, long upTo) {
    cursor.catchUp(board, upTo);
  }

  /** As {@link LiveBoards}: the current keys and labels of the items the missed folds touched. */
  @Override
  public boolean writeCurrent(BoardDefinition board, long from, long to, Set<Long> ids) {
    Ordering order = Ordering.of(board);
    List<LiveFamilyStore.Placed> placed = new ArrayList<>();
    for (ItemCards.Card card : items.cards(board.biz(), ids).values()) {
      placed.add(
          placed(
              board,
              order,
              card.itemId(),
              card.createdAtMillis(),
              board.ranked(card.counters()),
              card.labels()));
    }
    // A deleted item is not folded again; its delete took it out (or a look finds it gone).
    String outcome =
        store.apply(
            board,
            LiveFamilyStore.Mode.FOLD,
            to,
            from,
            keep(board),
            visible(board),
            foldWindowStart(board),
            placed);
    return outcome.equals("applied") || outcome.equals("done");
  }

  @Override
  public void forget(BoardDefinition board, String why) {
    log.info("Live family '{}' will be rebuilt from the database because {}", board.name(), why);
    store.forget(board);
  }

  @Override
  public void created(BoardDefinition board, long itemId, long createdAtMillis) {
    place(board, itemId, createdAtMillis);
  }

  @Override
  public void edited(BoardDefinition board, long itemId) {
    place(board, itemId, null);
  }

  @Override
  public void deleted(BoardDefinition board, long itemId, long createdAtMillis) {
    remove(board, List.of(new LiveStore.Ranked(itemId, createdAtMillis, 0)));
  }

  /** Takes deleted items out of every set. */
  void remove(BoardDefinition board, Collection<LiveStore.Ranked> gone) {
    List<LiveFamilyStore.Placed> removed = new ArrayList<>(gone.size());
    for (LiveStore.Ranked r : gone) {
      removed.add(new LiveFamilyStore.Placed(r.itemId(), r.createdAtMillis(), null, 0, Set.of()));
    }
    store.apply(
        board,
        LiveFamilyStore.Mode.REMOVE,
        0,
        null,
        keep(board),
        visible(board),
        foldWindowStart(board),
        removed);
  }

  /**
   * Places an item by its labels and counters as they are now, in its segments and out of the
   * others: exactly once against the folds, as {@link LiveBoards#created} admits, since its key is
   * written only when the family applied no fold committed after the read began (otherwise the key
   * a set already holds is kept, or the item is read again).
   *
   * @param createdAtMillis when the item was created, if known: a deleted item is then taken out
   */
  void place(BoardDefinition board, long itemId, @Nullable Long createdAtMillis) {
    for (int attempt = 1; attempt <= PLACE_ATTEMPTS; attempt++) {
      long lastFoldNo = history.lastFoldNo();
      ItemCards.Card card = items.cards(board.biz(), List.of(itemId)).get(itemId);
      if (card == null) {
        if (createdAtMillis != null) {
          remove(board, List.of(new LiveStore.Ranked(itemId, createdAtMillis, 0)));
        }
        return;
      }
      String outcome =
          store.apply(
              board,
              LiveFamilyStore.Mode.CURRENT,
              lastFoldNo,
              null,
              keep(board),
              visible(board),
              foldWindowStart(board),
              List.of(
                  placed(
                      board,
                      Ordering.of(board),
                      itemId,
                      card.createdAtMillis(),
                      board.ranked(card.counters()),
                      card.labels())));
      if (!outcome.equals("moved")) {
        return; // placed, or left to the rebuild it waits for ("none")
      }
    }
    log.info(
        "Live family '{}': item {} was written while folds kept moving the family; its next event,"
            + " its segment's next publish or the next rebuild places it",
        board.name(),
        itemId);
  }

  @Override
  public @Nullable Long applied(BoardDefinition board) {
    return store.applied(board);
  }

  @Override
  public boolean rebuild(BoardDefinition board, String why) {
    forget(board, why);
    return true;
  }

  /** A scanned item with the version its labels were read at. */
  private record Scanned(LiveStore.Ranked ranked, long version) {}

  private static final Comparator<Scanned> SCANNED_BEST_FIRST =
      Comparator.comparing(Scanned::ranked, LiveBoards.BEST_FIRST);

  /**
   * Refills the family from the database by one labelled keyset scan over its window: every
   * segment's best {@link #keep} items and floor, loaded in chunks after the family was emptied,
   * then started at the fold committed before the scan (folds after it catch up from the history).
   * Run by the family's publish job, under its lease.
   */
  void rescan(BoardDefinition board, String cause, String why) {
    meters.counter("hotrank.live.rebuilds", "board", board.name(), "cause", cause).increment();
    long started = clock.millis();
    store.forget(board);
    long foldNo = history.lastFoldNo();
    long windowStart = foldWindowStart(board);
    int keep = keep(board);
    Ordering order = Ordering.of(board);
    Map<String, BoundedTopN<Scanned>> heaps = new HashMap<>();
    // A scaled board keeps every member: emptied first, then loaded as the scan reads them, in
    // chunks, rather than held in heaps (its sets may hold the whole window).
    boolean everyMember = board.scaleBy() != null;
    long emptiedFirst = everyMember ? store.clear(board) : 0;
    Map<String, List<LiveFamilyStore.Placed>> streamed = new LinkedHashMap<>();
    Set<String> streamedSegments = new HashSet<>();
    int[] streaming = {0};
    long scanned =
        counters.scanLabelledWindow(
            board.biz(),
            windowStart,
            Long.MAX_VALUE,
            scanPageSize,
            EnumSet.of(splitBy(board).label(), CounterPages.Label.VERSION),
            () -> false,
            page -> {
              for (CounterPages.LabelledRow labelled : page) {
                CounterPages.CounterRow row = labelled.row();
                Set<String> segments = segments(board, labelled.labels());
                Double key = order.key(board.ranked(row.counters()), row.createdAtMillis());
                if (segments.isEmpty() || key == null) {
                  continue;
                }
                if (everyMember) {
                  for (String segment : segments) {
                    streamed
                        .computeIfAbsent(segment, s -> new ArrayList<>())
                        .add(
                            new LiveFamilyStore.Placed(
                                row.itemId(),
                                row.createdAtMillis(),
                                key,
                                labelled.labels().version(),
                                Set.of()));
                    streamedSegments.add(segment);
                    if (++streaming[0] >= LOAD_CHUNK) {
                      loadStreamed(board, streamed);
                      streaming[0] = 0;
                    }
                  }
                  continue;
                }
                Scanned item =
                    new Scanned(
                        new LiveStore.Ranked(row.itemId(), row.createdAtMillis(), key),
                        labelled.labels().version());
                for (String segment : segments) {
                  heaps
                      .computeIfAbsent(
                          segment, s -> new BoundedTopN<>(keep + 1, SCANNED_BEST_FIRST))
                      .offer(item);
                }
              }
            });
    loadStreamed(board, streamed);
    long emptied = everyMember ? emptiedFirst : store.clear(board);
    Map<String, LiveFamilyStore.Loaded> chunk = new LinkedHashMap<>();
    int members = 0;
    for (Map.Entry<String, BoundedTopN<Scanned>> heap : heaps.entrySet()) {
      List<Scanned> best = heap.getValue().toSortedList();
      String floor = "";
      if (best.size() > keep) {
        floor = LiveStore.floor(best.getLast().ranked());
        best = best.subList(0, keep);
      }
      List<LiveFamilyStore.Placed> placed = new ArrayList<>(best.size());
      for (Scanned s : best) {
        LiveStore.Ranked r = s.ranked();
        placed.add(
            new LiveFamilyStore.Placed(
                r.itemId(), r.createdAtMillis(), r.key(), s.version(), Set.of()));
      }
      chunk.put(heap.getKey(), new LiveFamilyStore.Loaded(floor, placed));
      members += placed.size();
      if (members >= LOAD_CHUNK) {
        store.load(board, chunk);
        chunk = new LinkedHashMap<>();
        members = 0;
      }
    }
    if (!chunk.isEmpty()) {
      store.load(board, chunk);
    }
    // Segments the database shows with entries that Redis forgot (it restarted empty, the keys
    // expired, the definition changed) and this scan did not fill: published empty.
    List<String> forgotten = new ArrayList<>();
    try {
      for (String segment : sink.segmentsWithEntries(board.name())) {
        if (!heaps.containsKey(segment)) {
          forgotten.add(segment);
        }
      }
    } catch (RuntimeException e) {
      log.warn("Live family '{}': stored segments unreadable ({})", board.name(), e.toString());
    }
    store.changed(board, forgotten);
    store.start(board, foldNo);
    // Items written while the family had no data: the scan may have read them before.
    for (LiveFamilyStore.Pending pending : store.takePending(board)) {
      place(board, pending.itemId(), pending.createdAtMillis());
    }
    log.info(
        "Live family '{}' rebuilt at fold {} from {} items into {} segments ({} emptied) in {} ms"
            + " because {}",
        board.name(),
        foldNo,
        scanned,
        everyMember ? streamedSegments.size() : heaps.size(),
        emptied,
        clock.millis() - started,
        why);
  }

  /** Loads the members a scaled board's rebuild has read so far, and forgets them. */
  private void loadStreamed(
      BoardDefinition board, Map<String, List<LiveFamilyStore.Placed>> streamed) {
    if (streamed.isEmpty()) {
      return;
    }
    Map<String, LiveFamilyStore.Loaded> chunk = new LinkedHashMap<>();
    streamed.forEach(
        (segment, placed) -> chunk.put(segment, new LiveFamilyStore.Loaded("", placed)));
    store.load(board, chunk);
    streamed.clear();
  }

  /**
   * Rebuilds the sets because one thinned below what its board needs, unless that happened less
   * than {@link #THINNED_GAP} ago.
   *
   * @return whether it rebuilt them
   */
  boolean rescanThinned(BoardDefinition board, Instant now) {
    long last = thinnedAt.getOrDefault(board.name(), 0L);
    if (now.toEpochMilli() - last < THINNED_GAP.toMillis()) {
      return false;
    }
    thinnedAt.put(board.name(), now.toEpochMilli());
    rescan(board, "thinned", "a segment holds fewer items than its board needs");
    return true;
  }

  /** How many live controls the board's most controlled set must make room for. */
  void controls(BoardDefinition board, int controls) {
    controlled.put(board.name(), controls);
  }

  @Override
  public boolean publishChanged(BoardDefinition board, JobContext context) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    Ordering order = Ordering.of(board);
    long tolerantStart = order.windowStart(now.minus(CLOCK_TOLERANCE));
    // The segments read on this instance (held in its local tier) are taken first, half a look at
    // most so that the others still go: with more changed than a look publishes, the boards people
    // read are published at every look. Reads elsewhere are not seen here; a segment read on every
    // instance is read here too.
    List<String> read = sink.readSegments(board.name(), MAX_LOOK / 2);
    LiveFamilyStore.Taken taken =
        store.take(board, tolerantStart, keep(board), visible(board), MAX_LOOK, read);
    if (!taken.hasData()) {
      rescan(board, "no-data", "Redis holds none of its data");
      taken = store.take(board, tolerantStart, keep(board), visible(board), MAX_LOOK, read);
      if (!taken.hasData()) {
        return false;
      }
    }
    int published = 0;
    for (int attempt = 1; attempt <= 2 && !taken.changed().isEmpty(); attempt++) {
      List<String> changed = taken.changed();
      boolean done;
      try {
        done = publish(board, changed, now, context, attempt == 1);
        if (context.cancelled()) {
          store.changed(board, changed); // some chunks may not have started
        }
      } catch (RuntimeException e) {
        store.changed(board, changed);
        throw e;
      }
      if (done) {
        if (!context.cancelled()) {
          store.published(board);
          published = changed.size();
        }
        break;
      }
      // Rebuilt because a segment thinned: every segment is changed; publish them now.
      taken = store.take(board, tolerantStart, keep(board), visible(board), MAX_LOOK, read);
    }
    context.report(new FamilyPublished(board.name(), now, published, 0, 0));
    return true;
  }

  /**
   * Publishes the changed segments' boards.
   *
   * @param mayRebuild whether a thinned segment may rebuild the family first
   * @return false when the family was rebuilt instead (or forgotten meanwhile) and nothing was
   *     published
   */
  private boolean publish(
      BoardDefinition board,
      List<String> changed,
      Instant now,
      JobContext context,
      boolean mayRebuild) {
    Map<String, List<BoardControl>> controls = sink.controls(board, changed);
    Map<String, Integer> wanted = new LinkedHashMap<>();
    int mostControlled = 0;
    for (String segment : changed) {
      int live =
          ControlsApplied.controlledIds(controls.getOrDefault(segment, List.of()), now).size();
      mostControlled = Math.max(mostControlled, live);
      wanted.put(segment, board.size() + live + ControlsApplied.reserve(board));
    }
    controlled.merge(board.name(), mostControlled, Math::max);
    Ordering order = Ordering.of(board);
    long windowStart = order.windowStart(now);
    Map<String, List<BoardEntry>> boards = new LinkedHashMap<>();
    List<LiveStore.Ranked> gone = new ArrayList<>();
    Set<Long> misplaced = new HashSet<>();
    SegmentBy segmentBy = Objects.requireNonNull(board.segmentBy());
    boolean thinned = false;
    List<String> segments = new ArrayList<>(wanted.keySet());
    for (int from = 0; from < segments.size(); from += TOP_CHUNK) {
      Map<String, Integer> fetch = new LinkedHashMap<>();
      for (String segment : segments.subList(from, Math.min(segments.size(), from + TOP_CHUNK))) {
        // What it needs (deeper when capped), and a tenth more: members between this reader's
        // window and the folds' tolerant one are left out (a short segment is filled by its next
        // look).
        int deep = wanted.get(segment) + AuthorCap.extra(board);
        fetch.put(segment, deep + deep / 10 + 1);
      }
      Map<String, LiveFamilyStore.SegmentTop> tops = store.top(board, fetch);
      if (tops == null) {
        store.changed(board, changed); // forgotten meanwhile: the next look rebuilds it
        return false;
      }
      Set<Long> ids = new HashSet<>();
      tops.values().forEach(t -> t.ranked().forEach(r -> ids.add(r.itemId())));
      Map<Long, ItemCards.Card> cards = published.cards(board, ids);
      for (Map.Entry<String, LiveFamilyStore.SegmentTop> top : tops.entrySet()) {
        int need = wanted.get(top.getKey());
        List<BoardEntry> entries = new ArrayList<>();
        for (LiveStore.Ranked r : top.getValue().ranked()) {
          ItemCards.Card card = cards.get(r.itemId());
          if (card == null) {
            gone.add(r);
          } else if (!segmentBy.segments(card.labels()).contains(top.getKey())) {
            // Its labels left this segment and the move was lost (an edit whose placing failed):
            // placed again, and not shown here meanwhile.
            misplaced.add(r.itemId());
          } else if (card.createdAtMillis() <= now.toEpochMilli()
              && card.createdAtMillis() >= windowStart) {
            entries.add(entry(board, order, card, now));
          }
        }
        if (entries.size() < need
            && top.getValue().trimmed()
            && top.getValue().ranked().size() < fetch.get(top.getKey())) {
          thinned = true;
        }
        entries.sort(ControlsApplied.BEST_FIRST);
        List<BoardEntry> ranked = new ArrayList<>(Math.min(entries.size(), need));
        for (BoardEntry e : AuthorCap.cap(board, entries, need)) {
          ranked.add(e.withRank(ranked.size() + 1));
        }
        boards.put(top.getKey(), ranked);
      }
    }
    if (!gone.isEmpty()) {
      remove(board, gone);
    }
    for (Long id : misplaced) {
      place(board, id, null);
    }
    if (thinned && mayRebuild && rescanThinned(board, now)) {
      return false; // every segment is marked changed
    }
    sink.publishSegments(board, boards, now, context.fence(), context::cancelled);
    return true;
  }

  /** A family publishes through {@link #publishChanged}; it has no single board's entries. */
  @Override
  public @Nullable List<BoardEntry> entries(BoardDefinition board, Instant now, int controls) {
    throw new UnsupportedOperationException("a family publishes its segments itself");
  }

  private static LiveFamilyStore.Placed placed(
      BoardDefinition board,
      Ordering order,
      long itemId,
      long createdAtMillis,
      Interactions counts,
      ItemCards.@Nullable Labels labels) {
    if (labels == null) {
      return new LiveFamilyStore.Placed(itemId, createdAtMillis, null, 0, Set.of());
    }
    return new LiveFamilyStore.Placed(
        itemId,
        createdAtMillis,
        order.key(counts, createdAtMillis),
        labels.version(),
        segments(board, labels));
  }

  private long foldWindowStart(BoardDefinition board) {
    return Ordering.of(board).windowStart(clock.instant().minus(CLOCK_TOLERANCE));
  }

  private static BoardEntry entry(
      BoardDefinition board, Ordering order, ItemCards.Card card, Instant now) {
    return LiveBoards.entry(
        board, card, order.score(board.ranked(card.counters()), card.createdAtMillis(), now));
  }
}
