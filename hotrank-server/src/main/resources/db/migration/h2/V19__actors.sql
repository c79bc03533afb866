-- Actors (io.hotrank.trust.ActorStore): one row per events' userId that the platform described
-- (PUT /api/v1/actors/{userId}) or an operator flagged. Instants are BIGINT epoch milliseconds;
-- created_at is null for an actor only an operator flagged. flag_reason is null unless flagged.
-- Keep in step with the other dialects' V19.
CREATE TABLE hr_actor (
  user_id     BIGINT       NOT NULL,
  created_at  BIGINT,
  bot         BOOLEAN      DEFAULT FALSE NOT NULL,
  trust       DOUBLE PRECISION DEFAULT 1 NOT NULL,
  flag_reason VARCHAR(500),
  flagged_by  VARCHAR(64),
  flagged_at  BIGINT,
  updated_at  BIGINT       NOT NULL,
  PRIMARY KEY (user_id)
);

-- The console's "flagged last" (flagged_at is null unless flagged).
CREATE INDEX hr_actor_flagged ON hr_actor (flagged_at, user_id);
