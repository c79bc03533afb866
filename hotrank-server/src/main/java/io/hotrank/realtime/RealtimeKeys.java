package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;

/**
 * The Redis keys of realtime boards. Every key of one window board carries the hash tag {@code
 * {w:<board>}}, so its scripts run on one cluster slot. A leaderboard's shards carry {@code
 * {lb:<board>:<shard>}} each, deliberately on different slots, so one hot board spreads over the
 * cluster.
 *
 * <ul>
 *   <li>{@code <prefix>{w:<board>}:b:<bucket>} a bucket: item id to weighted events; expires once
 *       out of the window
 *   <li>{@code <prefix>{w:<board>}:snap} the merged completed buckets, trimmed
 *   <li>{@code <prefix>{w:<board>}:built} the last bucket the snapshot covers
 *   <li>{@code <prefix>{w:<board>}:applied} the last fold applied
 *   <li>{@code <prefix>{w:<board>}:replaying} set while the window is replayed from the log
 *   <li>{@code <prefix>{lb:<board>:<shard>}:z} a leaderboard shard: item id to counter value
 *   <li>{@code <prefix>{lb:<board>:<shard>}:applied} the last fold applied to the shard
 * </ul>
 */
record RealtimeKeys(String prefix) {

  String bucket(BoardDefinition board, long bucket) {
    return window(board) + ":b:" + bucket;
  }

  String snapshot(BoardDefinition board) {
    return window(board) + ":snap";
  }

  String built(BoardDefinition board) {
    return window(board) + ":built";
  }

  String replaying(BoardDefinition board) {
    return window(board) + ":replaying";
  }

  String windowApplied(BoardDefinition board) {
    return window(board) + ":applied";
  }

  /** A scratch key in the board's slot, unique to its caller. */
  String scratch(BoardDefinition board, String id) {
    return window(board) + ":tmp:" + id;
  }

  String shard(BoardDefinition board, int shard) {
    return leaderboard(board, shard) + ":z";
  }

  String shardApplied(BoardDefinition board, int shard) {
    return leaderboard(board, shard) + ":applied";
  }

  private String window(BoardDefinition board) {
    return prefix + "{w:" + board.name() + "}";
  }

  private String leaderboard(BoardDefinition board, int shard) {
    return prefix + "{lb:" + board.name() + ":" + shard + "}";
  }
}
