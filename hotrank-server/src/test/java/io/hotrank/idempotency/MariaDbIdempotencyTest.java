package io.hotrank.idempotency;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.test.context.TestPropertySource;

/** Idempotency keys and event ids on MariaDB or MySQL ({@code HOTRANK_TEST_MYSQL_URL}). */
@EnabledIfEnvironmentVariable(named = "HOTRANK_TEST_MYSQL_URL", matches = ".+")
@TestPropertySource(
    properties = {
      "spring.datasource.url=${HOTRANK_TEST_MYSQL_URL}",
      "spring.datasource.username=${HOTRANK_TEST_MYSQL_USER:root}",
      "spring.datasource.password=${HOTRANK_TEST_MYSQL_PASSWORD:}"
    })
class MariaDbIdempotencyTest extends IdempotencyContract {

  @Override
  protected String engine() {
    return "MariaDB/MySQL";
  }
}
