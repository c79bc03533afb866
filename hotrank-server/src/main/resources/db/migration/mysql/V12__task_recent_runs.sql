-- hotrank.task.history=failures (the default) keeps each task's last successful runs in a ring:
-- slot = run_count mod hotrank.task.history-keep, overwritten in place. run_count counts the
-- successful runs written there.
ALTER TABLE hr_task ADD COLUMN run_count BIGINT NOT NULL DEFAULT 0;

CREATE TABLE hr_task_recent (
  task_name   VARCHAR(128)  NOT NULL,
  slot        INT           NOT NULL,
  fire_time   BIGINT        NOT NULL,
  started_at  BIGINT        NOT NULL,
  ended_at    BIGINT        NOT NULL,
  outcome     VARCHAR(16)   NOT NULL,
  owner       VARCHAR(160)  NOT NULL,
  fence       BIGINT        NOT NULL,
  attempt     INT           NOT NULL,
  manual      SMALLINT      NOT NULL,
  error       VARCHAR(1000),
  PRIMARY KEY (task_name, slot)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
