package io.hotrank.storage;

import io.hotrank.support.TestEngines;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/** The storage compatibility suite on PostgreSQL ({@code HOTRANK_TEST_POSTGRES_URL}). */
@EnabledIfEnvironmentVariable(named = "HOTRANK_TEST_POSTGRES_URL", matches = ".+")
class PostgresStorageCompatibilityTest extends StorageCompatibilityTest {

  @Override
  String engine() {
    return "PostgreSQL";
  }

  @Override
  String url() {
    return TestEngines.env("HOTRANK_TEST_POSTGRES_URL").orElseThrow();
  }

  @Override
  String user() {
    return TestEngines.env("HOTRANK_TEST_POSTGRES_USER").orElse("postgres");
  }

  @Override
  String password() {
    return TestEngines.env("HOTRANK_TEST_POSTGRES_PASSWORD").orElse("");
  }

  @Override
  String setSessionTimeZone() {
    return "SET TIME ZONE '" + SESSION_ZONE_NAME + "'";
  }

  @Override
  String readSessionTimeZone() {
    return "SHOW TIME ZONE";
  }

  @Override
  String expectedDialect() {
    return "PostgreSQL";
  }

  @Override
  boolean expectsSkipLocked() {
    return true;
  }

  @Override
  boolean expectsInsertIgnoringDuplicates() {
    return true;
  }

  @Override
  boolean expectsReturning() {
    return true;
  }
}
