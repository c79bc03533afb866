package io.hotrank.ingest.kafka;

import io.hotrank.ingest.kafka.EventRecords.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;

/**
 * Sends records that cannot be folded to the dead-letter topic, unchanged (key, value, timestamp,
 * headers), with headers saying why and where from: {@code hotrank-dlt-reason} (as in {@link
 * Reason}), {@code hotrank-dlt-detail}, {@code hotrank-dlt-topic}, {@code hotrank-dlt-partition},
 * {@code hotrank-dlt-offset}, all UTF-8 text.
 *
 * <p>Sent and acknowledged before the fold that met them commits: a fold that then fails is retried
 * and sends them again, so a dead letter is delivered at least once, and counted once (the counts
 * are in the fold's transaction). Used by the folding thread only.
 */
final class DeadLetters {

  /** A record and why it cannot be folded. */
  record Letter(
      String topic,
      int partition,
      long offset,
      long timestamp,
      @Nullable String key,
      @Nullable String value,
      Headers headers,
      Reason reason,
      String detail) {

    /** A record as the folder read it. */
    static Letter of(ConsumerRecord<String, String> r, Reason reason, String detail) {
      return new Letter(
          r.topic(),
          r.partition(),
          r.offset(),
          r.timestamp(),
          r.key(),
          r.value(),
          r.headers(),
          reason,
          detail);
    }
  }

  private static final long SEND_TIMEOUT_SECONDS = 30;

  private final Map<String, Object> producerConfig;
  private final String topic;
  private final Function<Map<String, Object>, Producer<String, String>> producers;
  private @Nullable Producer<String, String> producer;

  DeadLetters(
      Map<String, Object> producerConfig,
      String topic,
      long sendTimeoutMillis,
      Function<Map<String, Object>, Producer<String, String>> producers) {
    Map<String, Object> config = new HashMap<>(producerConfig);
    // Every wait on the broker is bounded as the events' own sends are.
    config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, sendTimeoutMillis);
    config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) sendTimeoutMillis);
    config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) sendTimeoutMillis);
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
    this.producerConfig = Map.copyOf(config);
    this.topic = topic;
    this.producers = producers;
  }

  /** The dead-letter topic's name. */
  String topic() {
    return topic;
  }

  /**
   * Sends the letters and waits until the broker has them all.
   *
   * @throws org.apache.kafka.common.KafkaException or another runtime exception when one was not
   *     taken; the fold rolls back and is retried
   */
  void send(List<Letter> letters) {
    if (letters.isEmpty()) {
      return;
    }
    if (producer == null) {
      producer = producers.apply(producerConfig);
    }
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    for (Letter l : letters) {
      sent.add(send(l, false));
    }
    for (int i = 0; i < sent.size(); i++) {
      try {
        await(sent.get(i));
      } catch (RecordTooLargeException e) {
        // A record the broker took once may be too large to send again (it was compressed, or
        // written with a larger limit): its letter goes without the value, so that it never holds
        // the partition up.
        await(send(letters.get(i), true));
      }
    }
  }

  private Future<RecordMetadata> send(Letter l, boolean withoutValue) {
    RecordHeaders headers = new RecordHeaders(l.headers().toArray());
    header(headers, "hotrank-dlt-reason", l.reason().wireName());
    header(headers, "hotrank-dlt-detail", l.detail());
    header(headers, "hotrank-dlt-topic", l.topic());
    header(headers, "hotrank-dlt-partition", Integer.toString(l.partition()));
    header(headers, "hotrank-dlt-offset", Long.toString(l.offset()));
    if (withoutValue) {
      header(headers, "hotrank-dlt-value-dropped", "too large to send again");
    }
    ProducerRecord<String, String> record =
        new ProducerRecord<>(
            topic, null, l.timestamp(), l.key(), withoutValue ? null : l.value(), headers);
    try {
      return producer.send(record);
    } catch (RecordTooLargeException e) {
      return java.util.concurrent.CompletableFuture.failedFuture(e);
    }
  }

  private void await(Future<RecordMetadata> f) {
    try {
      f.get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RecordTooLargeException tooLarge) {
        throw tooLarge;
      }
      throw new IllegalStateException("a dead letter was not taken by '" + topic + "'", e);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("a dead letter was not taken by '" + topic + "' in time");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while sending dead letters", e);
    }
  }

  private static void header(RecordHeaders headers, String name, String value) {
    headers.remove(name);
    headers.add(name, value.getBytes(StandardCharsets.UTF_8));
  }

  void close() {
    Producer<String, String> p = producer;
    producer = null;
    if (p != null) {
      p.close(Duration.ofSeconds(5));
    }
  }
}
