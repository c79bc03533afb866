package db.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hotrank.storage.SqlDialect;
import io.hotrank.support.TestDatabase;
import io.hotrank.support.TestEngines;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * {@link V7__IndexItemTags} on a database the service created before V7: the schema is migrated up
 * to V6 with Flyway's {@code target}, items are written as the service wrote them then (tags only
 * in {@code hr_item.tags}, no {@code hr_item_tag} rows), and the rest is migrated as the service
 * migrates: the engine's SQL location plus the Java migration (which the service hands to Flyway as
 * a bean). Later migrations that copy data run over the same old rows ({@code V16}, the labels on
 * the counters). One subclass per engine; each test uses a schema of its own, dropped afterwards.
 */
abstract class IndexItemTagsMigrationContract {

  /** More than two of the migration's keyset pages of 1000, across two biz names. */
  private static final int ITEMS_PER_BIZ = 1_300;

  final String schema = "hr_v7_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

  private HikariDataSource dataSource;
  private JdbcTemplate jdbc;
  private Flyway flyway;

  /** The engine, its connection settings and its name for the report. */
  abstract TestDatabase database();

  /** The statement that makes a connection use {@link #schema}, or null where the URL does. */
  abstract @Nullable String useSchema(String schema);

  /** Creates {@link #schema} (nothing to do where the URL makes a fresh database). */
  abstract void createSchema();

  /** Drops {@link #schema} and everything in it. */
  abstract void dropSchema();

  /** A data source whose connections use {@link #schema}, created by {@link #createSchema}. */
  HikariConfig connectTo(String schema) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(database().url());
    config.setUsername(database().user());
    config.setPassword(database().password());
    config.setConnectionInitSql(useSchema(schema));
    return config;
  }

  /** A connection to the configured database itself, to create and drop schemas. */
  JdbcTemplate admin() {
    return new JdbcTemplate(
        new DriverManagerDataSource(database().url(), database().user(), database().password()));
  }

  @BeforeEach
  void migrateToV6() {
    assumeTrue(database().isAvailable(), database().skipReason());
    TestEngines.exercised(database().engine());
    createSchema();
    HikariConfig config = connectTo(schema);
    config.setMaximumPoolSize(2);
    config.setPoolName("v7-" + database().engine());
    dataSource = new HikariDataSource(config);
    jdbc = new JdbcTemplate(dataSource);
    FluentConfiguration service =
        Flyway.configure()
            .dataSource(dataSource)
            .locations(SqlDialect.detect(dataSource).migrationLocation())
            .javaMigrations(new V7__IndexItemTags());
    new FluentConfiguration()
        .configuration(service)
        .target(MigrationVersion.fromVersion("6"))
        .load()
        .migrate();
    flyway = service.load();
  }

  @AfterEach
  void drop() {
    if (dataSource != null) {
      dataSource.close();
    }
    if (database().isAvailable()) {
      dropSchema();
    }
  }

  @Test
  void migrate_indexesEachLiveItemsTagsOnce_acrossPagesAndBizNames() {
    List<String> expected = new ArrayList<>();
    List<Object[]> items = new ArrayList<>();
    for (String biz : List.of("video", "article")) {
      for (long id = 1; id <= ITEMS_PER_BIZ; id++) {
        long createdAt = 1_700_000_000_000L + id * 1000;
        boolean deleted = id % 10 == 0;
        String tags =
            switch ((int) (id % 4)) {
              case 0 -> "";
              case 1 -> "all";
              case 2 -> "all,even";
              default -> "odd,all,odd"; // a repeated tag is indexed once
            };
        items.add(new Object[] {biz, id, 7L, "t" + id, tags, createdAt, createdAt, deleted});
        if (!deleted && !tags.isEmpty()) {
          for (String tag : new java.util.LinkedHashSet<>(List.of(tags.split(",")))) {
            expected.add(biz + "|" + tag + "|" + createdAt + "|" + id);
          }
        }
      }
    }
    jdbc.batchUpdate(
        "INSERT INTO hr_item (biz, id, author_id, title, tags, created_at, updated_at, deleted)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        items);
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM hr_item_tag", Long.class)).isZero();

    assertThat(flyway.migrate().migrationsExecuted).isGreaterThanOrEqualTo(1);

    List<String> indexed =
        jdbc.query(
            "SELECT biz, tag, created_at, item_id FROM hr_item_tag",
            (rs, i) ->
                rs.getString(1)
                    + "|"
                    + rs.getString(2)
                    + "|"
                    + rs.getLong(3)
                    + "|"
                    + rs.getLong(4));
    assertThat(indexed).hasSize(expected.size()).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(Arrays.stream(flyway.info().applied()).map(MigrationInfo::getVersion))
        .contains(MigrationVersion.fromVersion("7"));
  }

  /**
   * V16 on the same old database: each item's author, tags and version are copied onto its counter
   * row (attributes, which V14 added with a default, as that default), deleted items included.
   */
  @Test
  void migrate_copiesEachItemsLabelsOntoItsCounters() {
    List<Object[]> items = new ArrayList<>();
    List<Object[]> counters = new ArrayList<>();
    for (long id = 1; id <= 50; id++) {
      long createdAt = 1_700_000_000_000L + id;
      items.add(
          new Object[] {"video", id, 100 + id, "t", "x,y" + id, createdAt, createdAt, id % 7 == 0});
      counters.add(new Object[] {"video", id, createdAt, id % 7 == 0, createdAt});
    }
    jdbc.batchUpdate(
        "INSERT INTO hr_item (biz, id, author_id, title, tags, created_at, updated_at, deleted)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        items);
    jdbc.update("UPDATE hr_item SET version = 3 WHERE id = 5");
    jdbc.batchUpdate(
        "INSERT INTO hr_item_counter (biz, item_id, created_at, deleted, updated_at)"
            + " VALUES (?, ?, ?, ?, ?)",
        counters);

    flyway.migrate();

    List<String> copied =
        jdbc.query(
            "SELECT item_id, author_id, tags, attributes, item_version FROM hr_item_counter"
                + " ORDER BY item_id",
            (rs, i) ->
                rs.getLong(1)
                    + "|"
                    + rs.getLong(2)
                    + "|"
                    + rs.getString(3)
                    + "|"
                    + rs.getString(4)
                    + "|"
                    + rs.getLong(5));
    List<String> expected = new ArrayList<>();
    for (long id = 1; id <= 50; id++) {
      expected.add(id + "|" + (100 + id) + "|x,y" + id + "|{}|" + (id == 5 ? 3 : 1));
    }
    assertThat(copied).containsExactlyElementsOf(expected);
  }

  @Test
  void migrate_withNoItems_writesNoRows() {
    flyway.migrate();

    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM hr_item_tag", Long.class)).isZero();
    assertThat(Arrays.stream(flyway.info().applied()).map(MigrationInfo::getVersion))
        .contains(MigrationVersion.fromVersion("7"));
  }
}
