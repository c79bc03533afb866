-- Review (io.hotrank.review.ReviewStore, docs/design/trust.md). An operator's decision on an item
-- (subject 'item', its biz) or on an author (subject 'author', biz ''): status APPROVED, REJECTED, or
-- PENDING (back to review, overriding an author's approval for one item). Instants are BIGINT epoch
-- milliseconds. Keep in step with the other dialects' V21.
CREATE TABLE hr_review_decision (
  subject    VARCHAR(8)   NOT NULL,
  biz        VARCHAR(32)  NOT NULL,
  subject_id BIGINT       NOT NULL,
  status     VARCHAR(16)  NOT NULL,
  reason     VARCHAR(500),
  decided_by VARCHAR(64)  NOT NULL,
  decided_at BIGINT       NOT NULL,
  PRIMARY KEY (subject, biz, subject_id)
);

-- The review queue: an item a board holds for review and would list at would_rank, with the
-- evidence (JSON) of its last publish; since is when it was first queued on that board (a board
-- key: its name, or <name>/<segment>). A decision on the item or its author takes it out.
CREATE TABLE hr_review_queue (
  board      VARCHAR(160) NOT NULL,
  item_id    BIGINT       NOT NULL,
  biz        VARCHAR(32)  NOT NULL,
  author_id  BIGINT       NOT NULL,
  would_rank INT          NOT NULL,
  evidence   VARCHAR(4000) NOT NULL,
  since      BIGINT       NOT NULL,
  seen_at    BIGINT       NOT NULL,
  PRIMARY KEY (board, item_id)
);

CREATE INDEX hr_review_queue_item ON hr_review_queue (biz, item_id);
CREATE INDEX hr_review_queue_author ON hr_review_queue (author_id);
