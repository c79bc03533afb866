package io.hotrank.board.publish;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.hotrank.board.BoardInstalled;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * The first level of the read path: this instance's newest snapshot of each board, by its key
 * ({@link BoardSnapshot#key}). A board that is one board is held for good: its entry never expires
 * and is only replaced by a newer version, so a read that finds one needs no other layer and takes
 * no lock. Segment boards, of which a family may have thousands, are held in a Caffeine cache
 * bounded by {@code hotrank.board.segments-local-bytes} (weighed by their payload, evicted by
 * W-TinyLFU): the segments being read stay, the others are read again from Redis or the database
 * when asked for. Thread-safe.
 */
@Component
public class LocalBoards {

  private final ConcurrentHashMap<String, BoardSnapshot> snapshots = new ConcurrentHashMap<>();
  private final Cache<String, BoardSnapshot> segments;
  private final ConcurrentMap<String, BoardSnapshot> segmentMap;
  private final ApplicationEventPublisher events;

  /**
   * Segments no layer has a board of, as read: an empty board each, kept for one version check's
   * interval and at most {@value #ABSENT_HELD} of them, apart from the segments held, so that a
   * reader naming made-up segments neither evicts real ones nor makes the version check ask about
   * them. A segment published meanwhile is served within that interval.
   */
  private final Cache<String, BoardSnapshot> absent;

  static final int ABSENT_HELD = 10_000;

  LocalBoards(ApplicationEventPublisher events, BoardProperties properties) {
    this.events = events;
    this.absent =
        Caffeine.newBuilder()
            .maximumSize(ABSENT_HELD)
            .expireAfterWrite(properties.checkInterval())
            .build();
    this.segments =
        Caffeine.newBuilder()
            .maximumWeight(properties.segmentsLocalBytes().toBytes())
            .weigher((String key, BoardSnapshot s) -> weight(s))
            .build();
    this.segmentMap = segments.asMap();
  }

  /** The newest snapshot of a board held here; null when none is. Allocates nothing. */
  public @Nullable BoardSnapshot get(String key) {
    BoardSnapshot held = snapshots.get(key);
    return held != null ? held : segmentMap.get(key);
  }

  /**
   * Installs a snapshot unless an equal or newer version is held, then announces it with a {@link
   * BoardInstalled} event. A segment board is only replaced, never added: the segments held are the
   * ones read here ({@link #segment}), not every one a publish or a notice names; nothing is
   * announced for them.
   *
   * @return true if it was installed
   */
  public boolean install(BoardSnapshot snapshot) {
    if (snapshot.segment() != null) {
      absent.invalidate(snapshot.key());
      BoardSnapshot held =
          segmentMap.computeIfPresent(
              snapshot.key(),
              (key, current) -> snapshot.version() > current.version() ? snapshot : current);
      return held == snapshot;
    }
    BoardSnapshot held =
        snapshots.merge(
            snapshot.key(),
            snapshot,
            (current, offered) -> offered.version() > current.version() ? offered : current);
    if (held != snapshot) {
      return false;
    }
    events.publishEvent(new BoardInstalled(snapshot));
    return true;
  }

  /** The version held for a board, 0 if none. */
  public long version(String key) {
    BoardSnapshot held = get(key);
    return held == null ? 0 : held.version();
  }

  /**
   * The segment board held under {@code key}, else the one {@code load} returns, held from then on:
   * concurrent callers of one key share one load (Caffeine's atomic compute). Not announced as
   * installed: nothing but reads follow segment boards.
   *
   * @return null when {@code load} returns null: nothing is held then
   * @throws RuntimeException what {@code load} throws; nothing is held then
   */
  public @Nullable BoardSnapshot segment(
      String key, java.util.function.Function<String, @Nullable BoardSnapshot> load) {
    return segments.get(key, load);
  }

  /** The empty board of a segment found nowhere lately ({@link #holdAbsent}), or null. */
  public @Nullable BoardSnapshot absent(String key) {
    return absent.getIfPresent(key);
  }

  /** Remembers a segment no layer has a board of, as its empty board; returns it. */
  public BoardSnapshot holdAbsent(BoardSnapshot empty) {
    absent.put(empty.key(), empty);
    return empty;
  }

  /**
   * The segments of a family held now (the ones read here and not evicted since), at most {@code
   * max}: a walk of the held keys without the cache's eviction lock, which the read path would wait
   * on.
   */
  public List<String> segmentsOf(String family, int max) {
    String prefix = family + "/";
    List<String> held = new ArrayList<>();
    for (String key : segmentMap.keySet()) {
      if (held.size() == max) {
        break;
      }
      if (key.startsWith(prefix)) {
        held.add(key.substring(prefix.length()));
      }
    }
    return held;
  }

  /** The keys of the segment boards held now: what the version check looks at. */
  public Set<String> segmentKeys() {
    return Set.copyOf(segmentMap.keySet());
  }

  /** Roughly the bytes a snapshot holds: its payload and its pre-rendered default page. */
  private static int weight(BoardSnapshot snapshot) {
    long bytes = 512L + 2L * snapshot.defaultBody().length + 300L * snapshot.reserve().size();
    return (int) Math.min(Integer.MAX_VALUE, bytes);
  }
}
