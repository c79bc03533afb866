package io.hotrank.ingest.kafka;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.test.context.TestPropertySource;

/** The Kafka source on MariaDB/MySQL ({@code HOTRANK_TEST_MYSQL_URL}). */
@EnabledIfEnvironmentVariable(named = "HOTRANK_TEST_MYSQL_URL", matches = ".+")
@TestPropertySource(
    properties = {
      "spring.datasource.url=${HOTRANK_TEST_MYSQL_URL}",
      "spring.datasource.username=${HOTRANK_TEST_MYSQL_USER:root}",
      "spring.datasource.password=${HOTRANK_TEST_MYSQL_PASSWORD:}"
    })
class MariaDbKafkaSourceTest extends KafkaSourceContract {

  @Override
  protected String engine() {
    return "MariaDB/MySQL";
  }
}
