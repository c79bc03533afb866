-- The bizes an admin created (io.hotrank.item.Bizes); configured ones (hotrank.bizes and the
-- boards' bizes) are not stored. Keep in step with the other dialects' V8. Instants are BIGINT
-- epoch milliseconds, as in V1.
CREATE TABLE hr_biz (
  name       VARCHAR(32) NOT NULL,
  created_at BIGINT      NOT NULL,
  PRIMARY KEY (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Every biz that already has items stays readable and writable after the upgrade: it counts as
-- created by an admin, at created_at 0 (before this table existed).
INSERT INTO hr_biz (name, created_at)
SELECT biz, 0 FROM hr_id_sequence;
