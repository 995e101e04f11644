-- A table's write in one statement (api/src/streams/one_statement.rs).
--
-- The usual write path is a transaction of five or more round trips: BEGIN, the events
-- after the cached head, the insert, the listing update, the idempotency record,
-- COMMIT. When the server holds the table's fold and the hash of its last event, it
-- decides the move without reading anything and sends the result here, in one
-- autocommitted call. The guards that the round trips gave are kept:
--   * the stored event at `p_expected` must have the hash the fold was chained from,
--     else nothing is written and the server falls back to the usual path (which
--     reads the stream and reports a corrupt one);
--   * the unique key (stream_id, version) refuses the insert when another writer got
--     version `p_expected + 1` first: SQLSTATE 23505 on events_stream_version_key,
--     the same conflict as in the usual path, and the whole call is rolled back;
--   * a request whose idempotency key is already recorded writes nothing and returns
--     `known_key` (the usual path replays the stored answer); a concurrent duplicate
--     that commits first makes the record's insert fail on its primary key, which
--     rolls the call back too.
-- The listing update is the one of api/src/tables/listing.rs `project`, for a table
-- whose seats do not change.
CREATE FUNCTION append_table_write(
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
    IF p_idempotency_key IS NOT NULL AND EXISTS (
        SELECT 1 FROM idempotency_records
        WHERE actor = p_actor AND idempotency_key = p_idempotency_key
    ) THEN
        RETURN 'known_key';
    END IF;

    IF NOT EXISTS (
        SELECT 1 FROM events
        WHERE stream_id = p_stream AND version = p_expected AND hash = p_expected_hash
    ) THEN
        RETURN 'head_moved';
    END IF;

    IF p_idempotency_key IS NOT NULL THEN
        INSERT INTO idempotency_records
            (actor, idempotency_key, request_fingerprint, response_status, response_body)
        VALUES (p_actor, p_idempotency_key, p_fingerprint, p_response_status, p_response_body);
    END IF;

    INSERT INTO events (stream_id, version, event_type, payload, actor, request_id,
                        idempotency_key, recorded_at, prev_hash, hash)
    SELECT p_stream, e.version, e.event_type, e.payload, p_actor, p_request_id,
           p_idempotency_key, p_recorded_at, e.prev_hash, e.hash
    FROM UNNEST(p_versions, p_types, p_payloads, p_prev_hashes, p_hashes)
         AS e(version, event_type, payload, prev_hash, hash);

    UPDATE game_tables
    SET status = p_status, free_seats = p_free_seats,
        version = p_expected + cardinality(p_versions), waiting_on = p_waiting_on,
        updated_at = now(),
        deadline_at = now() + make_interval(secs => p_deadline_ms / 1000.0),
        deadline_claimed_until = NULL
    WHERE id = p_table AND version < p_expected + cardinality(p_versions);

    RETURN 'appended';
END;
$$;
