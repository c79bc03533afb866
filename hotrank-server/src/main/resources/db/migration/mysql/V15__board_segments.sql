-- Segment boards (io.hotrank.board.SegmentBy): a board with segment-by set is a family of boards, one
-- per tag, author or attribute value, each stored under the key "<board>/<segment>" in the tables
-- keyed by board name: its snapshot, its controls and their lock row. The longest key is a 64-
-- character board name, the slash and a 64-character attribute value (tags have at most 32
-- characters, author ids 16 digits): 129 characters. hr_board_snapshot gains the family and the
-- segment of a segment board (null for a plain board) and its number of entries, which list a
-- family's segments, most entries first, from one index. Keep in step with the other dialects' V15.
ALTER TABLE hr_board_snapshot MODIFY board VARCHAR(160) NOT NULL;
ALTER TABLE hr_board_snapshot ADD COLUMN family VARCHAR(64) NULL;
ALTER TABLE hr_board_snapshot ADD COLUMN segment VARCHAR(64) NULL;
ALTER TABLE hr_board_snapshot ADD COLUMN entries INT DEFAULT 0 NOT NULL;
CREATE INDEX hr_board_snapshot_family ON hr_board_snapshot (family, entries, board);
ALTER TABLE hr_board_control MODIFY board VARCHAR(160) NOT NULL;
ALTER TABLE hr_board_control_lock MODIFY board VARCHAR(160) NOT NULL;
