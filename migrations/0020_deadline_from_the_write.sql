-- A turn's deadline counts from when its write is done, not from when its
-- transaction began (api/src/tables/listing.rs, docs/live.md "How a timeout fires").
--
-- `now()` is the transaction's start. A write that waited (for a lock on `events`,
-- behind a slow insert) committed later than that, so the next player's clock had
-- already run for the wait when their turn reached them: a 3 s stall handed a 2 s turn
-- over already overdue. `clock_timestamp()` is read when the row is written, the last
-- statement of the write before its commit; a wait for this row behind another writer
-- re-reads it (PostgreSQL evaluates the update again on the row the other one left).
-- Same signature, so a server of the previous release keeps calling it unchanged.
CREATE OR REPLACE FUNCTION project_table_listing(
    p_table       bigint,
    p_status      text,
    p_free_seats  smallint,
    p_version     bigint,
    p_waiting_on  smallint,
    p_deadline_ms bigint
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE game_tables
    SET status = p_status, free_seats = p_free_seats, version = p_version,
        waiting_on = p_waiting_on,
        updated_at = clock_timestamp(),
        deadline_at = clock_timestamp() + make_interval(secs => p_deadline_ms / 1000.0),
        deadline_claimed_until = NULL
    WHERE id = p_table AND version < p_version;
END;
$$;
