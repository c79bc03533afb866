package io.hotrank.idempotency;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.test.context.TestPropertySource;

/** Idempotency keys and event ids on PostgreSQL ({@code HOTRANK_TEST_POSTGRES_URL}). */
@EnabledIfEnvironmentVariable(named = "HOTRANK_TEST_POSTGRES_URL", matches = ".+")
@TestPropertySource(
    properties = {
      "spring.datasource.url=${HOTRANK_TEST_POSTGRES_URL}",
      "spring.datasource.username=${HOTRANK_TEST_POSTGRES_USER:postgres}",
      "spring.datasource.password=${HOTRANK_TEST_POSTGRES_PASSWORD:}"
    })
class PostgresIdempotencyTest extends IdempotencyContract {

  @Override
  protected String engine() {
    return "PostgreSQL";
  }
}
