-- The Kafka event source (io.hotrank.ingest.kafka.KafkaFoldStore): where the folds stand in each
-- partition of the events' topic, and how many records went to the dead-letter topic, by reason.
-- A fold writes its partitions' rows in the transaction that applies their records, so the
-- counters and the positions never disagree; Kafka's committed offsets are informational only.
-- Keep in step with the other dialects' V11. Instants are BIGINT epoch milliseconds, as in V1.
CREATE TABLE hr_kafka_position (
  topic      VARCHAR(191) NOT NULL,
  part       INT          NOT NULL,
  position   BIGINT       NOT NULL,
  owner      VARCHAR(128) NOT NULL,
  updated_at BIGINT       NOT NULL,
  PRIMARY KEY (topic, part)
);

-- Counted in the transaction of the fold that sent them: a count is exact whichever instance
-- answers, and survives restarts.
CREATE TABLE hr_kafka_dead_letter (
  topic  VARCHAR(191) NOT NULL,
  reason VARCHAR(40)  NOT NULL,
  n      BIGINT       NOT NULL,
  PRIMARY KEY (topic, reason)
);

-- Records of items that did not exist when they were folded (the item may be being created): kept
-- here, outside the partition's order, and folded by the partition's folder once the item exists,
-- or sent to the dead-letter topic once hotrank.ingest.kafka.item-grace has passed since parked_at.
-- A row is deleted in the transaction that folds or dead-letters it.
CREATE TABLE hr_kafka_parked (
  topic         VARCHAR(191) NOT NULL,
  part          INT          NOT NULL,
  record_offset BIGINT       NOT NULL,
  record_ts     BIGINT       NOT NULL,
  record_key    VARCHAR(400),
  record_value  CLOB         NOT NULL,
  parked_at     BIGINT       NOT NULL,
  PRIMARY KEY (topic, part, record_offset)
);

-- The folder takes the oldest parked records first.
CREATE INDEX hr_kafka_parked_age ON hr_kafka_parked (topic, parked_at);
