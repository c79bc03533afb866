package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardKind;
import io.hotrank.ingest.FoldedEvent;
import io.hotrank.item.ItemCards;
import io.hotrank.redis.LuaScripts;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A window family in Redis ({@code window-family-*.lua}): the family's own buckets (every item of
 * the biz, whatever its labels), and per segment the buckets, snapshot and built bucket of a window
 * board, as {@link WindowStore} keeps one. A fold reads the labels of the items it touched (one
 * query) and adds each item's weights to the buckets of its segments; an item whose labels changed
 * moves its whole window from the segments it left to those it joined, from the family's buckets.
 * Every key shares the family's hash tag and lives under a generation that a reset moves past. A
 * scaled window board ({@link ScaledWindows}) is kept here too, its segments being those it is
 * scaled by, with its events counted per segment and bucket. Thread-safe.
 */
final class WindowFamilyStore implements WindowData {

  /** Segments per script reading their tops. */
  private static final int TOP_CHUNK = 100;

  /** Segments per build script. */
  private static final int BUILD_CHUNK = 200;

  /** Items forgotten per script at most (see {@code window-family-built.lua}). */
  private static final long FORGET_CHUNK = 5_000;

  /** Items per apply script at most. */
  private static final int PART = 1_000;

  private static final RedisScript<String> APPLY =
      LuaScripts.load("window-family-apply.lua", String.class);
  private static final RedisScript<Long> BUILD =
      LuaScripts.load("window-family-build.lua", Long.class);
  private static final RedisScript<Long> BUILT =
      LuaScripts.load("window-family-built.lua", Long.class);
  private static final RedisScript<Long> RESET =
      LuaScripts.load("window-family-reset.lua", Long.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> TAKE =
      LuaScripts.load("window-family-take.lua", List.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> SIZES =
      LuaScripts.load("window-family-sizes.lua", List.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> TOP = LuaScripts.load("window-family-top.lua", List.class);

  private final StringRedisTemplate redis;
  private final RealtimeKeys keys;
  private final ItemCards items;
  private final Clock clock;

  WindowFamilyStore(StringRedisTemplate redis, RealtimeKeys keys, ItemCards items, Clock clock) {
    this.redis = redis;
    this.keys = keys;
    this.items = items;
    this.clock = clock;
  }

  /**
   * An item as a script places it: its labels' version and segments, weights per bucket, and (on a
   * scaled board) events per bucket.
   */
  private record Placed(
      long itemId,
      long version,
      Set<String> segments,
      Map<Long, Double> weights,
      Map<Long, Long> events) {}

  @Override
  public String apply(
      BoardDefinition board,
      long foldNo,
      @Nullable Long previous,
      List<FoldedEvent> events,
      long nowMillis,
      int keep) {
    Map<Long, Map<Long, Double>> byItem = new LinkedHashMap<>();
    Map<Long, Map<Long, Long>> counted = new LinkedHashMap<>();
    boolean scaled = board.scaleBy() != null;
    WindowStore.weigh(
        board,
        events,
        nowMillis,
        (itemId, bucket, weight, step, inWindow) -> {
          // Every item of the fold, whatever the clock: a fold written in parts is split alike by
          // every attempt (a retry, another instance), so that each part is written once.
          Map<Long, Double> weights = byItem.computeIfAbsent(itemId, i -> new TreeMap<>());
          if (inWindow && weight != 0) {
            weights.merge(bucket, weight, Double::sum);
          }
          if (inWindow && scaled) {
            // Every interaction counts towards n, weighted or not, as a batch board counts it.
            counted
                .computeIfAbsent(itemId, i -> new TreeMap<>())
                .merge(bucket, (long) step, Long::sum);
          }
        });
    Map<Long, ItemCards.Labels> labels =
        byItem.isEmpty() ? Map.of() : items.labels(board.biz(), byItem.keySet());
    List<Placed> placed = new ArrayList<>(byItem.size());
    byItem.forEach(
        (id, weights) -> {
          ItemCards.Labels l = labels.get(id);
          // An item not found (deleted, or not yet visible) keeps what the family knows of it.
          placed.add(
              new Placed(
                  id,
                  l == null ? -1 : l.version(),
                  segments(board, l),
                  weights,
                  counted.getOrDefault(id, Map.of())));
        });
    String generation = generation(board);
    if (placed.size() <= PART) {
      return run(board, "fold", foldNo, previous, placed, nowMillis, keep, generation);
    }
    // In parts, so that no script holds Redis for long: each part before the last is written
    // once (the family records the fold's last part written), the last records the fold. The
    // parts follow the events' order, so another instance applying the same fold splits it alike.
    String outcome = "";
    for (int from = 0, part = 0; from < placed.size(); from += PART, part++) {
      List<Placed> each = placed.subList(from, Math.min(placed.size(), from + PART));
      boolean last = from + PART >= placed.size();
      String mode = last ? "fold" : "part:" + part;
      outcome = run(board, mode, foldNo, previous, each, nowMillis, keep, generation);
      if (!last && !outcome.equals("written")) {
        return outcome;
      }
    }
    return outcome;
  }

  /** Places edited items by their labels now, moving their windows between segments. */
  void move(BoardDefinition board, Collection<Long> ids) {
    Map<Long, ItemCards.Labels> labels = items.labels(board.biz(), ids);
    List<Placed> placed = new ArrayList<>(ids.size());
    for (long id : ids) {
      ItemCards.Labels l = labels.get(id);
      if (l != null) {
        placed.add(new Placed(id, l.version(), segments(board, l), Map.of(), Map.of()));
      }
    }
    if (!placed.isEmpty()) {
      run(board, "move", 0, null, placed, clock.millis(), ScoredEntries.keep(board), "");
    }
  }

  /** Takes deleted items out of every segment and the family's buckets. */
  void remove(BoardDefinition board, Collection<Long> ids) {
    List<Placed> removed = new ArrayList<>(ids.size());
    for (long id : ids) {
      removed.add(new Placed(id, -1, Set.of(), Map.of(), Map.of()));
    }
    run(board, "remove", 0, null, removed, clock.millis(), ScoredEntries.keep(board), "");
  }

  /** Items edited while the family had no data are placed once its window is replayed. */
  @Override
  public void replayed(BoardDefinition board) {
    String key = prefix(board) + "pending";
    Set<String> pending = redis.opsForSet().members(key);
    if (pending == null || pending.isEmpty()) {
      return;
    }
    move(board, pending.stream().map(Long::valueOf).toList());
    redis.opsForSet().remove(key, pending.toArray()); // after: a failed move leaves them waiting
  }

  @Override
  public long build(BoardDefinition board, long nowMillis, int keep) {
    String generation = generation(board);
    String p = prefix(board, generation);
    long last = WindowStore.bucketOf(board, nowMillis) - 1;
    String built = redis.opsForValue().get(p + "built");
    if (built != null && Long.parseLong(built) >= last) {
      return -1;
    }
    BoardKind.Window window = board.kind(BoardKind.Window.class);
    List<String> segments = new ArrayList<>(redis.opsForZSet().range(p + "segs", 0, -1));
    long count = 0;
    for (int from = 0; from < segments.size(); from += BUILD_CHUNK) {
      List<String> args = new ArrayList<>();
      args.add(generation);
      args.add(Long.toString(last));
      args.add(Integer.toString(keep));
      args.add(rate(window));
      args.add(Integer.toString(buckets(board)));
      args.add(Long.toString(window.bucket().toMillis()));
      args.add(Long.toString(board.window().toMillis()));
      args.add(Long.toString(nowMillis));
      args.addAll(segments.subList(from, Math.min(segments.size(), from + BUILD_CHUNK)));
      Long built1 = redis.execute(BUILD, List.of(generationKey(board)), args.toArray());
      if (built1 == null || built1 < 0) {
        return -1; // reset meanwhile: the next run builds the new generation
      }
      count += built1;
    }
    String oldest = Long.toString(last - buckets(board));
    Long forgotten;
    do {
      forgotten =
          redis.execute(
              BUILT, List.of(generationKey(board)), generation, Long.toString(last), oldest);
    } while (forgotten != null && forgotten >= FORGET_CHUNK);
    return count;
  }

  @Override
  public @Nullable Long applied(BoardDefinition board) {
    String text = redis.opsForValue().get(prefix(board) + "applied");
    return text == null ? null : Long.valueOf(text);
  }

  @Override
  public void reset(BoardDefinition board, long nowMillis) {
    redis.execute(RESET, List.of(generationKey(board)));
  }

  @Override
  public void replaying(BoardDefinition board, boolean on, Duration ttl) {
    String key = prefix(board) + "replaying";
    if (on) {
      redis.opsForValue().set(key, "1", ttl);
    } else {
      redis.delete(key);
    }
  }

  @Override
  public boolean isReplaying(BoardDefinition board) {
    return Boolean.TRUE.equals(redis.hasKey(prefix(board) + "replaying"));
  }

  /** Takes at most {@code max} segments changed since the last look. */
  LiveFamilyStore.Taken take(BoardDefinition board, int max) {
    return LiveFamilyStore.taken(
        redis.execute(TAKE, List.of(generationKey(board)), Integer.toString(max)));
  }

  /** The segments the last {@link #take} took are published. */
  void published(BoardDefinition board) {
    redis.delete(prefix(board) + "publishing");
  }

  /** Marks segments changed again (a look that took them failed to publish them). */
  void changed(BoardDefinition board, Collection<String> segments) {
    if (!segments.isEmpty()) {
      redis.opsForSet().add(prefix(board) + "dirty", segments.toArray(String[]::new));
    }
  }

  /**
   * {@link #top} in parts of {@link #TOP_CHUNK} segments a script, so that no script holds Redis
   * for long (after a bucket's end every segment is read).
   */
  @Nullable Map<String, List<Scored>> tops(
      BoardDefinition board, long nowMillis, Map<String, Integer> wanted) {
    Map<String, List<Scored>> read = new LinkedHashMap<>();
    List<String> segments = new ArrayList<>(wanted.keySet());
    for (int from = 0; from < segments.size(); from += TOP_CHUNK) {
      Map<String, Integer> part = new LinkedHashMap<>();
      for (String segment : segments.subList(from, Math.min(segments.size(), from + TOP_CHUNK))) {
        part.put(segment, wanted.get(segment));
      }
      Map<String, List<Scored>> tops = top(board, nowMillis, part);
      if (tops == null) {
        return null;
      }
      read.putAll(tops);
    }
    return read;
  }

  /**
   * The best members of each segment at {@code nowMillis}, as many as asked per segment (more when
   * some tie with the last); null when the family has no data or is replaying its window.
   */
  private @Nullable Map<String, List<Scored>> top(
      BoardDefinition board, long nowMillis, Map<String, Integer> wanted) {
    BoardKind.Window window = board.kind(BoardKind.Window.class);
    List<String> args = new ArrayList<>(3 + 2 * wanted.size());
    args.add(Long.toString(WindowStore.bucketOf(board, nowMillis)));
    args.add(Integer.toString(buckets(board)));
    args.add(rate(window));
    wanted.forEach(
        (segment, limit) -> {
          args.add(segment);
          args.add(Integer.toString(limit));
        });
    List<?> reply = redis.execute(TOP, List.of(generationKey(board)), args.toArray());
    if (reply == null || reply.isEmpty() || "".equals(reply.getFirst().toString())) {
      return null;
    }
    Map<String, List<Scored>> tops = new LinkedHashMap<>();
    int i = 1;
    for (String segment : wanted.keySet()) {
      int n = Integer.parseInt(reply.get(i).toString());
      i++;
      List<Scored> top = new ArrayList<>(n);
      for (int m = 0; m < n; m++, i += 2) {
        top.add(
            new Scored(
                Long.parseLong(reply.get(i).toString()),
                Double.parseDouble(reply.get(i + 1).toString())));
      }
      tops.put(segment, top);
    }
    return tops;
  }

  /** A scaled board's segments holding members, and the events each received over the window. */
  record Sizes(List<String> segments, Map<String, Long> events) {}

  /**
   * The segments holding members and their events over the window at {@code nowMillis}; null when
   * the family has no data or is replaying its window.
   */
  @Nullable Sizes sizes(BoardDefinition board, long nowMillis) {
    List<?> reply =
        redis.execute(
            SIZES,
            List.of(generationKey(board)),
            Long.toString(WindowStore.bucketOf(board, nowMillis)),
            Integer.toString(buckets(board)));
    if (reply == null || reply.isEmpty() || "".equals(reply.getFirst().toString())) {
      return null;
    }
    int count = Integer.parseInt(reply.get(1).toString());
    List<String> segments = new ArrayList<>(count);
    for (int i = 2; i < 2 + count; i++) {
      segments.add(reply.get(i).toString());
    }
    Map<String, Long> events = new HashMap<>();
    for (int i = 2 + count; i + 1 < reply.size(); i += 2) {
      events.put(reply.get(i).toString(), (long) Double.parseDouble(reply.get(i + 1).toString()));
    }
    return new Sizes(segments, events);
  }

  /** A family's item is in its segments; a scaled board's in those it is scaled by, or in '/'. */
  private static Set<String> segments(BoardDefinition board, ItemCards.@Nullable Labels labels) {
    if (labels == null) {
      return Set.of();
    }
    return new LinkedHashSet<>(LiveFamilies.segments(board, labels));
  }

  private static int buckets(BoardDefinition board) {
    return board.kind(BoardKind.Window.class).buckets(board.window());
  }

  private static String rate(BoardKind.Window window) {
    return window.halfLife() == null
        ? "0"
        : Double.toString((double) window.bucket().toMillis() / window.halfLife().toMillis());
  }

  private String base(BoardDefinition board) {
    return keys.windowFamily(board, LiveStore.fingerprint(board));
  }

  private String generationKey(BoardDefinition board) {
    return base(board) + ":gen";
  }

  private String generation(BoardDefinition board) {
    String generation = redis.opsForValue().get(generationKey(board));
    return generation == null ? "0" : generation;
  }

  private String prefix(BoardDefinition board) {
    return prefix(board, generation(board));
  }

  private String prefix(BoardDefinition board, String generation) {
    return base(board) + ":" + generation + ":";
  }

  /** A script's per-bucket section: how many buckets, then pairs of bucket and value. */
  private static void addPerBucket(List<String> args, Map<Long, ? extends Number> perBucket) {
    args.add(Integer.toString(perBucket.size()));
    perBucket.forEach(
        (bucket, value) -> {
          args.add(Long.toString(bucket));
          args.add(value.toString());
        });
  }

  private String run(
      BoardDefinition board,
      String mode,
      long foldNo,
      @Nullable Long previous,
      Collection<Placed> placed,
      long nowMillis,
      int keep,
      String generation) {
    BoardKind.Window window = board.kind(BoardKind.Window.class);
    long bucketMillis = window.bucket().toMillis();
    List<String> args = new ArrayList<>();
    args.add(Long.toString(foldNo));
    args.add(previous == null ? "" : Long.toString(previous));
    args.add(mode);
    args.add(rate(window));
    args.add(Integer.toString(keep));
    args.add(Integer.toString(buckets(board)));
    args.add(Long.toString(WindowStore.bucketOf(board, nowMillis) - buckets(board) + 1));
    args.add(Long.toString(bucketMillis));
    args.add(Long.toString(board.window().toMillis()));
    args.add(Long.toString(nowMillis));
    args.add(generation);
    for (Placed p : placed) {
      args.add(Long.toString(p.itemId()));
      args.add(Long.toString(p.version()));
      args.add(Integer.toString(p.segments().size()));
      args.addAll(p.segments());
      addPerBucket(args, p.weights());
      addPerBucket(args, p.events());
    }
    return redis.execute(APPLY, List.of(generationKey(board)), args.toArray());
  }
}
