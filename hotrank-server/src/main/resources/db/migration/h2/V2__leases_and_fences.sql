-- Leases (io.hotrank.lock) and the fencing token of published boards. Keep in step with the other
-- dialects' V2. Times are epoch milliseconds read from the database's own clock.

-- One row per lease name, kept after release: the fence counter only grows, so a holder's token is
-- always higher than every earlier holder's. owner is '' and expires_at 0 while free.
CREATE TABLE hr_lease (
  name       VARCHAR(128) NOT NULL,
  owner      VARCHAR(160) NOT NULL,
  fence      BIGINT       NOT NULL,
  expires_at BIGINT       NOT NULL,
  cycle      BIGINT       DEFAULT 0 NOT NULL,
  PRIMARY KEY (name)
);

-- The highest fencing token that has published each board: a lower one is refused.
ALTER TABLE hr_board_snapshot ADD COLUMN fence BIGINT DEFAULT 0 NOT NULL;
