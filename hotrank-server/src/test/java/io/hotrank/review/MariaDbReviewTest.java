package io.hotrank.review;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.test.context.TestPropertySource;

/** Review on MariaDB or MySQL ({@code HOTRANK_TEST_MYSQL_URL}), in the API contract's context. */
@EnabledIfEnvironmentVariable(named = "HOTRANK_TEST_MYSQL_URL", matches = ".+")
@TestPropertySource(
    properties = {
      "spring.datasource.url=${HOTRANK_TEST_MYSQL_URL}",
      "spring.datasource.username=${HOTRANK_TEST_MYSQL_USER:root}",
      "spring.datasource.password=${HOTRANK_TEST_MYSQL_PASSWORD:}"
    })
class MariaDbReviewTest extends ReviewContract {

  @Override
  protected String engine() {
    return "MariaDB/MySQL";
  }
}
