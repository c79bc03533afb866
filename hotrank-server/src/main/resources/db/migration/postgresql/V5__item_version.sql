-- The item cache's versions. hr_item.version is raised by every edit and by the deletion, so
-- that a cache write of an older read can be refused.
ALTER TABLE hr_item ADD COLUMN version BIGINT DEFAULT 1 NOT NULL;
-- The fold that last wrote the counters: the counters cache's version (io.hotrank.item).
ALTER TABLE hr_item_counter ADD COLUMN fold_no BIGINT DEFAULT 0 NOT NULL;
