package io.hotrank.storage;

import io.hotrank.support.TestEngines;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/** The storage compatibility suite on MariaDB or MySQL ({@code HOTRANK_TEST_MYSQL_URL}). */
@EnabledIfEnvironmentVariable(named = "HOTRANK_TEST_MYSQL_URL", matches = ".+")
class MariaDbStorageCompatibilityTest extends StorageCompatibilityTest {

  /** CI runs MariaDB 10.11; {@code HOTRANK_TEST_MYSQL_FLAVOUR=mysql} declares a MySQL 8 server. */
  private static final boolean MYSQL =
      TestEngines.env("HOTRANK_TEST_MYSQL_FLAVOUR").filter("mysql"::equalsIgnoreCase).isPresent();

  @Override
  String engine() {
    return "MariaDB/MySQL";
  }

  @Override
  String expectedDialect() {
    return MYSQL ? "MySQL" : "MariaDB";
  }

  @Override
  String url() {
    return TestEngines.env("HOTRANK_TEST_MYSQL_URL").orElseThrow();
  }

  @Override
  String user() {
    return TestEngines.env("HOTRANK_TEST_MYSQL_USER").orElse("root");
  }

  @Override
  String password() {
    return TestEngines.env("HOTRANK_TEST_MYSQL_PASSWORD").orElse("");
  }

  @Override
  String setSessionTimeZone() {
    // Named zones need the server's time zone tables, which a default install lacks.
    return "SET time_zone = '+05:30'";
  }

  @Override
  String readSessionTimeZone() {
    return "SELECT @@session.time_zone";
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
    return !MYSQL; // MariaDB 10.5 and newer
  }
}
