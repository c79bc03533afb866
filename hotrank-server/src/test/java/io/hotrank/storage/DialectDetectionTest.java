package io.hotrank.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DialectDetectionTest {

  @Test
  void mariaDb_throughItsOwnDriver_isReadFromTheReportedVersion() {
    SqlDialect dialect = StorageConfiguration.of("MariaDB", "10.11.19-MariaDB-0+deb12u1", 10, 11);
    assertThat(dialect.name()).isEqualTo("MariaDB");
    assertThat(dialect.supportsSkipLocked()).isTrue();
    assertThat(dialect.supportsReturning()).isTrue();
  }

  @Test
  void mariaDb_throughMySqlsDriver_isRecognisedByItsVersionText_notTheReported55() {
    SqlDialect dialect = StorageConfiguration.of("MySQL", "5.5.5-10.11.6-MariaDB", 5, 5);
    assertThat(dialect.name()).isEqualTo("MariaDB");
    assertThat(dialect.supportsSkipLocked()).isTrue();
    assertThat(dialect.supportsReturning()).isTrue();
  }

  @Test
  void olderMariaDb_andMySql_reportWhatTheyLack() {
    SqlDialect mariaDb105 = StorageConfiguration.of("MariaDB", "10.5.9-MariaDB", 10, 5);
    assertThat(mariaDb105.supportsSkipLocked()).isFalse();
    assertThat(mariaDb105.supportsReturning()).isTrue();
    SqlDialect mysql57 = StorageConfiguration.of("MySQL", "5.7.44", 5, 7);
    assertThat(mysql57.name()).isEqualTo("MySQL");
    assertThat(mysql57.supportsSkipLocked()).isFalse();
    SqlDialect mysql8 = StorageConfiguration.of("MySQL", "8.0.36", 8, 0);
    assertThat(mysql8.supportsSkipLocked()).isTrue();
    assertThat(mysql8.supportsReturning()).isFalse();
  }

  @Test
  void anUnsupportedEngine_isRefusedByName() {
    assertThatThrownBy(() -> StorageConfiguration.of("Oracle", "19c", 19, 0))
        .hasMessageContaining("Unsupported database 'Oracle'");
  }
}
