-- The items of the Kafka source benchmark (bench/kafka-source.sh), in PostgreSQL: articles 1..n
-- and probe 1, all live, created now, counters at zero, as if created through the API (hr_item and
-- its hr_item_counter row, which repeats created_at, deleted, author and tags). Run on a database the service
-- has migrated and not yet started on with this data (its item filter is built at start):
--
--   psql -v ON_ERROR_STOP=1 -v n=100000 -v now_ms=$(date +%s%3N) -f bench/kafka/items.sql
\set ON_ERROR_STOP on
BEGIN;
INSERT INTO hr_item (biz, id, author_id, title, tags, created_at, updated_at, deleted)
SELECT 'article', g, 1 + g % 97, 'item ' || g, '', :now_ms::bigint, :now_ms::bigint, false
  FROM generate_series(1::bigint, :n::bigint) AS g;
INSERT INTO hr_item (biz, id, author_id, title, tags, created_at, updated_at, deleted)
VALUES ('probe', 1, 1, 'item 1', '', :now_ms::bigint, :now_ms::bigint, false);
INSERT INTO hr_item_counter
       (biz, item_id, created_at, deleted, author_id, tags,
        like_cnt, view_cnt, comment_cnt, share_cnt, collect_cnt, dislike_cnt, updated_at)
SELECT biz, id, created_at, false, author_id, tags, 0, 0, 0, 0, 0, 0, :now_ms::bigint
  FROM hr_item;
COMMIT;
ANALYZE hr_item;
ANALYZE hr_item_counter;
