-- Trusted counters (issue 42): beside each raw counter of hr_item_counter, the same interactions
-- weighed by their actors (io.hotrank.ingest.fold.FoldApplier), in thousandths of an interaction so
-- that every weighted event adds an exact integer. What was counted before this migration weighed 1:
-- its trusted counters are the raw ones, times 1000.
-- hr_user_action gains, per (item, user, action): weight, what the row added to the trusted counter
-- (for like and collect, taken back exactly on unlike); counted, how many of the actor's
-- interactions of that type the trusted counter took (view, comment, share, dislike count at most
-- hotrank.trust.max-per-actor each). Keep in step with the other dialects' V20.
ALTER TABLE hr_item_counter ADD COLUMN like_trusted BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE hr_item_counter ADD COLUMN view_trusted BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE hr_item_counter ADD COLUMN comment_trusted BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE hr_item_counter ADD COLUMN share_trusted BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE hr_item_counter ADD COLUMN collect_trusted BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE hr_item_counter ADD COLUMN dislike_trusted BIGINT DEFAULT 0 NOT NULL;
UPDATE hr_item_counter SET like_trusted = like_cnt * 1000, view_trusted = view_cnt * 1000,
  comment_trusted = comment_cnt * 1000, share_trusted = share_cnt * 1000,
  collect_trusted = collect_cnt * 1000, dislike_trusted = dislike_cnt * 1000;
ALTER TABLE hr_user_action ADD COLUMN weight BIGINT DEFAULT 1000 NOT NULL;
ALTER TABLE hr_user_action ADD COLUMN counted INT DEFAULT 1 NOT NULL;
-- A flag takes back the actor's standing likes and collects (io.hotrank.ingest.fold.ActorRetraction):
-- found by user, not by item.
CREATE INDEX hr_user_action_user ON hr_user_action (user_id, action);
