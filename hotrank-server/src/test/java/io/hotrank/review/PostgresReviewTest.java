package io.hotrank.review;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.test.context.TestPropertySource;

/** Review on PostgreSQL ({@code HOTRANK_TEST_POSTGRES_URL}), in the API contract's context. */
@EnabledIfEnvironmentVariable(named = "HOTRANK_TEST_POSTGRES_URL", matches = ".+")
@TestPropertySource(
    properties = {
      "spring.datasource.url=${HOTRANK_TEST_POSTGRES_URL}",
      "spring.datasource.username=${HOTRANK_TEST_POSTGRES_USER:postgres}",
      "spring.datasource.password=${HOTRANK_TEST_POSTGRES_PASSWORD:}"
    })
class PostgresReviewTest extends ReviewContract {

  @Override
  protected String engine() {
    return "PostgreSQL";
  }
}
