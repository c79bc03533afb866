-- Operators' board controls (io.hotrank.board.publish.BoardControlStore): at most one per board
-- and item, pin at a position, boost by a factor, or block; read by every publish of the board
-- (one indexed query), written with its audit entry in one transaction. Keep in step with the
-- other dialects' V10. Instants are BIGINT epoch milliseconds, as in V1.
CREATE TABLE hr_board_control (
  board      VARCHAR(64)      NOT NULL,
  item_id    BIGINT           NOT NULL,
  action     VARCHAR(8)       NOT NULL,
  position   INT,
  factor     DOUBLE PRECISION,
  expires_at BIGINT,
  reason     VARCHAR(500)     NOT NULL,
  actor      VARCHAR(64)      NOT NULL,
  set_at     BIGINT           NOT NULL,
  PRIMARY KEY (board, item_id)
);

-- The expiry job finds lapsed controls of every board without scanning the others.
CREATE INDEX hr_board_control_expiry ON hr_board_control (expires_at);

-- One row per board, taken FOR UPDATE by every control change of the board: changes of one board
-- run one after another across instances, so the pin limit is checked against what is committed.
-- Rows are inserted on first use (boards live in configuration, not in the database).
CREATE TABLE hr_board_control_lock (
  board VARCHAR(64) NOT NULL,
  PRIMARY KEY (board)
);
