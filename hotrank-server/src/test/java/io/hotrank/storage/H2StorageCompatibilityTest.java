package io.hotrank.storage;

/** The storage compatibility suite on H2, as the embedded default runs it: a file database. */
class H2StorageCompatibilityTest extends StorageCompatibilityTest {

  @Override
  String engine() {
    return "H2";
  }

  @Override
  String url() {
    return "jdbc:h2:file:./target/test-data/compat/h2-" + unique();
  }

  @Override
  String user() {
    return "sa";
  }

  @Override
  String password() {
    return "";
  }

  @Override
  String setSessionTimeZone() {
    return "SET TIME ZONE '" + SESSION_ZONE_NAME + "'";
  }

  @Override
  String readSessionTimeZone() {
    return "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'TIME ZONE'";
  }

  @Override
  String expectedDialect() {
    return "H2";
  }

  @Override
  boolean expectsSkipLocked() {
    return true;
  }

  @Override
  boolean expectsInsertIgnoringDuplicates() {
    return false;
  }

  @Override
  boolean expectsReturning() {
    return false;
  }
}
