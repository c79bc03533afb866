package io.hotrank.ingest.kafka;

import io.hotrank.event.Event;
import io.hotrank.ingest.EventSink;
import io.hotrank.ingest.IngestOverloadedException;
import io.hotrank.ingest.IngestUnavailableException;
import io.hotrank.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the appender's groups of accepted events to the topic, one Kafka transaction per group:
 * consumers reading committed records (the folders) see all of a batch or none of it. Each writer
 * thread has a transactional, idempotent producer of its own ({@code acks=all}), with the
 * transactional id {@code hotrank-<instance>-<thread>}.
 *
 * <p>A group that fails is aborted and answered 503; nothing of it is visible. When the outcome is
 * unknown (a commit that timed out) or the producer cannot go on (fenced, out of sequence), the
 * producer is closed and the next group opens a new one under the same transactional id, whose
 * initialisation aborts whatever the old one left open. A commit that timed out may still have
 * completed on the broker: that batch is answered 503 and is folded all the same; a client that
 * retries it has it twice, the one case where Kafka cannot tell within the bound.
 *
 * <p>Not Spring Kafka's {@code KafkaTemplate}: the appender already groups batches per writer
 * thread, and a producer per thread, opened and replaced by that thread, is the whole need; the
 * template's producer cache would add a second pool under the appender's.
 */
final class KafkaEventSink implements EventSink {

  private static final Logger log = LoggerFactory.getLogger(KafkaEventSink.class);

  private final Map<String, Object> producerConfig;
  private final String topic;
  private final String transactionalIdPrefix;
  private final EventRecords records;
  private final Function<Map<String, Object>, Producer<String, String>> producers;
  private final Runnable ensureTopics;
  private final Ticker ticker;
  private final long sendTimeoutNanos;

