-- Announcing an append after its commit (api/src/live/heads.rs).
--
-- A NOTIFY inside a transaction makes PostgreSQL hold a database-wide lock from the
-- start of the commit until the commit is flushed to disk, so every append committed
-- alone. The writers that know their stream now announce its head themselves once the
-- commit has returned, and ask this trigger to leave that stream alone by naming it in
-- the transaction-local setting `yaniv.caller_notifies`. Every other append (a table
-- created inside a tournament's transaction, a hook's write to another stream, a tool
-- writing without a server) is still notified here, at commit, as before.
CREATE OR REPLACE FUNCTION events_notify_heads() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('yaniv_streams', heads.stream_id || ':' || heads.version)
    FROM (
        SELECT stream_id, max(version) AS version FROM appended GROUP BY stream_id
    ) AS heads
    WHERE heads.stream_id IS DISTINCT FROM current_setting('yaniv.caller_notifies', true);
    RETURN NULL;
END;
$$;

-- `append_table_write` (migration 0013) for a caller that announces the head itself.
-- A function of its own rather than a new parameter: a server of the previous release,
-- still running beside this one during an upgrade, keeps calling the old signature.
CREATE FUNCTION append_table_write_caller_notifies(
    p_table           bigint,
    p_stream          text,
    p_expected        bigint,
    p_expected_hash   bytea,
    p_actor           text,
    p_request_id      text,
    p_idempotency_key text,
    p_recorded_at     timestamptz,
    p_versions        bigint[],
    p_types           text[],
    p_payloads        text[],
    p_prev_hashes     bytea[],
    p_hashes          bytea[],
    p_status          text,
    p_free_seats      smallint,
    p_waiting_on      smallint,
    p_deadline_ms     bigint,
    p_fingerprint     bytea,
    p_response_status smallint,
    p_response_body   bytea
) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('yaniv.caller_notifies', p_stream, true);
    RETURN append_table_write(
        p_table, p_stream, p_expected, p_expected_hash, p_actor, p_request_id,
        p_idempotency_key, p_recorded_at, p_versions, p_types, p_payloads,
        p_prev_hashes, p_hashes, p_status, p_free_seats, p_waiting_on, p_deadline_ms,
        p_fingerprint, p_response_status, p_response_body);
END;
$$;
