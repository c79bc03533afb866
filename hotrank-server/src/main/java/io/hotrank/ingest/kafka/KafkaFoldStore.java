package io.hotrank.ingest.kafka;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The one owner of {@code hr_kafka_position} and {@code hr_kafka_dead_letter}: where the folds
 * stand in each partition of a topic, and how many records went to the dead-letter topic by reason.
 * Every statement binds its parameters; callers own the transactions.
 *
 * <p>The fence: a fold moves a partition's position with {@code UPDATE ... WHERE position = <where
 * it started>} (or inserts the row, when the partition was never folded) and checks the row count,
 * in the transaction that applies the partition's records. Two folders of one partition (one that
 * lost it in a rebalance and has not noticed yet) cannot both commit a fold from the same position:
 * the second finds the position moved, rolls back, and seeks to the stored position.
 */
final class KafkaFoldStore {

  /** A partition's row. */
  record Position(int partition, long position, String owner, long updatedAt) {}

  private final JdbcTemplate jdbc;

  KafkaFoldStore(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /** The stored positions of the given partitions; a partition never folded is absent. */
  Map<Integer, Long> positions(String topic, Collection<Integer> partitions) {
    Map<Integer, Long> found = new HashMap<>();
    if (partitions.isEmpty()) {
      return found;
    }
    List<Object> args = new ArrayList<>();
    args.add(topic);
    String in = placeholders(partitions, args);
    jdbc.query(
        "SELECT part, position FROM hr_kafka_position WHERE topic = ? AND part IN (" + in + ")",
        rs -> {
          found.put(rs.getInt(1), rs.getLong(2));
        },
        args.toArray());
    return found;
  }

  /** Every partition's row of the topic, by partition. */
  List<Position> all(String topic) {
    return jdbc.query(
        "SELECT part, position, owner, updated_at FROM hr_kafka_position WHERE topic = ?"
            + " ORDER BY part",
        (rs, n) -> new Position(rs.getInt(1), rs.getLong(2), rs.getString(3), rs.getLong(4)),
        topic);
  }

  /**
   * Moves a partition's position from {@code from} to {@code to}; inside the fold's transaction.
   *
   * @param from where the fold started: the stored position, or null when the partition has no row
   * @return false when the stored position is not {@code from} (another folder moved it): the
   *     caller rolls back
   */
  boolean move(String topic, int partition, @Nullable Long from, long to, String owner, long now) {
    if (from == null) {
      // Never folded: the row is inserted; a second folder doing the same fails on the key.
      jdbc.update(
          "INSERT INTO hr_kafka_position (topic, part, position, owner, updated_at)"
              + " VALUES (?, ?, ?, ?, ?)",
          topic,
          partition,
          to,
          owner,
          now);
      return true;
    }
    return jdbc.update(
            "UPDATE hr_kafka_position SET position = ?, owner = ?, updated_at = ?"
                + " WHERE topic = ? AND part = ? AND position = ?",
            to,
            owner,
            now,
            topic,
            partition,
            from)
        == 1;
  }

  /**
   * Stores a partition's first position unless one is stored already (autocommitted).
   *
   * @return the stored position: {@code position}, or the one another folder stored first
   */
  long insertIfAbsent(String topic, int partition, long position, String owner, long now) {
    Map<Integer, Long> stored = positions(topic, List.of(partition));
    if (stored.containsKey(partition)) {
      return stored.get(partition);
    }
    try {
      move(topic, partition, null, position, owner, now);
      return position;
    } catch (DuplicateKeyException e) {
      return positions(topic, List.of(partition)).get(partition);
    }
  }

  /**
   * Makes a zero count of every reason, so that folds only ever update the counts (two folds
   * inserting a reason's first count at once would collide).
   */
  void seedDeadLetterCounts(String topic, List<String> reasons) {
    Map<String, Long> existing = deadLetters(topic);
    for (String reason : reasons) {
      if (!existing.containsKey(reason)) {
        try {
          jdbc.update(
              "INSERT INTO hr_kafka_dead_letter (topic, reason, n) VALUES (?, ?, 0)",
              topic,
              reason);
        } catch (DuplicateKeyException e) {
          // another instance seeded it
        }
      }
    }
  }

  /**
   * Adds dead letters to the counts by reason, in the map's order (sorted, so that two folds lock
   * the rows in one order); inside the fold's transaction.
   */
  void countDeadLetters(String topic, Map<String, Integer> byReason) {
    byReason.forEach(
        (reason, n) -> {
          int updated =
              jdbc.update(
                  "UPDATE hr_kafka_dead_letter SET n = n + ? WHERE topic = ? AND reason = ?",
                  n,
                  topic,
                  reason);
          if (updated == 0) {
            jdbc.update(
                "INSERT INTO hr_kafka_dead_letter (topic, reason, n) VALUES (?, ?, ?)",
                topic,
                reason,
                n);
          }
        });
  }

  /** The dead letters sent so far, by reason (those never seen are absent). */
  Map<String, Long> deadLetters(String topic) {
    Map<String, Long> counts = new LinkedHashMap<>();
    jdbc.query(
        "SELECT reason, n FROM hr_kafka_dead_letter WHERE topic = ? AND n > 0 ORDER BY reason",
        rs -> {
          counts.put(rs.getString(1), rs.getLong(2));
        },
        topic);
    return counts;
  }

  /** A parked record: one of an item that did not exist when it was folded. */
  record Parked(
      int partition,
      long offset,
      long timestamp,
      @Nullable String key,
      String value,
      long parkedAt) {}

  /**
   * The longest key kept with a parked record; a longer one is dropped (it only names the item).
   */
  static final int MAX_KEY = 400;

  /**
   * A key as kept with a parked record: none when too long or not text PostgreSQL stores (a NUL
   * from a binary key); it only names the item, which the value names too.
   */
  private static @Nullable String storableKey(@Nullable String key) {
    return key == null || key.length() > MAX_KEY || key.indexOf('\u0000') >= 0 ? null : key;
  }

  /** Parks records; inside the fold's transaction. */
  void park(String topic, List<Parked> records) {
    jdbc.batchUpdate(
        "INSERT INTO hr_kafka_parked"
            + " (topic, part, record_offset, record_ts, record_key, record_value, parked_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?)",
        records.stream()
            .map(
                r ->
                    new Object[] {
                      topic,
                      r.partition(),
                      r.offset(),
                      r.timestamp(),
                      storableKey(r.key()),
                      r.value(),
                      r.parkedAt()
                    })
            .toList());
  }

  /**
   * Locks and reads up to {@code limit} parked records of the given partitions, the oldest first
   * (so that records parked later wait at most a grace behind them, whatever a busy partition
   * parks); inside the transaction that folds or drops them.
   */
  List<Parked> lockParked(String topic, Collection<Integer> partitions, int limit) {
    if (partitions.isEmpty()) {
      return List.of();
    }
    List<Object> args = new ArrayList<>();
    args.add(topic);
    String in = placeholders(partitions, args);
    args.add(limit);
    return jdbc.query(
        "SELECT part, record_offset, record_ts, record_key, record_value, parked_at"
            + " FROM hr_kafka_parked WHERE topic = ? AND part IN ("
            + in
            + ") ORDER BY parked_at, part, record_offset LIMIT ? FOR UPDATE",
        (rs, n) ->
            new Parked(
                rs.getInt(1),
                rs.getLong(2),
                rs.getLong(3),
                rs.getString(4),
                rs.getString(5),
                rs.getLong(6)),
        args.toArray());
  }

  /**
   * Deletes parked records that were folded or dropped; inside that transaction.
   *
   * @return false when one of them was gone already (another folder took it): the caller rolls back
   */
  boolean unpark(String topic, List<Parked> records) {
    // One statement per partition, whose row count every driver reports (a JDBC batch's counts
    // may be "unknown" on MariaDB's rewritten batches).
    Map<Integer, List<Long>> byPartition = new TreeMap<>();
    records.forEach(
        r -> byPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r.offset()));
    for (Map.Entry<Integer, List<Long>> e : byPartition.entrySet()) {
      List<Object> args = new ArrayList<>(List.of(topic, e.getKey()));
      String in = placeholders(e.getValue(), args);
      int deleted =
          jdbc.update(
              "DELETE FROM hr_kafka_parked WHERE topic = ? AND part = ? AND record_offset IN ("
                  + in
                  + ")",
              args.toArray());
      if (deleted != e.getValue().size()) {
        return false;
      }
    }
    return true;
  }

  /** How many records are parked. */
  long parkedCount(String topic) {
    Long n =
        jdbc.queryForObject(
            "SELECT COUNT(*) FROM hr_kafka_parked WHERE topic = ?", Long.class, topic);
    return n == null ? 0 : n;
  }

  /** {@code ?, ?, ...}, one per value, each value added to {@code args}. */
  private static String placeholders(Collection<?> values, List<Object> args) {
    StringBuilder in = new StringBuilder();
    for (Object value : values) {
      in.append(in.isEmpty() ? "?" : ", ?");
      args.add(value);
    }
    return in.toString();
  }
}
