-- Second chances (io.hotrank.board.control.ControlService): an operator restarts an item's age on a
-- board for one window, once per item and board. The control is a row of hr_board_control (its
-- action now up to 16 characters: second-chance); hr_second_chance keeps that it was given after the
-- control lapses, its primary key refusing a second one on any instance. Instants are BIGINT epoch
-- milliseconds, as in V1. Keep in step with the other dialects' V23.
ALTER TABLE hr_board_control ALTER COLUMN action TYPE VARCHAR(16);
CREATE TABLE hr_second_chance (
  board    VARCHAR(160) NOT NULL,
  item_id  BIGINT       NOT NULL,
  given_at BIGINT       NOT NULL,
  actor    VARCHAR(64)  NOT NULL,
  PRIMARY KEY (board, item_id)
);
