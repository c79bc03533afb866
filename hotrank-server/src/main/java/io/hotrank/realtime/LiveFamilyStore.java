package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.redis.LuaScripts;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A live family in Redis: one rank set and floor per segment, as {@link LiveStore} keeps one live
 * board, with what the family shares (the fold it applied, the members' createdAt and segments, the
 * segments changed since their last publish) under one hash tag, so that one script reaches any
 * segment on any cluster node holding the family's slot. Keys carry the definition's fingerprint
 * ({@link LiveStore#fingerprint}) and expire after {@link LiveStore#TTL} unused.
 */
final class LiveFamilyStore {

  private static final RedisScript<String> APPLY =
      LuaScripts.load("live-family-apply.lua", String.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> TAKE = LuaScripts.load("live-family-take.lua", List.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> TOP = LuaScripts.load("live-family-top.lua", List.class);

  private static final RedisScript<Long> CLEAR =
      LuaScripts.load("live-family-clear.lua", Long.class);

  private static final RedisScript<Long> LOAD = LuaScripts.load("live-family-load.lua", Long.class);

  private static final String TTL = Long.toString(LiveStore.TTL.toMillis());

  private final StringRedisTemplate redis;
  private final RealtimeKeys keys;

  LiveFamilyStore(StringRedisTemplate redis, RealtimeKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  /**
   * An item as the family places it: its rank key (null: it leaves every segment), the item version
   * its labels were read at, and its segments.
   */
  record Placed(
      long itemId,
      long createdAtMillis,
      @Nullable Double key,
      long version,
      Set<String> segments) {}

  /**
   * What a look at a family (live or window) found: whether it has data, and the segments changed
   * since.
   */
  record Taken(boolean hasData, List<String> changed) {}

  /** One segment's best members, and whether its set was ever trimmed (it has a floor). */
  record SegmentTop(boolean trimmed, List<LiveStore.Ranked> ranked) {}

  /** The mode of {@code live-family-apply.lua}. */
  enum Mode {
    FOLD(""),
    CURRENT("current"),
    REMOVE("remove");

    private final String arg;

    Mode(String arg) {
      this.arg = arg;
    }
  }

  /**
   * Places items in their segments (see {@code live-family-apply.lua} for the modes and answers),
   * {@link #PART} items per script.
   *
   * @param previous the fold the family must have applied before; null for a catch-up (which is
   *     written in one script: a larger one passes the fold it started from)
   * @param visible how many members of a segment its publish shows: a change below them leaves the
   *     segment unchanged
   */
  String apply(
      BoardDefinition board,
      Mode mode,
      long foldNo,
      @Nullable Long previous,
      int keep,
      int visible,
      long windowStartMillis,
      Collection<Placed> items) {
    if (items.size() <= PART) {
      return run(board, mode.arg, foldNo, previous, keep, visible, windowStartMillis, items);
    }
    // In parts, so that no script holds Redis for long (a catch-up after a rebuild may place
    // hundreds of thousands of items): a fold's parts are written while the family still holds
    // the previous fold, its last part records it.
    List<Placed> all = List.copyOf(items);
    String outcome = "";
    for (int from = 0; from < all.size(); from += PART) {
      List<Placed> part = all.subList(from, Math.min(all.size(), from + PART));
      boolean last = from + PART >= all.size();
      String partMode = mode == Mode.FOLD && !last ? "part" : mode.arg;
      outcome = run(board, partMode, foldNo, previous, keep, visible, windowStartMillis, part);
      if (partMode.equals("part") && !outcome.equals("written")) {
        return outcome;
      }
    }
    return outcome;
  }

  /** Items per script at most. */
  static final int PART = 1_000;

  private String run(
      BoardDefinition board,
      String mode,
      long foldNo,
      @Nullable Long previous,
      int keep,
      int visible,
      long windowStartMillis,
      Collection<Placed> items) {
    String base = base(board);
    List<String> args = new ArrayList<>(7 + 8 * items.size());
    args.add(Long.toString(foldNo));
    args.add(previous == null ? "" : Long.toString(previous));
    args.add(mode);
    args.add(Integer.toString(keep));
    args.add(Long.toString(windowStartMillis));
    args.add(TTL);
    args.add(segmentPrefix(base));
    args.add(Integer.toString(visible));
    for (Placed item : items) {
      args.add(LiveStore.member(item.itemId(), item.createdAtMillis()));
      args.add(item.key() == null ? "" : Double.toString(item.key()));
      args.add(Long.toString(item.createdAtMillis()));
      args.add(Long.toString(item.version()));
      args.add(Integer.toString(item.segments().size()));
      args.addAll(item.segments());
    }
    return redis.execute(APPLY, familyKeys(base), args.toArray());
  }

  /**
   * Lets members older than the window leave, records {@code keep}, and takes at most {@code max}
   * segments changed since the last look.
   */
  Taken take(BoardDefinition board, long windowStartMillis, int keep, int visible, int max) {
    return take(board, windowStartMillis, keep, visible, max, List.of());
  }

  /**
   * As {@link #take(BoardDefinition, long, int, int, int)}, taking those of {@code first} that
   * changed before the others (the segments read lately).
   */
  Taken take(
      BoardDefinition board,
      long windowStartMillis,
      int keep,
      int visible,
      int max,
      List<String> first) {
    String base = base(board);
    List<String> keys = new ArrayList<>(familyKeys(base));
    keys.add(base + ":sweep");
    keys.add(base + ":publishing");
    List<String> args = new ArrayList<>(6 + first.size());
    args.add(Long.toString(windowStartMillis));
    args.add(TTL);
    args.add(Integer.toString(keep));
    args.add(segmentPrefix(base));
    args.add(Integer.toString(max));
    args.add(Integer.toString(visible));
    args.addAll(first);
    return taken(redis.execute(TAKE, keys, args.toArray()));
  }

  /** A take script's reply: {applied or '', segment...} (also a window family's). */
  static Taken taken(@Nullable List<?> reply) {
    if (reply == null || reply.isEmpty() || "".equals(reply.getFirst().toString())) {
      return new Taken(false, List.of());
    }
    List<String> changed = new ArrayList<>(reply.size() - 1);
    for (int i = 1; i < reply.size(); i++) {
      changed.add(reply.get(i).toString());
    }
    return new Taken(true, changed);
  }

  /** The segments the last {@link #take} took are published: they need not be taken again. */
  void published(BoardDefinition board) {
    redis.delete(base(board) + ":publishing");
  }

  /** Marks segments changed again (a look that took them failed to publish them). */
  void changed(BoardDefinition board, Collection<String> segments) {
    if (!segments.isEmpty()) {
      redis.opsForSet().add(base(board) + ":dirty", segments.toArray(String[]::new));
    }
  }

  /**
   * The best members of each segment, as many as asked per segment; null when the family holds no
   * data.
   */
  @Nullable Map<String, SegmentTop> top(BoardDefinition board, Map<String, Integer> wanted) {
    String base = base(board);
    List<String> args = new ArrayList<>(1 + 2 * wanted.size());
    args.add(segmentPrefix(base));
    wanted.forEach(
        (segment, limit) -> {
          args.add(segment);
          args.add(Integer.toString(limit));
        });
    List<?> reply = redis.execute(TOP, List.of(base + ":applied"), args.toArray());
    if (reply == null || reply.isEmpty() || "".equals(reply.getFirst().toString())) {
      return null;
    }
    Map<String, SegmentTop> tops = new LinkedHashMap<>();
    int i = 1;
    for (String segment : wanted.keySet()) {
      boolean trimmed = !"".equals(reply.get(i).toString());
      int n = Integer.parseInt(reply.get(i + 1).toString());
      i += 2;
      List<LiveStore.Ranked> ranked = new ArrayList<>(n);
      for (int m = 0; m < n; m++, i += 2) {
        String member = reply.get(i).toString();
        ranked.add(
            new LiveStore.Ranked(
                Long.parseLong(member.substring(13)),
                Long.parseLong(member.substring(0, 13)),
                Double.parseDouble(reply.get(i + 1).toString())));
      }
      tops.put(segment, new SegmentTop(trimmed, ranked));
    }
    return tops;
  }

  /** Forgets which fold the family applied: folds stop changing it until a rebuild loads it. */
  void forget(BoardDefinition board) {
    redis.delete(base(board) + ":applied");
  }

  /** Empties the family before a rebuild loads it: see {@code live-family-clear.lua}. */
  long clear(BoardDefinition board) {
    String base = base(board);
    Long cleared = redis.execute(CLEAR, familyKeys(base), segmentPrefix(base));
    return cleared == null ? 0 : cleared;
  }

  /** One segment as a rebuild computed it: its members best first, and its floor or "". */
  record Loaded(String floor, List<Placed> members) {}

  /** Loads rebuilt segments (after {@link #clear}, before {@link #start}). */
  void load(BoardDefinition board, Map<String, Loaded> segments) {
    String base = base(board);
    List<String> args = new ArrayList<>();
    args.add(segmentPrefix(base));
    args.add(TTL);
    segments.forEach(
        (segment, loaded) -> {
          args.add(segment);
          args.add(loaded.floor());
          args.add(Integer.toString(loaded.members().size()));
          for (Placed member : loaded.members()) {
            args.add(LiveStore.member(member.itemId(), member.createdAtMillis()));
            args.add(Double.toString(java.util.Objects.requireNonNull(member.key())));
            args.add(Long.toString(member.createdAtMillis()));
            args.add(Long.toString(member.version()));
          }
        });
    redis.execute(LOAD, familyKeys(base), args.toArray());
  }

  /** Starts a loaded family at {@code foldNo}: folds after it apply from then on. */
  void start(BoardDefinition board, long foldNo) {
    redis.opsForValue().set(base(board) + ":applied", Long.toString(foldNo), LiveStore.TTL);
  }

  /** The last fold applied, or null when the family holds no data. */
  @Nullable Long applied(BoardDefinition board) {
    String text = redis.opsForValue().get(base(board) + ":applied");
    return text == null ? null : Long.valueOf(text);
  }

  /** An item written while the family had no data: its id and createdAt. */
  record Pending(long itemId, long createdAtMillis) {}

  /** Takes the items placed or removed while the family had no data. */
  List<Pending> takePending(BoardDefinition board) {
    String key = base(board) + ":pending";
    Set<String> members = redis.opsForSet().members(key);
    if (members == null || members.isEmpty()) {
      return List.of();
    }
    redis.opsForSet().remove(key, members.toArray());
    return members.stream()
        .map(m -> new Pending(Long.parseLong(m.substring(13)), Long.parseLong(m.substring(0, 13))))
        .toList();
  }

  /** Every segment written since the family's last rebuild (some may have emptied since). */
  Set<String> segments(BoardDefinition board) {
    Set<String> members = redis.opsForSet().members(base(board) + ":segs");
    return members == null ? Set.of() : members;
  }

  private String base(BoardDefinition board) {
    return keys.liveFamily(board, LiveStore.fingerprint(board));
  }

  private static String segmentPrefix(String base) {
    return base + ":s:";
  }

  private static List<String> familyKeys(String base) {
    return List.of(
        base + ":applied",
        base + ":keep",
        base + ":pending",
        base + ":dirty",
        base + ":created",
        base + ":where",
        base + ":segs");
  }
}
