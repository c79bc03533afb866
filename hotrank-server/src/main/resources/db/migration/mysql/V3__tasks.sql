-- The database task platform (io.hotrank.task). Keep in step with the other dialects' V3. Every
-- instant is BIGINT epoch milliseconds (UTC) read from the database's own clock, so instances
-- whose clocks disagree, and sessions in other time zones, read the same instant.

-- One row per task. A run claims its row by compare-and-set on version (the run's fencing token);
-- the owner renews heartbeat while it runs, and another instance takes over a running row whose
-- heartbeat is older than the heartbeat timeout.
CREATE TABLE hr_task (
  name                 VARCHAR(128)  NOT NULL,
  job                  VARCHAR(128)  NOT NULL,
  -- Either a cron expression evaluated in zone, or a fixed interval; neither: run on demand only.
  cron                 VARCHAR(120),
  zone                 VARCHAR(64)   DEFAULT 'UTC' NOT NULL,
  interval_ms          BIGINT,
  -- waiting, running or paused. paused = 1 is the operator's wish: a running row finishes its run
  -- and then turns paused.
  status               VARCHAR(16)   NOT NULL,
  paused               SMALLINT      DEFAULT 0 NOT NULL,
  -- A run was asked for (trigger): claimable now, paused or not.
  triggered            SMALLINT      DEFAULT 0 NOT NULL,
  next_time            BIGINT        NOT NULL,
  -- The fire time, start, attempt and kind of the run in progress (or the last one).
  fire_time            BIGINT        DEFAULT 0 NOT NULL,
  -- While a scheduled cycle is unfinished (a retry or a re-run is due): its fire time; else 0.
  cycle_time           BIGINT        DEFAULT 0 NOT NULL,
  -- When the schedule was last changed over the API: a run that started before keeps its hands
  -- off the next fire time the change set.
  rescheduled_at       BIGINT        DEFAULT 0 NOT NULL,
  started_at           BIGINT        DEFAULT 0 NOT NULL,
  manual               SMALLINT      DEFAULT 0 NOT NULL,
  attempt              INT           DEFAULT 0 NOT NULL,
  heartbeat            BIGINT        DEFAULT 0 NOT NULL,
  version              BIGINT        DEFAULT 0 NOT NULL,
  owner                VARCHAR(160)  DEFAULT '' NOT NULL,
  consecutive_failures INT           DEFAULT 0 NOT NULL,
  misfire              VARCHAR(16)   NOT NULL,
  timeout_ms           BIGINT        NOT NULL,
  max_retries          INT           NOT NULL,
  retry_backoff_ms     BIGINT        NOT NULL,
  parameters           VARCHAR(4000) DEFAULT '{}' NOT NULL,
  -- config: declared by a job's settings and reconciled at startup; api: created over HTTP.
  source               VARCHAR(8)    NOT NULL,
  created_at           BIGINT        NOT NULL,
  updated_at           BIGINT        NOT NULL,
  PRIMARY KEY (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX hr_task_due ON hr_task (status, next_time);

-- One row per finished (or abandoned) run, newest last.
CREATE TABLE hr_task_run (
  id          BIGINT NOT NULL AUTO_INCREMENT,
  task_name   VARCHAR(128)  NOT NULL,
  fire_time   BIGINT        NOT NULL,
  started_at  BIGINT        NOT NULL,
  ended_at    BIGINT        NOT NULL,
  -- succeeded, failed, timed-out, cancelled, rejected, abandoned (its owner stopped renewing and
  -- another instance took the run over), skipped (fire times passed over by the misfire policy)
  outcome     VARCHAR(16)   NOT NULL,
  owner       VARCHAR(160)  NOT NULL,
  fence       BIGINT        NOT NULL,
  attempt     INT           NOT NULL,
  manual      SMALLINT      NOT NULL,
  error       VARCHAR(1000),
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX hr_task_run_task ON hr_task_run (task_name, id);
CREATE INDEX hr_task_run_ended ON hr_task_run (ended_at);
