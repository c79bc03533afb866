package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.SegmentBy;
import io.hotrank.redis.LuaScripts;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A live board in Redis: a sorted set of items by their time-invariant rank key, bounded to {@code
 * keep} members, with the floor below which it stops knowing every item (see {@code
 * live-apply.lua}).
 *
 * <p>The keys carry a fingerprint of the board's definition (biz, formula with its weights and
 * half-life, window, size): an instance started with a changed definition finds no data under its
 * keys and rebuilds, while instances still on the old definition keep theirs until they stop; keys
 * nobody writes or reads expire after {@link #TTL}.
 */
final class LiveStore {

  /** How long a live board's keys outlive the last write or read. */
  static final Duration TTL = Duration.ofDays(1);

  private static final RedisScript<String> APPLY = LuaScripts.load("live-apply.lua", String.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> TOP = LuaScripts.load("live-top.lua", List.class);

  private final StringRedisTemplate redis;
  private final RealtimeKeys keys;

  LiveStore(StringRedisTemplate redis, RealtimeKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  /** One item's rank key, or a removal ({@code key} null: deleted). */
  record Keyed(long itemId, long createdAtMillis, @Nullable Double key) {}

  /** A member of the rank set: the item and its key. */
  record Ranked(long itemId, long createdAtMillis, double key) {}

  /** What a read found: whether the board has data, whether it was ever trimmed, its top. */
  record Top(boolean hasData, boolean trimmed, List<Ranked> ranked) {}

  /**
   * The member of an item: createdAt in 13 digits then the id in 16 (ids are below 2^53), so that
   * members of equal key sort, read backwards, as the boards break ties: newer first, then the
   * larger id.
   */
  static String member(long itemId, long createdAtMillis) {
    return String.format(Locale.ROOT, "%013d%016d", createdAtMillis, itemId);
  }

  /**
   * Writes rank keys, removes what leaves and trims, in one script.
   *
   * @param previous the fold the board must have applied before, or null for a catch-up that writes
   *     current values whatever it holds
   * @param rebuildFloor non-null for a rebuild, which replaces the board: the key and member of the
   *     best item it left out, or {@code ""} when it left none out
   * @return {@code applied}, {@code done}, or {@code behind:<applied>} (nothing changed)
   */
  String apply(
      BoardDefinition board,
      long foldNo,
      @Nullable Long previous,
      @Nullable String rebuildFloor,
      int keep,
      long windowStartMillis,
      List<Keyed> items) {
    return run(
        board,
        foldNo,
        previous,
        rebuildFloor == null ? "" : "replace",
        keep,
        windowStartMillis,
        rebuildFloor,
        items);
  }

  /**
   * Adds items no fold has changed yet (just created), unless present, where they rank above the
   * floor: only while the board has applied no fold after {@code lastFoldNo}, the last committed
   * before their counters were read, since a later one may have changed them.
   *
   * @return {@code admitted}, {@code moved} (read the counters again) or {@code none} (no data)
   */
  String admit(
      BoardDefinition board, long lastFoldNo, int keep, long windowStartMillis, List<Keyed> items) {
    return run(board, lastFoldNo, null, "admit", keep, windowStartMillis, null, items);
  }

  private String run(
      BoardDefinition board,
      long foldNo,
      @Nullable Long previous,
      String mode,
      int keep,
      long windowStartMillis,
      @Nullable String rebuildFloor,
      List<Keyed> items) {
    List<String> args = new ArrayList<>(7 + 3 * items.size());
    args.add(Long.toString(foldNo));
    args.add(previous == null ? "" : Long.toString(previous));
    args.add(mode);
    args.add(Integer.toString(keep));
    args.add(Long.toString(windowStartMillis));
    args.add(Long.toString(TTL.toMillis()));
    args.add(rebuildFloor == null ? "" : rebuildFloor);
    for (Keyed item : items) {
      args.add(member(item.itemId(), item.createdAtMillis()));
      args.add(item.key() == null ? "" : Double.toString(item.key()));
      args.add(Long.toString(item.createdAtMillis()));
    }
    return redis.execute(APPLY, keys(board), args.toArray());
  }

  /** The floor text of a rebuild that left {@code best} out, as the script stores it. */
  static String floor(Ranked best) {
    return Double.toString(best.key()) + " " + member(best.itemId(), best.createdAtMillis());
  }

  /**
   * Reads the best {@code limit} members, after letting those created before the window go, and
   * records {@code keep} as the size every instance's folds keep the set to.
   */
  Top top(BoardDefinition board, long windowStartMillis, int limit, int keep) {
    List<?> reply =
        redis.execute(
            TOP,
            keys(board),
            Long.toString(windowStartMillis),
            Integer.toString(limit),
            Long.toString(TTL.toMillis()),
            Integer.toString(keep));
    if (reply == null || reply.size() < 2 || "".equals(reply.get(0).toString())) {
      return new Top(false, false, List.of());
    }
    List<Ranked> ranked = new ArrayList<>((reply.size() - 2) / 2);
    for (int i = 2; i + 1 < reply.size(); i += 2) {
      String member = reply.get(i).toString();
      ranked.add(
          new Ranked(
              Long.parseLong(member.substring(13)),
              Long.parseLong(member.substring(0, 13)),
              Double.parseDouble(reply.get(i + 1).toString())));
    }
    return new Top(true, !"".equals(reply.get(1).toString()), ranked);
  }

  /**
   * Forgets which fold the board applied: folds stop changing it and its next publish rebuilds it
   * (asked by an operator, or after the folder fell too far behind to catch up).
   */
  void forget(BoardDefinition board) {
    redis.delete(keys.liveApplied(board, fingerprint(board)));
  }

  /** Removes deleted items' members (a deleted item is never folded again). */
  void remove(BoardDefinition board, List<Ranked> gone) {
    String fingerprint = fingerprint(board);
    String[] members =
        gone.stream().map(r -> member(r.itemId(), r.createdAtMillis())).toArray(String[]::new);
    redis.opsForZSet().remove(keys.liveRank(board, fingerprint), (Object[]) members);
    redis.opsForZSet().remove(keys.liveCreated(board, fingerprint), (Object[]) members);
  }

  /**
   * Takes the items created while the board had no data (see {@code live-apply.lua}): ids and
   * createdAt, as {@link Keyed} without a key.
   */
  List<Keyed> takePending(BoardDefinition board) {
    String key = keys.livePending(board, fingerprint(board));
    java.util.Set<String> members = redis.opsForSet().members(key);
    if (members == null || members.isEmpty()) {
      return List.of();
    }
    redis.opsForSet().remove(key, members.toArray());
    return members.stream()
        .map(
            m ->
                new Keyed(
                    Long.parseLong(m.substring(13)), Long.parseLong(m.substring(0, 13)), null))
        .toList();
  }

  /** The last fold applied, or null when the board holds none. */
  @Nullable Long applied(BoardDefinition board) {
    String text = redis.opsForValue().get(keys.liveApplied(board, fingerprint(board)));
    return text == null ? null : Long.valueOf(text);
  }

  private List<String> keys(BoardDefinition board) {
    String fingerprint = fingerprint(board);
    return List.of(
        keys.liveRank(board, fingerprint),
        keys.liveCreated(board, fingerprint),
        keys.liveFloor(board, fingerprint),
        keys.liveApplied(board, fingerprint),
        keys.liveKeep(board, fingerprint),
        keys.livePending(board, fingerprint));
  }

  /**
   * What a live board's content depends on, hashed: its biz, formula, window and size, and what
   * splits a family into segments.
   */
  static String fingerprint(BoardDefinition board) {
    String definition =
        board.biz() + "|" + board.score() + "|" + board.window() + "|" + board.size();
    SegmentBy segmentBy = board.segmentBy();
    if (segmentBy != null) {
      definition += "|" + segmentBy.configName() + "|" + board.kind();
    }
    SegmentBy scaleBy = board.scaleBy();
    if (scaleBy != null) {
      definition += "|scale:" + scaleBy.configName() + "|" + board.kind();
    }
    if (board.kind() instanceof io.hotrank.board.BoardKind.Leaderboard
        && board.trust() == BoardDefinition.Trust.TRUSTED) {
      // A leaderboard family's sets hold its counter's value, raw or in thousandths of trusted.
      definition += "|trusted";
    }
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(definition.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