  /**
   * @param producerConfig Boot's producer settings ({@code spring.kafka.*}); the settings this sink
   *     needs (serializers, idempotence, acks, transactions, timeouts) override them
   * @param producers opens a producer from its settings (a test may count them)
   * @param ensureTopics creates the topics when missing, before the first write (a producer would
   *     otherwise have the broker create it with its default partitions)
   */
  KafkaEventSink(
      Map<String, Object> producerConfig,
      String topic,
      String transactionalIdPrefix,
      long sendTimeoutMillis,
      long transactionTimeoutMillis,
      EventRecords records,
      Function<Map<String, Object>, Producer<String, String>> producers,
      Runnable ensureTopics,
      Ticker ticker) {
    this.ticker = ticker;
    this.sendTimeoutNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(sendTimeoutMillis);
    Map<String, Object> config = new HashMap<>(producerConfig);
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) transactionTimeoutMillis);
    // Every wait of a send and of its commit is bounded by the send timeout.
    long linger = 5;
    config.put(ProducerConfig.LINGER_MS_CONFIG, (int) linger);
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, sendTimeoutMillis);
    config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) (sendTimeoutMillis - linger));
    config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) sendTimeoutMillis);
    this.producerConfig = Map.copyOf(config);
    this.topic = topic;
    this.transactionalIdPrefix = transactionalIdPrefix;
    this.records = records;
    this.producers = producers;
    this.ensureTopics = ensureTopics;
  }

  /** Opens real producers. */
  static Producer<String, String> open(Map<String, Object> config) {
    return new KafkaProducer<>(config);
  }

  @Override
  public Writer writer(int index) {
    return new TransactionalWriter(transactionalIdPrefix + index);
  }

  private final class TransactionalWriter implements Writer {

    private final String transactionalId;
    private @Nullable Producer<String, String> producer;

    TransactionalWriter(String transactionalId) {
      this.transactionalId = transactionalId;
    }

    @Override
    public int[] write(List<Batch> batches, long deadlineNanos) {
      List<Event> events = new ArrayList<>();
      for (Batch b : batches) {
        if (b.claim() == null) {
          events.addAll(b.events());
          continue;
        }
        // A keyed batch's events without an id get one from the key and their place in the
        // batch: a retry that runs again (the key's answer was lost, or the commit's outcome
        // unknown) produces the same ids, and the fold counts them once.
        String prefix = b.claim().eventIdPrefix();
        for (Event e : b.events()) {
          events.add(
              e.id() != null
                  ? e
                  : new Event(
                      e.index(),
                      e.biz(),
                      e.itemId(),
                      e.type(),
                      e.userId(),
                      e.atMillis(),
                      prefix + e.index()));
        }
      }
      send(events, deadlineNanos);
      // Duplicates of events accepted before are told at the fold.
      return new int[batches.size()];
    }

    private void send(List<Event> events, long deadlineNanos) {
      Producer<String, String> p = producer();
      boolean began = false;
      try {
        p.beginTransaction();
        began = true;
        for (Event e : events) {
          throwIfFailed(p.send(records.toRecord(topic, e)));
        }
        if (ticker.read() + sendTimeoutNanos > deadlineNanos) {
          // The commit could end after a request of the group has been answered 503: the batch
          // must then stay invisible.
          abort(p);
          throw new IngestOverloadedException("the batch waited too long for the Kafka broker");
        }
        p.commitTransaction();
      } catch (ProducerFencedException
          | OutOfOrderSequenceException
          | AuthorizationException
          | UnsupportedVersionException
          | TimeoutException e) {
        // Cannot go on, or the commit's outcome is unknown: a new producer under the same id
        // aborts what this one left open.
        discard();
        throw refused(events, e);
      } catch (KafkaException e) {
        if (began) {
          abort(p);
        }
        throw refused(events, e);
      } catch (RuntimeException e) {
        // Not the client's own kind of failure (its state machine refused a call): this producer
        // is not trusted with another group.
        discard();
        throw refused(events, e);
      }
    }

    /**
     * Throws the failure of a send that failed at once. A send whose topic's metadata does not come
     * within {@code max.block.ms} (the broker is away) returns a failed future instead of throwing,
     * and each further send of the group would wait as long again: a group of n events would hold
     * the writer n send timeouts.
     */
    private static void throwIfFailed(Future<RecordMetadata> sent) {
      if (!sent.isDone()) {
        return;
      }
      try {
        sent.get();
      } catch (ExecutionException e) {
        throw e.getCause() instanceof KafkaException k ? k : new KafkaException(e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptException(e);
      }
    }

    private Producer<String, String> producer() {
      if (producer == null) {
        try {
          ensureTopics.run();
        } catch (IngestUnavailableException e) {
          throw new IngestOverloadedException("the Kafka cluster did not answer");
        }
        Map<String, Object> config = new HashMap<>(producerConfig);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        Producer<String, String> p = producers.apply(config);
        try {
          p.initTransactions();
        } catch (KafkaException e) {
          p.close(Duration.ZERO);
          throw new IngestOverloadedException(
              "the Kafka broker did not take the producer "
                  + transactionalId
                  + " ("
                  + e.getClass().getSimpleName()
                  + ")");
        }
        producer = p;
      }
      return producer;
    }

    private void abort(Producer<String, String> p) {
      try {
        p.abortTransaction();
      } catch (KafkaException e) {
        log.warn("Aborting a transaction of {} failed ({}); reopening it", transactionalId, e);
        discard();
      }
    }

    private void discard() {
      Producer<String, String> p = producer;
      producer = null;
      if (p != null) {
        try {
          p.close(Duration.ZERO);
        } catch (KafkaException e) {
          log.debug("Closing {} failed: {}", transactionalId, e.toString());
        }
      }
    }

    private IngestOverloadedException refused(List<Event> events, RuntimeException e) {
      log.warn(
          "Writing {} events to '{}' failed, nothing of them is visible: {}",
          events.size(),
          topic,
          e.toString());
      return new IngestOverloadedException(
          "the Kafka broker did not take the batch (" + e.getClass().getSimpleName() + ")");
    }

    @Override
    public void close() {
      discard();
    }
  }
}
