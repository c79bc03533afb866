package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardKind;
import io.hotrank.ingest.FoldedEvent;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.item.Counters;
import io.hotrank.redis.LuaScripts;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A window board in Redis: per-bucket sorted sets of weighted events, a snapshot of the completed
 * buckets built once per bucket, and reads that merge the snapshot with the buckets after it.
 *
 * <p>Buckets are aligned to the epoch: bucket {@code k} holds the events whose time lies in {@code
 * [k * bucket, (k + 1) * bucket)}. With a half-life {@code h}, a bucket {@code a} buckets older
 * than the current one weighs {@code 2^(-a * bucket / h)}; without one every bucket weighs 1. The
 * board covers the current bucket and the {@code window / bucket - 1} before it (until a build
 * catches up after a bucket ends, one more).
 */
final class WindowStore implements WindowData, WindowBuckets {

  /** An event this far ahead of the clock still counts (the API accepts 5 minutes of skew). */
  static final long FUTURE_MILLIS = 5 * 60_000;

  /** One event of a board's biz as a window counts it. */
  @FunctionalInterface
  interface Weighed {
    /**
     * @param step the interactions it counts (-1 for an undo)
     * @param inWindow whether its bucket is in the window or at most {@link #FUTURE_MILLIS} ahead
     *     of the clock; it counts on the board when it also has a weight
     */
    void event(long itemId, long bucket, double weight, int step, boolean inWindow);
  }

  /**
   * Hands each event of the board's biz to {@code each}, with its bucket and weight: the board's
   * weight of its type times its step (by raw interactions) or times the interactions' worth of
   * trusted weight the fold gave it (by trusted weight, the default: an event of a new actor adds a
   * fifth, a like a flag took back takes its weight out again). Its step counts the raw
   * interactions only (0 for an event that moved the trusted counter alone).
   */
  static void weigh(BoardDefinition board, List<FoldedEvent> events, long nowMillis, Weighed each) {
    long oldest = bucketOf(board, nowMillis) - buckets(board) + 1;
    long newest = bucketOf(board, nowMillis + FUTURE_MILLIS);
    boolean trusted = board.trust() == BoardDefinition.Trust.TRUSTED;
    for (FoldedEvent f : events) {
      LoggedEvent e = f.event();
      if (!e.biz().equals(board.biz())) {
        continue;
      }
      int step = f.raw() ? e.type().step() : 0;
      double weight =
          board.weights().weight(e.type().counter())
              * (trusted ? f.trusted() / (double) Counters.TRUSTED_UNIT : step);
      long bucket = bucketOf(board, e.atMillis());
      each.event(e.itemId(), bucket, weight, step, bucket >= oldest && bucket <= newest);
    }
  }

