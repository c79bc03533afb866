-- The poller looks for triggered tasks at every poll: an index keeps that from reading the whole
-- table. Keep in step with the other dialects' V13. InnoDB changes a secondary index only when its
-- column changes, which a claim or a completion seldom does here.
CREATE INDEX hr_task_triggered ON hr_task (triggered);
