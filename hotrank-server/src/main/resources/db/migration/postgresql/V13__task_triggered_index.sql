-- The poller looks for triggered tasks at every poll: an index keeps that from reading the whole
-- table. Keep in step with the other dialects' V13. Partial: a claim or completion moves its row
-- to a new tuple (its status is indexed), and every full index would take a new entry each time;
-- this one holds only the few rows asked for.
CREATE INDEX hr_task_triggered ON hr_task (triggered) WHERE triggered = 1;
