-- The poller looks for triggered tasks at every poll: an index keeps that from reading the whole
-- table. Keep in step with the other dialects' V13.
CREATE INDEX hr_task_triggered ON hr_task (triggered);
