package io.hotrank.ingest.kafka;

import io.hotrank.ingest.EventIngest;
import io.hotrank.ingest.EventSink;
import io.hotrank.ingest.EventSource;
import io.hotrank.ingest.IngestProperties;
import io.hotrank.ingest.fold.EventIds;
import io.hotrank.ingest.fold.FoldApplier;
import io.hotrank.ingest.fold.FoldListeners;
import io.hotrank.ingest.fold.FoldNumbers;
import io.hotrank.ingest.fold.InFlightFolds;
import io.hotrank.item.Bizes;
import io.hotrank.job.FaultPoints;
import io.hotrank.lock.InstanceId;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Kafka source's beans, with {@code hotrank.ingest.source=kafka}: the cluster is Boot's ({@code
 * spring.kafka.*}), the rest is {@code hotrank.ingest.kafka.*}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "hotrank.ingest.source", havingValue = KafkaSource.NAME)
class KafkaIngestConfiguration {

  @Bean(destroyMethod = "close")
  Admin kafkaIngestAdmin(KafkaProperties kafka, InstanceId instance) {
    Map<String, Object> config = new HashMap<>(kafka.buildAdminProperties());
    config.put(AdminClientConfig.CLIENT_ID_CONFIG, "hotrank-admin-" + instance.value());
    return Admin.create(config);
  }

  @Bean
  KafkaTopics kafkaTopics(Admin kafkaIngestAdmin, IngestProperties properties, Ticker ticker) {
    IngestProperties.Kafka k = properties.kafka();
    return new KafkaTopics(
        kafkaIngestAdmin,
        k.topic(),
        k.deadLetters(),
        k.group(),
        k.partitions(),
        k.replicationFactor(),
        k.sendTimeout().toMillis(),
        ticker);
  }

  /** The folder's passes, which a manual fold waits for. */
  @Bean
  InFlightFolds kafkaInFlightFolds() {
    return new InFlightFolds();
  }

  @Bean
  EventRecords eventRecords(JsonMapper json) {
    return new EventRecords(json);
  }

  @Bean
  EventSink kafkaSink(
      KafkaProperties kafka,
      IngestProperties properties,
      InstanceId instance,
      EventRecords records,
      KafkaTopics topics,
      Ticker ticker) {
    IngestProperties.Kafka k = properties.kafka();
    return new KafkaEventSink(
        kafka.buildProducerProperties(),
        k.topic(),
        "hotrank-" + instance.value() + "-",
        k.sendTimeout().toMillis(),
        k.transactionTimeout().toMillis(),
        records,
        KafkaEventSink::open,
        topics::ensure,
        ticker);
  }

  @Bean
  KafkaFoldStore kafkaPositions(JdbcTemplate jdbc) {
    return new KafkaFoldStore(jdbc);
  }

