-- Generates the items of the ranking benchmark (biz 'bench') in PostgreSQL.
--
--   psql -h 127.0.0.1 -U postgres -d hotrank_bench -v ON_ERROR_STOP=1 \
--        -v n=1000000 -v now_ms=$(date +%s%3N) -f bench/generate-items.sql
--
-- Variables:
--   n          number of live items wanted (required)
--   now_ms     generation time, epoch milliseconds (required)
--   window_ms  the board window; default 30 days
--   margin_ms  the oldest item is created this long after now_ms - window_ms, so every item
--              stays inside the window for that long after generation; default 12 hours
--
-- The tables must exist (the application's Flyway migrations create them). Data is kept when
-- there are exactly n 'bench' items, all live and all inside the window as of now_ms;
-- otherwise every 'bench' item is replaced. The generated data is deterministic (setseed).
--
-- Shape: ids 1..n with created_at increasing with the id (as items arrive over time), evenly
-- spread over [now_ms - window_ms + margin_ms, now_ms], repeated with deleted = false in each
-- item's hr_item_counter row with its author and tags (as the application keeps them); titles of 40 characters; counters with
-- a heavy (Pareto, alpha 1.2) tail: half the items have at most one like, a few hundred have
-- more than a thousand.

\set ON_ERROR_STOP on
\if :{?n}
\else
  \echo 'generate-items.sql: pass -v n=<items>'
  \quit
\endif
\if :{?now_ms}
\else
  \echo 'generate-items.sql: pass -v now_ms=<epoch millis>'
  \quit
\endif
\if :{?window_ms}
\else
  \set window_ms 2592000000
\endif
\if :{?margin_ms}
\else
  \set margin_ms 43200000
\endif

-- The counters must carry their item's created_at, deleted and author (the ranking scan reads them
-- there), so a counter whose copies disagree with its item makes the data be generated again.
SELECT (SELECT count(*) FROM hr_item WHERE biz = 'bench') = :n
   AND (SELECT count(*) FROM hr_item_counter WHERE biz = 'bench') = :n
   AND (SELECT count(*)
          FROM hr_item i JOIN hr_item_counter c ON c.biz = i.biz AND c.item_id = i.id
         WHERE i.biz = 'bench' AND NOT i.deleted
           AND c.created_at = i.created_at AND c.deleted = i.deleted
           AND c.author_id = i.author_id
           AND i.created_at >= :now_ms::bigint - :window_ms::bigint
           AND i.created_at <= :now_ms::bigint) = :n
       AS bench_items_ok \gset

\if :bench_items_ok
  \echo generate-items.sql: :n bench items present inside the window, keeping them
\else
  \echo generate-items.sql: generating :n bench items
  SELECT NOT EXISTS (SELECT 1 FROM hr_item WHERE biz <> 'bench')
     AND NOT EXISTS (SELECT 1 FROM hr_item_counter WHERE biz <> 'bench') AS only_bench \gset
  \if :only_bench
    TRUNCATE hr_item, hr_item_counter;
  \else
    DELETE FROM hr_item_counter WHERE biz = 'bench';
    DELETE FROM hr_item WHERE biz = 'bench';
  \endif
  DELETE FROM hr_user_action WHERE biz = 'bench';

  BEGIN;
  SELECT setseed(0.4242) AS seed \gset

  INSERT INTO hr_item (biz, id, author_id, title, tags, created_at, updated_at, deleted)
  SELECT 'bench', g, 1 + (g * 7919) % 50000,
         'Bench item ' || to_char(g, 'FM0000000') || ' ' || substr(md5(g::text), 1, 21),
         'bench,t' || (g % 20),
         t, t, false
    FROM (SELECT g, :now_ms::bigint - :window_ms::bigint + :margin_ms::bigint
                    + ((g - 1) * ((:window_ms::bigint - :margin_ms::bigint)::numeric / :n))::bigint AS t
            FROM generate_series(1::bigint, :n) AS g) s;

  -- created_at, deleted, author_id and tags repeat the item's (the same expressions as above).
  INSERT INTO hr_item_counter
         (biz, item_id, created_at, deleted, author_id, tags,
          like_cnt, view_cnt, comment_cnt, share_cnt, collect_cnt, dislike_cnt, updated_at)
  SELECT 'bench', s.g, s.t, false, 1 + (s.g * 7919) % 50000, 'bench,t' || (s.g % 20), s.likes,
         floor(s.likes * (5 + 45 * random()))::bigint + floor(power(1.0 - random(), -1.0 / 1.5))::bigint,
         floor(s.likes * 0.2 * random())::bigint,
         floor(s.likes * 0.05 * random())::bigint,
         floor(s.likes * 0.1 * random())::bigint,
         floor(power(1.0 - random(), -1.0 / 2.0))::bigint - 1,
         :now_ms::bigint
    FROM (SELECT g, :now_ms::bigint - :window_ms::bigint + :margin_ms::bigint
                    + ((g - 1) * ((:window_ms::bigint - :margin_ms::bigint)::numeric / :n))::bigint AS t,
                 least(floor(power(1.0 - random(), -1.0 / 1.2))::bigint - 1, 10000000) AS likes
            FROM generate_series(1::bigint, :n) AS g) s;
  COMMIT;

  -- Sets hint bits and the visibility map, and gives the planner fresh statistics.
  VACUUM (ANALYZE) hr_item;
  VACUUM (ANALYZE) hr_item_counter;
  \echo 'generate-items.sql: done'
\endif
