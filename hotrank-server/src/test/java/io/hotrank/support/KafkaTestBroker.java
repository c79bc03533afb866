package io.hotrank.support;

import java.util.Map;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * One in-process KRaft broker (Spring Kafka's {@code EmbeddedKafkaKraftBroker}, a real broker and
 * controller on a loopback port) shared by every Kafka test class of the JVM: it starts on first
 * use and stops when the JVM exits. Each class keeps to topics and a group of its own.
 */
public final class KafkaTestBroker {

  private static EmbeddedKafkaKraftBroker broker;

  private KafkaTestBroker() {}

  /** The broker's bootstrap servers, starting it on first use. */
  public static synchronized String bootstrapServers() {
    if (broker == null) {
      EmbeddedKafkaKraftBroker started = new EmbeddedKafkaKraftBroker(1, 1);
      started.brokerProperties(
          Map.of(
              "transaction.state.log.replication.factor", "1",
              "transaction.state.log.min.isr", "1",
              "offsets.topic.replication.factor", "1",
              // Groups form at once instead of after the default 3 s.
              "group.initial.rebalance.delay.ms", "0"));
      started.afterPropertiesSet();
      Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(started::destroy));
      broker = started;
    }
    return broker.getBrokersAsString();
  }
}
