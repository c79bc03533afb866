package db.migration;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Fills {@code hr_item_tag} (created by V6) for the live items that existed before it, in keyset
 * pages of {@code hr_item}. In Java because splitting the stored tag list into rows has no portable
 * SQL across H2, MySQL and PostgreSQL.
 *
 * <p>One class for every engine, so it lives beside the engines' SQL folders ({@code
 * db/migration/<engine>}) rather than in one of them. Flyway scans only the detected engine's
 * folder, so it would not find this class by itself: {@code io.hotrank.storage} declares it as a
 * {@code JavaMigration} bean, which Spring Boot hands to Flyway, which runs it once, after V6, in
 * the migration's transaction.
 */
public class V7__IndexItemTags extends BaseJavaMigration {

  private static final int PAGE = 1000;

  @Override
  public void migrate(Context context) {
    JdbcTemplate jdbc =
        new JdbcTemplate(new SingleConnectionDataSource(context.getConnection(), true));
    String biz = "";
    long id = 0;
    while (true) {
      List<Object[]> page =
          jdbc.query(
              "SELECT biz, id, tags, created_at FROM hr_item WHERE deleted = ?"
                  + " AND (biz > ? OR (biz = ? AND id > ?)) ORDER BY biz, id LIMIT ?",
              (rs, i) ->
                  new Object[] {
                    rs.getString("biz"),
                    rs.getLong("id"),
                    rs.getString("tags"),
                    rs.getLong("created_at")
                  },
              false,
              biz,
              biz,
              id,
              PAGE);
      List<Object[]> rows = new ArrayList<>();
      for (Object[] item : page) {
        String tags = (String) item[2];
        if (!tags.isEmpty()) {
          for (String tag : new LinkedHashSet<>(List.of(tags.split(",")))) {
            rows.add(new Object[] {item[0], tag, item[3], item[1]});
          }
        }
      }
      if (!rows.isEmpty()) {
        jdbc.batchUpdate(
            "INSERT INTO hr_item_tag (biz, tag, created_at, item_id) VALUES (?, ?, ?, ?)", rows);
      }
      if (page.size() < PAGE) {
        return;
      }
      Object[] last = page.getLast();
      biz = (String) last[0];
      id = (Long) last[1];
    }
  }
}
