-- The event log's side of the Kafka source benchmark's fold (bench/kafka-source.sh): rows 1..n of
-- hr_event_log are the same events as bench/kafka/EventLoad.java's backlog records 1..n (item
-- (i * 2654435761 mod 2^32) mod items + 1 of biz article; a like of user (i * 48271) mod 1,000,000
-- + 1 when i mod 10 < 3, else a view), in one INSERT, on a database the service has migrated and
-- whose event log is empty. Type codes as in V4__event_log.sql: 1 like, 3 view.
--
--   psql -v ON_ERROR_STOP=1 -v n=5000000 -v items=100000 -v now_ms=$(date +%s%3N) \
--        -f bench/kafka/event-log.sql
\set ON_ERROR_STOP on
INSERT INTO hr_event_log (biz, item_id, type, user_id, at_ms)
SELECT 'article',
       (i * 2654435761) % 4294967296 % :items::bigint + 1,
       CASE WHEN i % 10 < 3 THEN 1 ELSE 3 END,
       CASE WHEN i % 10 < 3 THEN (i * 48271) % 1000000 + 1 ELSE 0 END,
       :now_ms::bigint
  FROM generate_series(1::bigint, :n::bigint) AS i
 ORDER BY i;
-- Statistics for the folder's reads, as autovacuum would gather them; hint bits and the
-- visibility map are left to the folder's first read, as for rows appended by the service.
ANALYZE hr_event_log;
