-- The durable event log (io.hotrank.ingest). Keep in step with the other dialects' V4.
-- POST /api/v1/events appends a batch here in one multi-row INSERT and answers 202 once it is
-- committed; the folder reads it in seq order and applies it once to the counters, the per-user
-- state and the Redis boards. Rows are pruned after the retention period.
CREATE TABLE hr_event_log (
  seq     BIGINT NOT NULL AUTO_INCREMENT,
  biz     VARCHAR(32) NOT NULL,
  item_id BIGINT      NOT NULL,
  -- EventType's code: 1 like, 2 unlike, 3 view, 4 comment, 5 share, 6 collect, 7 uncollect,
  -- 8 dislike.
  type    SMALLINT    NOT NULL,
  -- 0 when the event names no user.
  user_id BIGINT      NOT NULL,
  -- When the event happened (the client's at, else the time of receipt), epoch milliseconds.
  at_ms   BIGINT      NOT NULL,
  PRIMARY KEY (seq)
);

-- Where the folder stands. position: every row at or below it was folded, except the seqs of
-- open gaps (ranges "from-to@firstSeenMillis" joined by commas): a seq is allocated before its
-- transaction commits, so a row may become visible after a higher one has been folded; the
-- folder keeps looking for it there until the gap is older than hotrank.ingest.gap-timeout.
-- fold_no counts folds; the Redis side records the fold_no it has applied.
CREATE TABLE hr_fold_cursor (
  name       VARCHAR(64)  NOT NULL,
  position   BIGINT       NOT NULL,
  gaps       MEDIUMTEXT NOT NULL,
  fold_no    BIGINT       NOT NULL,
  updated_at BIGINT       NOT NULL,
  PRIMARY KEY (name)
);
INSERT INTO hr_fold_cursor (name, position, gaps, fold_no, updated_at) VALUES ('events', 0, '', 0, 0);

-- One row per fold: the seqs it applied that changed a counter (ranges "from-to" joined by
-- commas), so that a Redis side that fell behind (or lost its data) replays exactly those folds;
-- and the position after it, which the pruning of the log goes by.
CREATE TABLE hr_fold (
  fold_no   BIGINT        NOT NULL,
  seqs      MEDIUMTEXT NOT NULL,
  position  BIGINT        NOT NULL,
  folded_at BIGINT        NOT NULL,
  PRIMARY KEY (fold_no)
);
-- Replays start from the first fold of a time; pruning deletes by time.
CREATE INDEX hr_fold_time ON hr_fold (folded_at);
