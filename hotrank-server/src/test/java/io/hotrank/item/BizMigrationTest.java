package io.hotrank.item;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The migration that adds {@code hr_biz} keeps every biz that had items before it known: an upgrade
 * must not turn existing items into 404s. On H2; the three dialects' V8 are kept in step.
 */
class BizMigrationTest {

  @Test
  void theBizesOfExistingItems_areStoredAsCreated_atTimeZero() {
    DriverManagerDataSource dataSource =
        new DriverManagerDataSource(
            "jdbc:h2:mem:biz-migration-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");
    Flyway.configure()
        .dataSource(dataSource)
        .locations("classpath:db/migration/h2")
        .target("6")
        .load()
        .migrate();
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    jdbc.update("INSERT INTO hr_id_sequence (biz, next_id) VALUES ('legacy', 5), ('older', 2)");

    Flyway.configure()
        .dataSource(dataSource)
        .locations("classpath:db/migration/h2")
        .load()
        .migrate();

    Map<String, Long> stored = new BizStore(jdbc).all();
    assertThat(stored).containsExactlyInAnyOrderEntriesOf(Map.of("legacy", 0L, "older", 0L));
    assertThat(new BizStore(jdbc).insert("legacy", 1)).isFalse();
    assertThat(new BizStore(jdbc).insert("fresh", 1)).isTrue();
  }
}
