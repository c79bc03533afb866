package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardKind;
import io.hotrank.core.topn.KWayMerge;
import io.hotrank.redis.LuaScripts;
import io.hotrank.redis.RedisRound;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScoredValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A leaderboard in Redis: {@code shards} sorted sets of item id to the item's absolute counter
 * value, an item in shard {@code itemId mod shards}, each trimmed to {@code keep} members.
 *
 * <p>Values are absolute (the counter after the fold), written by a script guarded by the fold
 * number, so a replayed fold changes nothing, an item trimmed out re-enters with its true value,
 * and an unlike lowers it. There is no {@code EXISTS}-then-backfill and no {@code ZINCRBY} to
 * drift. Trimming forgets the tail: an item below the top {@code keep} of its shard whose value
 * later exceeds a member lowered by unlikes is missing until it changes again or the board is
 * rebuilt, which is why a shard keeps twice the board's size.
 */
final class LeaderboardStore {

  private static final RedisScript<String> APPLY =
      LuaScripts.load("leaderboard-apply.lua", String.class);

  /** Best first: higher value, then lower id (the board re-orders ties by createdAt later). */
  static final Comparator<Scored> BEST_FIRST =
      Comparator.comparingDouble(Scored::score).reversed().thenComparing(Scored::itemId);

  private static final Duration READ_TIMEOUT = Duration.ofSeconds(2);

  private final StringRedisTemplate redis;
  private final RedisRound round;
  private final RealtimeKeys keys;

  LeaderboardStore(StringRedisTemplate redis, RealtimeKeys keys) {
    this.redis = redis;
    this.round = new RedisRound(redis);
    this.keys = keys;
  }

  /**
   * Writes absolute values into one shard.
   *
   * @param previous the fold the shard must have applied before, or null for a catch-up that writes
   *     current values whatever it holds
   * @param replace whether to empty the shard first (a rebuild)
   * @return {@code applied}, {@code done}, or {@code behind:<applied>} (nothing changed)
   */
  String apply(
      BoardDefinition board,
      int shard,
      long foldNo,
      @Nullable Long previous,
      boolean replace,
      int keep,
      Map<Long, Long> values) {
    List<String> args = new ArrayList<>(4 + 2 * values.size());
    args.add(Long.toString(foldNo));
    args.add(previous == null ? "" : Long.toString(previous));
    args.add(replace ? "replace" : "");
    args.add(Integer.toString(keep));
    values.forEach(
        (id, value) -> {
          args.add(Long.toString(id));
          args.add(Long.toString(value));
        });
    return redis.execute(
        APPLY, List.of(keys.shard(board, shard), keys.shardApplied(board, shard)), args.toArray());
  }

  /**
   * The best {@code limit} items over all shards: the top of every shard read in one pipelined
   * round (every command in flight at once, each to its shard's node), merged k-way.
   */
  List<Scored> top(BoardDefinition board, int limit) {
    List<List<Scored>> runs = new ArrayList<>(leaderboard(board).shards());
    round.run(
        List.of(
            commands -> {
              List<RedisFuture<List<ScoredValue<byte[]>>>> futures = new ArrayList<>();
              for (int shard = 0; shard < leaderboard(board).shards(); shard++) {
                futures.add(
                    commands.zrevrangeWithScores(
                        RedisRound.bytes(keys.shard(board, shard)), 0, limit - 1));
              }
              return () -> {
                for (RedisFuture<List<ScoredValue<byte[]>>> future : futures) {
                  List<ScoredValue<byte[]>> values = RedisRound.await(future, READ_TIMEOUT);
                  List<Scored> run = new ArrayList<>(values.size());
                  for (ScoredValue<byte[]> v : values) {
                    run.add(
                        new Scored(Long.parseLong(RedisRound.text(v.getValue())), v.getScore()));
                  }
                  // Redis orders ties by member name ("9" after "10"); the merge needs runs in
                  // its order.
                  run.sort(BEST_FIRST);
                  runs.add(run);
                }
              };
            }));
    return KWayMerge.mergeTop(runs, BEST_FIRST, limit);
  }

  /** Removes deleted items from their shards (they are never folded again). */
  void remove(BoardDefinition board, Collection<Long> itemIds) {
    for (Long id : itemIds) {
      redis
          .opsForZSet()
          .remove(keys.shard(board, leaderboard(board).shardOf(id)), Long.toString(id));
    }
  }

  /** The last fold applied to each shard; null entries where a shard holds none. */
  List<@Nullable Long> applied(BoardDefinition board) {
    List<@Nullable Long> applied = new ArrayList<>();
    for (int shard = 0; shard < leaderboard(board).shards(); shard++) {
      String text = redis.opsForValue().get(keys.shardApplied(board, shard));
      applied.add(text == null ? null : Long.valueOf(text));
    }
    return applied;
  }

  private static BoardKind.Leaderboard leaderboard(BoardDefinition board) {
    return board.kind(BoardKind.Leaderboard.class);
  }
}
