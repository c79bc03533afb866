package io.hotrank.ingest.kafka;

import io.hotrank.support.TestData;
import org.springframework.test.context.TestPropertySource;

/** The Kafka source on the embedded default's H2. */
@TestPropertySource(properties = "hotrank.data-dir=" + TestData.DIR + "kafka-source")
class H2KafkaSourceTest extends KafkaSourceContract {

  static {
    TestData.empty("kafka-source");
  }

  @Override
  protected String engine() {
    return "H2";
  }
}
