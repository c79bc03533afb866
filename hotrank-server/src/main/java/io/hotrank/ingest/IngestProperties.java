package io.hotrank.ingest;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the event path under {@code hotrank.ingest.*}.
 *
 * @param source where accepted events are kept and folded from: {@code log} (the SQL event log, the
 *     default) or {@code kafka} (a topic, {@link Kafka})
 * @param kafka the Kafka source's settings; the cluster itself is named by Boot's {@code
 *     spring.kafka.*}
 * @param folding whether this instance folds the event log on schedule ({@code event-fold}); off,
 *     it only accepts events, and folds on request ({@code POST /api/v1/admin/events/fold})
 * @param writers how many append transactions run at once; each appends every batch waiting when it
 *     starts (group commit), so a few are enough to keep the database busy
 * @param groupEvents the most events one multi-row INSERT appends (1000 to 6000)
 * @param queueEvents the most accepted-but-unwritten events held in memory; a batch that would pass
 *     it is refused with 503 and Retry-After
 * @param queueDelay a batch is refused with 503 and Retry-After when the oldest waiting batch has
 *     waited longer than this: the database is not keeping up, and a fast refusal beats a slow
 *     answer
 * @param foldInterval how often the folder looks for new rows when it has caught up
 * @param foldEvents the most log rows one fold applies
 * @param gapTimeout how long the folder keeps looking for a seq it skipped because its row was not
 *     yet committed (see {@code FoldCursor}); far longer than any append can take
 * @param retention how long folded log rows are kept (for a Redis side that fell behind)
 * @param foldBarrierTimeout how long a manual recompute or rebuild waits for the fold to apply
 *     every event accepted before it; past it the call answers 503 with Retry-After rather than a
 *     board that silently misses them
 * @param dedupWindow how long the id of an event accepted with one is kept: an event with the same
 *     biz and id within it is a duplicate, not counted again (pruned hourly, so kept up to an hour
 *     longer)
 */
@ConfigurationProperties("hotrank.ingest")
public record IngestProperties(
    @DefaultValue("log") Source source,
    @DefaultValue Kafka kafka,
    @DefaultValue("true") boolean folding,
    @DefaultValue("4") int writers,
    @DefaultValue("5000") int groupEvents,
    @DefaultValue("100000") int queueEvents,
    @DefaultValue("1s") Duration queueDelay,
    @DefaultValue("200ms") Duration foldInterval,
    @DefaultValue("20000") int foldEvents,
    @DefaultValue("1m") Duration gapTimeout,
    @DefaultValue("1d") Duration retention,
    @DefaultValue("5s") Duration foldBarrierTimeout,
    @DefaultValue("24h") Duration dedupWindow) {

  public IngestProperties {
    positive("writers", writers);
    positive("group-events", groupEvents);
    positive("queue-events", queueEvents);
    positive("fold-events", foldEvents);
    positive("queue-delay", queueDelay);
    positive("fold-interval", foldInterval);
    positive("gap-timeout", gapTimeout);
    positive("retention", retention);
    positive("fold-barrier-timeout", foldBarrierTimeout);
    positive("dedup-window", dedupWindow);
    if (kafka.itemGrace().compareTo(dedupWindow) >= 0) {
      // A record parked past the window would lose its id to the pruning while it waits, and a
      // copy produced meanwhile would count beside it once its item came.
      throw new IllegalArgumentException(
          "hotrank.ingest.kafka.item-grace="
              + kafka.itemGrace()
              + " must be shorter than dedup-window="
              + dedupWindow);
    }
    if (groupEvents < 1000 || groupEvents > 6000) {
      // Five parameters per event; PostgreSQL binds at most 32,767 per statement.
      throw new IllegalArgumentException(
          "hotrank.ingest.group-events="
              + groupEvents
              + " must be between 1000 (one batch) and 6000 (PostgreSQL's parameter limit)");
    }
    if (gapTimeout.toSeconds() < 30) {
      // A seq's row commits within the statement timeout of its append; a gap given up before
      // that may lose a row that was answered 202.
      throw new IllegalArgumentException(
          "hotrank.ingest.gap-timeout=" + gapTimeout + " must be at least 30s");
    }
  }

  /** Where accepted events are kept and folded from. */
  public enum Source {
    /** The SQL event log, {@code hr_event_log}, folded by the leased {@code event-fold} job. */
    LOG,
    /** A Kafka topic, folded by every instance for the partitions assigned to it. */
    KAFKA
  }

  /**
   * Settings of the Kafka source under {@code hotrank.ingest.kafka.*}.
   *
   * @param topic the events' topic
   * @param partitions the partitions the service gives the topic when it creates it (it never
   *     changes an existing topic)
   * @param replicationFactor the replication factor the service gives a topic it creates
   * @param group the consumer group of the folders
   * @param deadLetterTopic where records that cannot be folded go; empty means {@code <topic>.dlt}
   * @param sendTimeout how long {@code POST /api/v1/events} waits for the broker to take and commit
   *     a batch before answering 503
   * @param transactionTimeout how long the broker keeps a transaction of an instance that died open
   *     before aborting it; committed records behind it wait that long to be read
   * @param itemGrace how long a record of an item that does not exist yet is retried (the item may
   *     be being created) before it goes to the dead-letter topic
   */
  public record Kafka(
      @DefaultValue("hotrank.events") String topic,
      @DefaultValue("12") int partitions,
      @DefaultValue("1") short replicationFactor,
      @DefaultValue("hotrank-fold") String group,
      @DefaultValue("") String deadLetterTopic,
      @DefaultValue("5s") Duration sendTimeout,
      @DefaultValue("10s") Duration transactionTimeout,
      @DefaultValue("30s") Duration itemGrace) {

    public Kafka {
      for (String[] name :
          new String[][] {{"topic", topic}, {"dead-letter-topic", deadLetterTopic}}) {
        if (name[1].length() > 191) {
          // Kafka allows 249; the tables keep a topic's name in a key of 191 characters, the most
          // a MySQL index takes in every row format.
          throw new IllegalArgumentException(
              "hotrank.ingest.kafka." + name[0] + " must be at most 191 characters");
        }
      }
      if (topic.isBlank()) {
        throw new IllegalArgumentException("hotrank.ingest.kafka.topic must not be empty");
      }
      positive("kafka.partitions", partitions);
      positive("kafka.replication-factor", replicationFactor);
      positive("kafka.send-timeout", sendTimeout);
      positive("kafka.transaction-timeout", transactionTimeout);
      if (itemGrace.isNegative()) {
        throw new IllegalArgumentException(
            "hotrank.ingest.kafka.item-grace=" + itemGrace + " must not be negative");
      }
      if (transactionTimeout.compareTo(sendTimeout) <= 0) {
        // A transaction the broker aborts while its batch still waits to commit would be lost.
        throw new IllegalArgumentException(
            "hotrank.ingest.kafka.transaction-timeout="
                + transactionTimeout
                + " must be longer than send-timeout="
                + sendTimeout);
      }
    }

    /** The dead-letter topic: {@code dead-letter-topic}, or {@code <topic>.dlt}. */
    public String deadLetters() {
      return deadLetterTopic.isBlank() ? topic + ".dlt" : deadLetterTopic;
    }
  }

  private static void positive(String name, Duration value) {
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(
          "hotrank.ingest." + name + "=" + value + " must be positive");
    }
  }

  private static void positive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(
          "hotrank.ingest." + name + "=" + value + " must be positive");
    }
  }
}
