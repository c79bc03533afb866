package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;

/**
 * The Redis keys of realtime boards. Every key of one window board carries the hash tag {@code
 * {w:<board>}}, and of one live board {@code {lv:<board>}}, so their scripts run on one cluster
 * slot. A leaderboard's shards carry {@code {lb:<board>:<shard>}} each ({@code lbt} for one by
 * trusted counters), deliberately on different slots, so one hot board spreads over the cluster.
 *
 * <ul>
 *   <li>{@code <prefix>{w:<board>}:b:<bucket>} a bucket: item id to weighted events; expires once
 *       out of the window
 *   <li>{@code <prefix>{w:<board>}:snap} the merged completed buckets, trimmed
 *   <li>{@code <prefix>{w:<board>}:built} the last bucket the snapshot covers
 *   <li>{@code <prefix>{w:<board>}:applied} the last fold applied
 *   <li>{@code <prefix>{w:<board>}:replaying} set while the window is replayed from the log
 *   <li>{@code <prefix>{lb:<board>:<shard>}:z} a leaderboard shard: item id to counter value
 *       ({@code {lbt:...}}: to the trusted counter's value, in thousandths)
 *   <li>{@code <prefix>{lb:<board>:<shard>}:applied} the last fold applied to the shard
 *   <li>{@code <prefix>{lv:<board>}:<definition>:rank} a live board: member to rank key, where the
 *       definition part is a fingerprint of what the keys depend on ({@code LiveStore})
 *   <li>{@code <prefix>{lv:<board>}:<definition>:created} member to createdAt
 *   <li>{@code <prefix>{lv:<board>}:<definition>:floor} the best member ever trimmed, with its key
 *   <li>{@code <prefix>{lv:<board>}:<definition>:applied} the last fold applied
 *   <li>{@code <prefix>{lv:<board>}:<definition>:keep} how many members the set keeps
 *   <li>{@code <prefix>{lv:<board>}:<definition>:pending} items created while it had no data
 *   <li>{@code <prefix>{lf:<board>}:<definition>:...} a live family of segment boards: its fold
 *       number, keep, pending, changed segments, members' createdAt and segments, and per segment
 *       {@code :s:<segment>:r} (its rank set) and {@code :s:<segment>:f} (its floor), all on the
 *       family's slot ({@code LiveFamilyStore})
 *   <li>{@code <prefix>{wf:<board>}:<definition>:<generation>:...} a window family: the family's
 *       buckets, fold number, members' segments and newest buckets, changed segments, and per
 *       segment its buckets, snapshot and built bucket, all on the family's slot ({@code
 *       WindowFamilyStore})
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

  String liveRank(BoardDefinition board, String fingerprint) {
    return live(board, fingerprint) + ":rank";
  }

  String liveCreated(BoardDefinition board, String fingerprint) {
    return live(board, fingerprint) + ":created";
  }

  String liveFloor(BoardDefinition board, String fingerprint) {
    return live(board, fingerprint) + ":floor";
  }

  String liveApplied(BoardDefinition board, String fingerprint) {
    return live(board, fingerprint) + ":applied";
  }

  String liveKeep(BoardDefinition board, String fingerprint) {
    return live(board, fingerprint) + ":keep";
  }

  String livePending(BoardDefinition board, String fingerprint) {
    return live(board, fingerprint) + ":pending";
  }

  /** The prefix of every key of a window family. */
  String windowFamily(BoardDefinition board, String fingerprint) {
    return prefix + "{wf:" + board.name() + "}:" + fingerprint;
  }

  /** The prefix of every key of a live family. */
  String liveFamily(BoardDefinition board, String fingerprint) {
    return prefix + "{lf:" + board.name() + "}:" + fingerprint;
  }

  private String live(BoardDefinition board, String fingerprint) {
    return prefix + "{lv:" + board.name() + "}:" + fingerprint;
  }

  private String window(BoardDefinition board) {
    return prefix + "{w:" + board.name() + "}";
  }

  /**
   * A leaderboard's shard: {@code lb} by the raw counter, {@code lbt} by the trusted one (in
   * thousandths), so that switching a board's {@code trust} finds no data and rebuilds it from the
   * database rather than mixing the two.
   */
  private String leaderboard(BoardDefinition board, int shard) {
    String kind = board.trust() == BoardDefinition.Trust.TRUSTED ? "lbt" : "lb";
    return prefix + "{" + kind + ":" + board.name() + ":" + shard + "}";
  }
}
