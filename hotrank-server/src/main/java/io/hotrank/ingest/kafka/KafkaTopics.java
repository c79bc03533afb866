package io.hotrank.ingest.kafka;

import io.hotrank.ingest.IngestUnavailableException;
import io.hotrank.time.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the service asks the cluster through its admin client: creates the events' topic and the
 * dead-letter topic when they are missing (never changes them), and reads the topic's end offsets
 * and the group's owners of each partition. Every call, whatever it asks the cluster and whoever
 * else is creating the topics meanwhile, is bounded by the send timeout as a whole, so that a
 * request waiting on one answers within it. Thread-safe.
 */
final class KafkaTopics {

  private static final Logger log = LoggerFactory.getLogger(KafkaTopics.class);

  private final Admin admin;
  private final String topic;
  private final String deadLetterTopic;
  private final String group;
  private final int partitions;
  private final short replicationFactor;
  private final long timeoutMillis;
  private final Ticker ticker;
  private final ReentrantLock ensuring = new ReentrantLock();
  private volatile boolean ensured;

  KafkaTopics(
      Admin admin,
      String topic,
      String deadLetterTopic,
      String group,
      int partitions,
      short replicationFactor,
      long timeoutMillis,
      Ticker ticker) {
    this.admin = admin;
    this.ticker = ticker;
    this.topic = topic;
    this.deadLetterTopic = deadLetterTopic;
    this.group = group;
    this.partitions = partitions;
    this.replicationFactor = replicationFactor;
    this.timeoutMillis = timeoutMillis;
  }

  /**
   * Creates the missing topics, once per process.
   *
   * @throws IngestUnavailableException when the cluster did not answer
   */
  void ensure() {
    ensure(deadline());
  }

  private void ensure(long deadline) {
    if (ensured) {
      return;
    }
    // Not synchronized: a request must not wait out the folder's attempt and then its own.
    try {
      if (!ensuring.tryLock(remainingMillis(deadline), TimeUnit.MILLISECONDS)) {
        throw new IngestUnavailableException(
            "the Kafka cluster did not answer in " + timeoutMillis + " ms",
            new TimeoutException("another thread is creating the topics"));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IngestUnavailableException("interrupted while asking the Kafka cluster", e);
    }
    try {
      if (ensured) {
        return;
      }
      Set<String> existing = get(admin.listTopics().names(), deadline);
      List<NewTopic> missing = new ArrayList<>();
      for (String name : List.of(topic, deadLetterTopic)) {
        if (!existing.contains(name)) {
          missing.add(new NewTopic(name, partitions, replicationFactor));
        }
      }
      if (!missing.isEmpty()) {
        try {
          get(admin.createTopics(missing).all(), deadline);
          log.info(
              "Created {} with {} partitions and replication factor {}",
              missing.stream().map(NewTopic::name).toList(),
              partitions,
              replicationFactor);
        } catch (IngestUnavailableException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw e;
          }
        }
      }
      TopicDescription described =
          get(admin.describeTopics(List.of(topic)).allTopicNames(), deadline).get(topic);
      log.info("Events topic '{}' has {} partitions", topic, described.partitions().size());
      ensured = true;
    } finally {
      ensuring.unlock();
    }
  }

  /**
   * The topic's end offset of each partition, for consumers reading committed records (creating the
   * topic first if it is missing): the last stable offset, which a folder at rest has reached.
   *
   * @throws IngestUnavailableException when the cluster did not answer
   */
  Map<Integer, Long> endOffsets() {
    return endOffsets(IsolationLevel.READ_COMMITTED);
  }

  /**
   * The topic's high watermark of each partition: past every record written so far, committed or
   * not. A transaction's commit returns to its producer before the broker has written its markers
   * and moved the last stable offset past its records, so a wait for "everything committed before
   * now" must take this offset; the folders reach it once the transactions open at the time are
   * decided (within the transaction timeout).
   *
   * @throws IngestUnavailableException when the cluster did not answer
   */
  Map<Integer, Long> highWatermarks() {
    return endOffsets(IsolationLevel.READ_UNCOMMITTED);
  }

  private Map<Integer, Long> endOffsets(IsolationLevel isolation) {
    long deadline = deadline();
    ensure(deadline);
    TopicDescription described =
        get(admin.describeTopics(List.of(topic)).allTopicNames(), deadline).get(topic);
    Map<TopicPartition, OffsetSpec> specs = new java.util.HashMap<>();
    described
        .partitions()
        .forEach(p -> specs.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
        get(admin.listOffsets(specs, new ListOffsetsOptions(isolation)).all(), deadline);
    Map<Integer, Long> byPartition = new java.util.TreeMap<>();
    ends.forEach((tp, info) -> byPartition.put(tp.partition(), info.offset()));
    return byPartition;
  }

  /** The client id of the group member each partition is assigned to now. */
  Map<Integer, String> owners() {
    ConsumerGroupDescription description =
        get(admin.describeConsumerGroups(List.of(group)).all(), deadline()).get(group);
    Map<Integer, String> owners = new java.util.TreeMap<>();
    if (description != null) {
      for (MemberDescription member : description.members()) {
        for (TopicPartition tp : member.assignment().topicPartitions()) {
          if (tp.topic().equals(topic)) {
            owners.put(tp.partition(), member.clientId());
          }
        }
      }
    }
    return owners;
  }

  String topic() {
    return topic;
  }

  String deadLetterTopic() {
    return deadLetterTopic;
  }

  String group() {
    return group;
  }

  private long deadline() {
    return ticker.read() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
  }

  private long remainingMillis(long deadline) {
    return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - ticker.read()));
  }

  private <T> T get(KafkaFuture<T> future, long deadline) {
    try {
      return future.get(remainingMillis(deadline), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IngestUnavailableException(
          "the Kafka cluster refused: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IngestUnavailableException(
          "the Kafka cluster did not answer in " + timeoutMillis + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IngestUnavailableException("interrupted while asking the Kafka cluster", e);
    }
  }
}