  @Bean(destroyMethod = "close")
  KafkaFoldReader kafkaFoldReader(
      KafkaProperties kafka, InstanceId instance, EventRecords records, Ticker ticker) {
    Map<String, Object> config = consumerConfig(kafka, "hotrank-replay-" + instance.value());
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    // A range the topic no longer holds must fail the read, not jump to an end.
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
    // Fetches sent ahead after a range was read find nothing new; the next read waits behind them.
    config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, KafkaFoldReader.FETCH_MAX_WAIT_MILLIS);
    return new KafkaFoldReader(() -> new KafkaConsumer<>(config), records, ticker);
  }

  @Bean
  @ConditionalOnProperty(
      name = "hotrank.ingest.folding",
      havingValue = "true",
      matchIfMissing = true)
  KafkaFolder kafkaFolder(
      KafkaProperties kafka,
      IngestProperties properties,
      InstanceId instance,
      KafkaTopics topics,
      KafkaFoldStore positions,
      FoldApplier applier,
      EventIds eventIds,
      FoldNumbers numbers,
      FoldListeners listeners,
      InFlightFolds inFlight,
      PlatformTransactionManager transactions,
      EventRecords records,
      Bizes bizes,
      Ticker ticker,
      FaultPoints faults,
      MeterRegistry meters) {
    IngestProperties.Kafka k = properties.kafka();
    String clientId = "hotrank-fold-" + instance.value();
    Map<String, Object> config = consumerConfig(kafka, clientId);
    config.put(ConsumerConfig.GROUP_ID_CONFIG, k.group());
    config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, properties.foldEvents());
    // A member killed without leaving the group keeps its partitions until its session lapses:
    // Kafka's 45 s default would freeze their counters and boards that long. 10 s, a heartbeat
    // every 3 s (from the consumer's own thread, whatever a fold takes); the broker's
    // group.min.session.timeout.ms is 6 s. spring.kafka.consumer.properties may set either.
    config.putIfAbsent(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, SESSION_TIMEOUT_MILLIS);
    config.putIfAbsent(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, HEARTBEAT_INTERVAL_MILLIS);
    // A live stream folded as it arrives: the broker holds a fetch until a fold's worth of bytes
    // or the fold interval, so a fold takes what came in over that interval rather than the few
    // records of each fetch; a fold's cost is mostly per fold (its transaction, its Redis
    // scripts), as the log's folder that looks for rows every fold interval.
    config.putIfAbsent(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, FETCH_MIN_BYTES);
    config.putIfAbsent(
        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, (int) properties.foldInterval().toMillis());
    config.put(
        ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
        CooperativeStickyAssignor.class.getName());
    boolean fromLatest = "latest".equals(config.get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG));
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, fromLatest ? "latest" : "earliest");
    Supplier<Consumer<String, String>> consumers = () -> new KafkaConsumer<>(config);
    return new KafkaFolder(
        consumers,
        k.topic(),
        clientId,
        topics::ensure,
        new KafkaPartitions(
            k.topic(), clientId, fromLatest, positions, numbers::databaseMillis, meters),
        new ParkedRecords(
            k.topic(),
            k.itemGrace().toMillis(),
            positions,
            applier,
            eventIds,
            records,
            new DeadLetters(
                kafka.buildProducerProperties(),
                k.deadLetters(),
                k.sendTimeout().toMillis(),
                KafkaEventSink::open),
            bizes::known,
            numbers::databaseMillis,
            ticker,
            meters),
        positions,
        applier,
        eventIds,
        numbers,
        listeners,
        inFlight,
        new TransactionTemplate(transactions),
        records,
        ticker,
        faults,
        meters);
  }

  @Bean
  EventSource kafkaSource(
      EventSink kafkaSink,
      KafkaTopics topics,
      KafkaFoldStore positions,
      FoldNumbers numbers,
      FoldListeners listeners,
      InFlightFolds inFlight,
      EventIngest ingest,
      Ticker ticker,
      IngestProperties properties) {
    return KafkaSource.of(
        kafkaSink,
        new KafkaFoldBarrier(
            topics,
            positions,
            numbers,
            listeners,
            inFlight,
            ticker,
            properties.foldBarrierTimeout()),
        new KafkaReporter(topics, positions, numbers, ingest::queuedEvents));
  }

  /** Boot's consumer settings, with what every consumer of the source needs. */
  /** The folder's consumer session timeout unless configured. */
  static final int SESSION_TIMEOUT_MILLIS = 10_000;

  static final int HEARTBEAT_INTERVAL_MILLIS = 3_000;

  /** How many bytes a fold's fetch waits for at most (about 10,000 events). */
  static final int FETCH_MIN_BYTES = 1 << 20;

  private static Map<String, Object> consumerConfig(KafkaProperties kafka, String clientId) {
    Map<String, Object> config = new HashMap<>(kafka.buildConsumerProperties());
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
    // The service makes its topics itself, with their partitions; asking for a missing one (a
    // replay of a topic since deleted) must not create it with the broker's defaults.
    config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    return config;
  }
}
