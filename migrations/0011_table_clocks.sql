-- Turn clocks. The listing projection sets `deadline_at` with every append to a table
-- whose clock runs (the time the table may wait on what it waits for now), NULL
-- otherwise. An instance about to fire a timeout claims the row for a short lease
-- (`deadline_claimed_until`) so that the others leave it alone; the timeout itself is
-- decided through the normal write path against the version it was due at, so two
-- instances firing the same deadline still append it only once.
ALTER TABLE game_tables
    ADD COLUMN deadline_at timestamptz,
    ADD COLUMN deadline_claimed_until timestamptz;

CREATE INDEX game_tables_deadline_idx ON game_tables (deadline_at)
    WHERE deadline_at IS NOT NULL;
