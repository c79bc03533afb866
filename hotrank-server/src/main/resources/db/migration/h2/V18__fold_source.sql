-- Each fold's record names the source that folded it ("log" or "kafka"), which reads it back.
ALTER TABLE hr_fold ADD COLUMN source VARCHAR(32) NOT NULL DEFAULT 'log';
UPDATE hr_fold SET source = 'kafka' WHERE seqs LIKE 'kafka|%';
