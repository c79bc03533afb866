-- Retries that never count twice. Keep in step with the other dialects' V17. Instants are BIGINT
-- epoch milliseconds, as in V1.

-- Idempotency keys (io.hotrank.idempotency.IdempotencyStore): one row per key a client sent on a
-- write. id is the SHA-256 (hex) of the client's scope and the key, so that neither a client's API
-- key nor its idempotency key is stored; fingerprint the SHA-256 of the request (method, path,
-- body). A row is pending (state 0) while its first request runs, held by token until lease_until;
-- done (state 1) once the answer is recorded (in the write's own transaction where the write is to
-- this database). Rows older than hotrank.idempotency.retention are pruned.
CREATE TABLE hr_idempotency (
  id          VARCHAR(64)  NOT NULL,
  fingerprint VARCHAR(64)  NOT NULL,
  token       VARCHAR(36)  NOT NULL,
  state       SMALLINT     NOT NULL,
  lease_until BIGINT       NOT NULL,
  status      INT,
  headers     VARCHAR(2000),
  body        MEDIUMTEXT,
  created_at  BIGINT       NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE INDEX hr_idempotency_age ON hr_idempotency (created_at);

-- Event ids (io.hotrank.ingest.fold.EventIds): one row per (biz, id) of an event accepted with an
-- id, written in the transaction that appends it (the event log) or folds it (Kafka); an event
-- whose (biz, id) has a row is a duplicate. Rows older than hotrank.ingest.dedup-window are pruned.
CREATE TABLE hr_event_id (
  biz      VARCHAR(32) NOT NULL,
  event_id VARCHAR(64) NOT NULL,
  seen_at  BIGINT      NOT NULL,
  PRIMARY KEY (biz, event_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE INDEX hr_event_id_age ON hr_event_id (seen_at);
