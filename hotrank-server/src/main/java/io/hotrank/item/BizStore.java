package io.hotrank.item;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The bizes an admin created, in {@code hr_biz} (name, created_at as epoch milliseconds). The
 * configured bizes are not stored here: they are known from the configuration on every start.
 */
@Repository
class BizStore {

  private final JdbcTemplate jdbc;

  BizStore(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /** Every stored biz with its creation time (epoch ms; 0 if it had items before the table). */
  Map<String, Long> all() {
    Map<String, Long> all = new LinkedHashMap<>();
    jdbc.query(
        "SELECT name, created_at FROM hr_biz ORDER BY name",
        rs -> {
          all.put(rs.getString(1), rs.getLong(2));
        });
    return all;
  }

  /** Stores a biz; false if it was stored already (by this or another instance). */
  boolean insert(String name, long createdAt) {
    try {
      return jdbc.update("INSERT INTO hr_biz (name, created_at) VALUES (?, ?)", name, createdAt)
          == 1;
    } catch (DuplicateKeyException exists) {
      return false;
    }
  }
}
