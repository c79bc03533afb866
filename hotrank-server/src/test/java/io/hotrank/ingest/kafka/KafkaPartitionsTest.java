package io.hotrank.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.MigratedDatabase;
import io.hotrank.support.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Which partitions a Kafka folder holds and where each stands, against Kafka's mock consumer and
 * the positions stored in a real database (H2, as the embedded default): a partition is folded from
 * its stored position only, whoever folded it before, and goes back to it after a failed fold.
 */
class KafkaPartitionsTest {

  @RegisterExtension static final MigratedDatabase DATABASE = new MigratedDatabase(TestDatabase.H2);

  private final String topic = "partitions-" + UUID.randomUUID();
  private final TopicPartition p0 = new TopicPartition(topic, 0);
  private final TopicPartition p1 = new TopicPartition(topic, 1);
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final MockConsumer<String, String> consumer = new MockConsumer<>("earliest");
  private KafkaFoldStore store;
  private KafkaPartitions partitions;

  @BeforeEach
  void subscribe() {
    store = new KafkaFoldStore(DATABASE.jdbc());
    consumer.updateBeginningOffsets(Map.of(p0, 0L, p1, 0L));
    consumer.updateEndOffsets(Map.of(p0, 10L, p1, 10L));
    partitions = new KafkaPartitions(topic, "me", false, store, System::currentTimeMillis, meters);
    partitions.subscribe(consumer);
  }

  @Test
  void assignedPartitions_arePausedUntilTheirStoredPositionsAreRead_thenFoldedFromThere() {
    store.insertIfAbsent(topic, 0, 4, "another", 1L);

    consumer.rebalance(List.of(p0, p1));

    assertThat(consumer.paused()).containsExactlyInAnyOrder(p0, p1);
    assertThat(partitions.held()).isEmpty();
    partitions.resumePending(consumer);
    assertThat(consumer.paused()).isEmpty();
    assertThat(partitions.held()).containsExactly(0, 1);
    assertThat(consumer.position(p0)).isEqualTo(4);
    // Never folded: from the first record, and stored at once, before any record is folded.
    assertThat(consumer.position(p1)).isZero();
    assertThat(store.positions(topic, List.of(0, 1))).isEqualTo(Map.of(0, 4L, 1, 0L));
  }

  @Test
  void aFold_takesThePartitionsThatMoved_andMovesThemOnceItCommitted() {
    consumer.rebalance(List.of(p0, p1));
    partitions.resumePending(consumer);
    for (long offset = 0; offset < 3; offset++) {
      consumer.addRecord(new ConsumerRecord<>(topic, 0, offset, "k", "v" + offset));
    }

    List<KafkaPartitions.Chunk> chunks = partitions.chunks(consumer, consumer.poll(Duration.ZERO));

    assertThat(chunks).hasSize(1);
    KafkaPartitions.Chunk chunk = chunks.getFirst();
    assertThat(chunk.partition()).isEqualTo(p0);
    assertThat(chunk.from()).isZero();
    assertThat(chunk.to()).isEqualTo(3);
    assertThat(chunk.records()).extracting(ConsumerRecord::value).containsExactly("v0", "v1", "v2");
    assertThat(partitions.folded(chunks)).isEqualTo(Map.of(p0, new OffsetAndMetadata(3)));
    // Nothing new: nothing to fold, and the next fold of p0 moves from 3.
    assertThat(partitions.chunks(consumer, consumer.poll(Duration.ZERO))).isEmpty();
    consumer.addRecord(new ConsumerRecord<>(topic, 0, 3, "k", "v3"));
    assertThat(partitions.chunks(consumer, consumer.poll(Duration.ZERO)))
        .singleElement()
        .satisfies(c -> assertThat(c.from()).isEqualTo(3));
  }

  @Test
  void afterAFailedFold_everyPartitionGoesBackToItsStoredPosition() {
    store.insertIfAbsent(topic, 0, 1, "another", 1L);
    consumer.rebalance(List.of(p0, p1));
    partitions.resumePending(consumer);
    for (long offset = 1; offset < 5; offset++) {
      consumer.addRecord(new ConsumerRecord<>(topic, 0, offset, "k", "v" + offset));
    }
    assertThat(partitions.chunks(consumer, consumer.poll(Duration.ZERO))).hasSize(1);
    assertThat(consumer.position(p0)).isEqualTo(5);

    partitions.reset(consumer); // the fold's transaction rolled back: stored positions stand

    assertThat(consumer.paused()).containsExactlyInAnyOrder(p0, p1);
    assertThat(partitions.held()).isEmpty();
    partitions.resumePending(consumer);
    assertThat(consumer.position(p0)).isEqualTo(1);
    // The mock hands each record out once; a broker delivers them again from the position.
    for (long offset = 1; offset < 5; offset++) {
      consumer.addRecord(new ConsumerRecord<>(topic, 0, offset, "k", "v" + offset));
    }
    assertThat(partitions.chunks(consumer, consumer.poll(Duration.ZERO)))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.from()).isEqualTo(1);
              assertThat(c.records()).hasSize(4);
            });
  }

  @Test
  void recordsDeletedByRetentionBeforeTheyWereFolded_areSkippedAndCounted() {
    store.insertIfAbsent(topic, 0, 2, "another", 1L);
    consumer.updateBeginningOffsets(Map.of(p0, 7L));

    consumer.rebalance(List.of(p0));
    partitions.resumePending(consumer);

    assertThat(consumer.position(p0)).isEqualTo(7);
    assertThat(meters.counter("hotrank.ingest.kafka.skipped", "partition", "0").count())
        .isEqualTo(5);
  }

  @Test
  void aStoredPositionPastTheTopicsEnd_isNotFolded() {
    store.insertIfAbsent(topic, 0, 20, "another", 1L); // the topic was made again

    consumer.rebalance(List.of(p0, p1));
    partitions.resumePending(consumer);

    assertThat(partitions.held()).containsExactly(1);
    assertThat(consumer.paused()).containsExactly(p0);
    assertThat(store.positions(topic, List.of(0))).isEqualTo(Map.of(0, 20L));
  }

  @Test
  void revokedPartitions_areForgotten() {
    consumer.rebalance(List.of(p0, p1));
    partitions.resumePending(consumer);

    consumer.rebalance(List.of(p1));
    partitions.resumePending(consumer);

    assertThat(partitions.held()).containsExactly(1);
    consumer.addRecord(new ConsumerRecord<>(topic, 1, 0, "k", "v"));
    assertThat(partitions.chunks(consumer, consumer.poll(Duration.ZERO)))
        .extracting(KafkaPartitions.Chunk::partition)
        .containsExactly(p1);
  }
}