  private static final RedisScript<String> APPLY =
      LuaScripts.load("window-apply.lua", String.class);
  private static final RedisScript<Long> BUILD = LuaScripts.load("window-build.lua", Long.class);
  private static final RedisScript<Long> RESET = LuaScripts.load("window-reset.lua", Long.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> TOP = LuaScripts.load("window-top.lua", List.class);

  private final StringRedisTemplate redis;
  private final RealtimeKeys keys;

  WindowStore(StringRedisTemplate redis, RealtimeKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  static long bucketOf(BoardDefinition board, long millis) {
    return Math.floorDiv(millis, window(board).bucket().toMillis());
  }

  /** The weight of a bucket {@code age} buckets older than the reference one. */
  static double decay(BoardDefinition board, long age) {
    BoardKind.Window window = window(board);
    if (window.halfLife() == null) {
      return 1;
    }
    return Math.pow(2, -(double) age * window.bucket().toMillis() / window.halfLife().toMillis());
  }

  private static BoardKind.Window window(BoardDefinition board) {
    return board.kind(BoardKind.Window.class);
  }

  private static int buckets(BoardDefinition board) {
    return window(board).buckets(board.window());
  }

  @Override
  public String apply(
      BoardDefinition board,
      long foldNo,
      @Nullable Long previous,
      List<FoldedEvent> events,
      long nowMillis,
      int keep) {
    Map<Long, Map<String, Double>> byBucket = new TreeMap<>();
    weigh(
        board,
        events,
        nowMillis,
        (itemId, bucket, weight, step, inWindow) -> {
          if (inWindow && weight != 0) {
            byBucket
                .computeIfAbsent(bucket, b -> new TreeMap<>())
                .merge(Long.toString(itemId), weight, Double::sum);
          }
        });
    List<String> scriptKeys = new ArrayList<>();
    scriptKeys.add(keys.windowApplied(board));
    scriptKeys.add(keys.snapshot(board));
    scriptKeys.add(keys.built(board));
    List<String> args = new ArrayList<>();
    args.add(Long.toString(foldNo));
    args.add(previous == null ? "" : Long.toString(previous));
    BoardKind.Window window = window(board);
    long bucketMillis = window.bucket().toMillis();
    args.add(
        window.halfLife() == null
            ? "0"
            : Double.toString((double) bucketMillis / window.halfLife().toMillis()));
    args.add(Integer.toString(keep));
    byBucket.forEach(
        (bucket, deltas) -> {
          scriptKeys.add(keys.bucket(board, bucket));
          args.add(Long.toString(bucket));
          // Kept one bucket past the window, for the snapshot build that follows its end.
          args.add(Long.toString((bucket + 2) * bucketMillis + board.window().toMillis()));
          args.add(Integer.toString(deltas.size()));
          deltas.forEach(
              (member, delta) -> {
                args.add(member);
                args.add(Double.toString(delta));
              });
        });
    return redis.execute(APPLY, scriptKeys, args.toArray());
  }

  /** Builds the snapshot (trimmed to {@code keep}) unless a build covering its buckets is live. */
  @Override
  public long build(BoardDefinition board, long nowMillis, int keep) {
    long last = bucketOf(board, nowMillis) - 1;
    List<String> scriptKeys = new ArrayList<>();
    scriptKeys.add(keys.snapshot(board));
    scriptKeys.add(keys.built(board));
    scriptKeys.add(keys.scratch(board, UUID.randomUUID().toString()));
    List<String> args = new ArrayList<>();
    args.add(Long.toString(last));
    args.add(Integer.toString(keep));
    for (long bucket = last - buckets(board) + 2; bucket <= last; bucket++) {
      scriptKeys.add(keys.bucket(board, bucket));
      args.add(Double.toString(decay(board, last - bucket)));
    }
    Long size = redis.execute(BUILD, scriptKeys, args.toArray());
    return size == null ? -1 : size;
  }

  /** The best {@code limit} items of the window now, best first. */
  List<Scored> top(BoardDefinition board, long nowMillis, int limit) {
    long current = bucketOf(board, nowMillis);
    for (int attempt = 0; ; attempt++) {
      String builtText = redis.opsForValue().get(keys.built(board));
      Long built = builtText == null ? null : Long.valueOf(builtText);
      long from = current - buckets(board) + 1;
      if (built != null) {
        from = Math.max(from, built + 1);
      }
      List<String> scriptKeys = new ArrayList<>();
      scriptKeys.add(keys.snapshot(board));
      scriptKeys.add(keys.built(board));
      scriptKeys.add(keys.scratch(board, UUID.randomUUID().toString()));
      List<String> args = new ArrayList<>();
      args.add(builtText == null ? "" : builtText);
      args.add(Integer.toString(limit));
      args.add(built == null ? "0" : Double.toString(decay(board, current - built)));
      for (long bucket = from; bucket <= current; bucket++) {
        scriptKeys.add(keys.bucket(board, bucket));
        args.add(Double.toString(decay(board, current - bucket)));
      }
      List<?> reply = redis.execute(TOP, scriptKeys, args.toArray());
      if (reply != null && reply.size() == 1 && "moved".equals(reply.getFirst())) {
        if (attempt < 3) {
          continue; // a build swapped in between the two reads
        }
        throw new IllegalStateException("window board " + board.name() + " kept moving");
      }
      return scored(reply);
    }
  }

  /**
   * As {@link #top} reads the item: the snapshot of the completed buckets (the buckets it covers
   * one by one while Redis still holds them all and they add up to it, else as one merged part),
   * then each bucket after it.
   */
  @Override
  public @Nullable List<Bucket> buckets(
      BoardDefinition board, @Nullable String segment, long itemId, Instant at) {
    if (segment != null) {
      return null;
    }
    long current = bucketOf(board, at.toEpochMilli());
    long first = current - buckets(board) + 1;
    String member = Long.toString(itemId);
    String builtText = redis.opsForValue().get(keys.built(board));
    Long built = builtText == null ? null : Long.valueOf(builtText);
    Double merged = built == null ? null : redis.opsForZSet().score(keys.snapshot(board), member);
    List<Object> scores =
        redis.executePipelined(
            (RedisCallback<Object>)
                connection -> {
                  for (long bucket = first; bucket <= current; bucket++) {
                    connection
                        .zSetCommands()
                        .zScore(
                            keys.bucket(board, bucket).getBytes(StandardCharsets.UTF_8),
                            member.getBytes(StandardCharsets.UTF_8));
                  }
                  return null;
                });
    long bucketMillis = window(board).bucket().toMillis();
    List<Bucket> each = new ArrayList<>();
    double covered = 0;
    for (int i = 0; i < scores.size(); i++) {
      long bucket = first + i;
      if (scores.get(i) instanceof Double events && events != 0) {
        each.add(
            new Bucket(
                Instant.ofEpochMilli(bucket * bucketMillis),
                Instant.ofEpochMilli((bucket + 1) * bucketMillis),
                events,
                decay(board, current - bucket)));
        if (built != null && bucket <= built) {
          covered += events * decay(board, built - bucket);
        }
      }
    }
    if (built == null) {
      return each;
    }
    double snapshot = merged == null ? 0 : merged;
    if (Math.abs(covered - snapshot) <= 1e-9 * Math.max(Math.abs(covered), Math.abs(snapshot))) {
      return each; // the snapshot is the buckets it covers, which Redis still holds
    }
    List<Bucket> read = new ArrayList<>();
    if (merged != null && merged != 0) {
      read.add(
          new Bucket(
              Instant.ofEpochMilli(Math.max(first, built - buckets(board) + 2) * bucketMillis),
              Instant.ofEpochMilli((built + 1) * bucketMillis),
              merged,
              decay(board, current - built)));
    }
    for (Bucket bucket : each) {
      if (bucket.start().toEpochMilli() / bucketMillis > built) {
        read.add(bucket);
      }
    }
    return read;
  }

  static List<Scored> scored(@Nullable List<?> reply) {
    List<Scored> top = new ArrayList<>();
    if (reply == null) {
      return top;
    }
    for (int i = 0; i + 1 < reply.size(); i += 2) {
      top.add(
          new Scored(
              Long.parseLong(reply.get(i).toString()),
              Double.parseDouble(reply.get(i + 1).toString())));
    }
    return top;
  }

  @Override
  public @Nullable Long applied(BoardDefinition board) {
    String text = redis.opsForValue().get(keys.windowApplied(board));
    return text == null ? null : Long.valueOf(text);
  }

  @Override
  public void reset(BoardDefinition board, long nowMillis) {
    long current = bucketOf(board, nowMillis);
    List<String> all = new ArrayList<>();
    all.add(keys.windowApplied(board));
    all.add(keys.snapshot(board));
    all.add(keys.built(board));
    all.add(keys.replaying(board));
    long newest = bucketOf(board, nowMillis + FUTURE_MILLIS);
    for (long bucket = current - buckets(board) - 2; bucket <= newest; bucket++) {
      all.add(keys.bucket(board, bucket));
    }
    redis.execute(RESET, all);
  }

  @Override
  public void replaying(BoardDefinition board, boolean on, Duration ttl) {
    if (on) {
      redis.opsForValue().set(keys.replaying(board), "1", ttl);
    } else {
      redis.delete(keys.replaying(board));
    }
  }

  @Override
  public boolean isReplaying(BoardDefinition board) {
    return Boolean.TRUE.equals(redis.hasKey(keys.replaying(board)));
  }
}
