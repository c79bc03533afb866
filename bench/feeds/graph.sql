-- The graph and items of the following-feed benchmark (bench/feeds.sh), in PostgreSQL.
-- Variables: users (100000), authors (2000), readers (64), follows (500: authors each reader
-- follows), per_author (items each author posts, 10), now_ms.
--
-- Follower counts are Zipf(1.1) over the users: author r (1-based) has floor(users / r^1.1)
-- followers (author 1: all of them). Only the readers' follows are rows of hr_follow; the other
-- followers exist as counts (hr_follow_count), which is all that decides whether an author's
-- items are pushed or pulled. Each reader follows `follows` distinct authors drawn with weight
-- 1 / r^1.1, so every reader follows the biggest authors, as on a real site. Authors are users
-- users+1 .. users+authors; readers are users 1 .. readers. Deterministic (setseed).
\set ON_ERROR_STOP on
SELECT setseed(0.42);
TRUNCATE hr_follow, hr_follow_count, hr_item, hr_item_counter, hr_item_tag, hr_item_outbox;
INSERT INTO hr_follow_count (user_id, following, followers)
SELECT :users + r, 0, floor(:users / power(r, 1.1))::bigint FROM generate_series(1, :authors) r;
-- Zipf draw without replacement: order authors by -ln(u) * r^1.1 (exponential races).
INSERT INTO hr_follow (user_id, author_id, created_at)
SELECT u, :users + r, :now_ms - 86400000
FROM generate_series(1, :readers) u
CROSS JOIN LATERAL (
  SELECT r FROM generate_series(1, :authors) r
  ORDER BY -ln(random()) * power(r, 1.1) + 0 * u LIMIT :follows) chosen;
INSERT INTO hr_follow_count (user_id, following, followers)
SELECT u, :follows, 0 FROM generate_series(1, :readers) u;
-- Items: per author, spread over the last day, ids unique over all authors.
INSERT INTO hr_item (biz, id, author_id, title, tags, created_at, updated_at, deleted, version)
SELECT 'post', (r - 1) * :per_author + k, :users + r, 'post ' || r || '/' || k, '',
       :now_ms - (random() * 86400000)::bigint, :now_ms, false, 1
FROM generate_series(1, :authors) r, generate_series(1, :per_author) k;
INSERT INTO hr_item_counter (biz, item_id, created_at, deleted, updated_at, author_id, tags)
SELECT biz, id, created_at, false, :now_ms, author_id, tags FROM hr_item;
INSERT INTO hr_id_sequence (biz, next_id) VALUES ('post', :authors * :per_author + 1)
ON CONFLICT (biz) DO UPDATE SET next_id = EXCLUDED.next_id;
ANALYZE;
