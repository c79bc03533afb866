-- What each event of a fold weighed (the trusted thousandths it added, in the order its source
-- reads the events back; see FoldWeights), so that a window board replayed from the log adds what
-- the counters took when the fold ran. Null for the folds committed before: replayed at full
-- weight.
ALTER TABLE hr_fold ADD COLUMN weights TEXT NULL;
