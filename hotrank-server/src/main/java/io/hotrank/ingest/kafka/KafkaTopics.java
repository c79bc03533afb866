package io.hotrank.ingest.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * and the group's owners of each partition. Every call is bounded by {@link #TIMEOUT_SECONDS}.
 * Thread-safe.
 */
final class KafkaTopics {

  private static final Logger log = LoggerFactory.getLogger(KafkaTopics.class);

  static final long TIMEOUT_SECONDS = 10;

  private final Admin admin;
  private final String topic;
  private final String deadLetterTopic;
  private final String group;
  private final int partitions;
  private final short replicationFactor;
  private volatile boolean ensured;

  KafkaTopics(
      Admin admin,
      String topic,
      String deadLetterTopic,
      String group,
      int partitions,
      short replicationFactor) {
    this.admin = admin;
    this.topic = topic;
    this.deadLetterTopic = deadLetterTopic;
    this.group = group;
    this.partitions = partitions;
    this.replicationFactor = replicationFactor;
  }

  /**
   * Creates the missing topics, once per process.
   *
   * @throws IllegalStateException when the cluster did not answer
   */
  void ensure() {
    if (ensured) {
      return;
    }
    synchronized (this) {
      if (ensured) {
        return;
      }
      Set<String> existing = get(admin.listTopics().names());
      List<NewTopic> missing = new ArrayList<>();
      for (String name : List.of(topic, deadLetterTopic)) {
        if (!existing.contains(name)) {
          missing.add(new NewTopic(name, partitions, replicationFactor));
        }
      }
      if (!missing.isEmpty()) {
        try {
          get(admin.createTopics(missing).all());
          log.info(
              "Created {} with {} partitions and replication factor {}",
              missing.stream().map(NewTopic::name).toList(),
              partitions,
              replicationFactor);
        } catch (IllegalStateException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw e;
          }
        }
      }
      TopicDescription described =
          get(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic);
      log.info("Events topic '{}' has {} partitions", topic, described.partitions().size());
      ensured = true;
    }
  }

  /** The topic's end offset of each partition, for consumers reading committed records. */
  Map<Integer, Long> endOffsets() {
    TopicDescription described =
        get(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic);
    Map<TopicPartition, OffsetSpec> specs = new java.util.HashMap<>();
    described
        .partitions()
        .forEach(p -> specs.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
        get(admin.listOffsets(specs, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all());
    Map<Integer, Long> byPartition = new java.util.TreeMap<>();
    ends.forEach((tp, info) -> byPartition.put(tp.partition(), info.offset()));
    return byPartition;
  }

  /** The client id of the group member each partition is assigned to now. */
  Map<Integer, String> owners() {
    ConsumerGroupDescription description =
        get(admin.describeConsumerGroups(List.of(group)).all()).get(group);
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

  private static <T> T get(KafkaFuture<T> future) {
    try {
      return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("the Kafka cluster refused: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "the Kafka cluster did not answer in " + TIMEOUT_SECONDS + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while asking the Kafka cluster", e);
    }
  }
}
