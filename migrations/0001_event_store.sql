-- Event store: one append-only table of events, plus the idempotency records
-- written in the same transaction as the events they produced.
-- Needs PostgreSQL 13 or later (xid8, pg_current_xact_id, pg_current_snapshot).
--
-- Invariants (see api/src/store/mod.rs):
--   * `global_position` orders all events at insert time; readers that follow the
--     whole log order by (transaction_id, global_position) and only take rows whose
--     transaction_id is below the xmin of their snapshot (the xid8 read fence), so a
--     late-committing transaction is never skipped.
--   * (stream_id, version) is unique: of two writers that append version N+1 to one
--     stream, exactly one commits; the other gets SQLSTATE 23505 on
--     `events_stream_version_key`, which the store maps to a typed conflict.
--   * `payload` holds the exact bytes (compact JSON text) that `hash` covers;
--     `hash` = SHA-256 over a domain tag, the stream id, the version, the event type,
--     the payload, the metadata and `prev_hash` (the previous event's hash in the
--     stream, 32 zero bytes for version 1). See api/src/store/hash.rs.
--   * Rows are never updated or deleted: the trigger below rejects UPDATE, DELETE and
--     TRUNCATE for every role, the table owner included. A superuser can still bypass
--     it (session_replication_role = replica, or ALTER TABLE ... DISABLE TRIGGER by
--     the owner); the hash chain is what exposes such a change.

CREATE TABLE events (
    global_position bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    stream_id       text        NOT NULL CHECK (length(stream_id) BETWEEN 1 AND 200),
    version         bigint      NOT NULL CHECK (version >= 1),
    event_type      text        NOT NULL CHECK (length(event_type) BETWEEN 1 AND 200),
    payload         text        NOT NULL,
    actor           text        NOT NULL,
    request_id      text,
    idempotency_key text,
    recorded_at     timestamptz NOT NULL,
    prev_hash       bytea       NOT NULL CHECK (length(prev_hash) = 32),
    hash            bytea       NOT NULL CHECK (length(hash) = 32),
    transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
    CONSTRAINT events_stream_version_key UNIQUE (stream_id, version)
);

COMMENT ON TABLE events IS
    'Append-only event log. UPDATE, DELETE and TRUNCATE are rejected by trigger events_append_only.';
COMMENT ON COLUMN events.payload IS
    'Exact JSON text covered by the hash chain (text, not jsonb: jsonb would normalise it).';
COMMENT ON COLUMN events.transaction_id IS
    'Writer transaction id: the read fence for readers that follow the global log.';

-- Followers of the global log read in (transaction_id, global_position) order.
CREATE INDEX events_log_order_idx ON events (transaction_id, global_position);

CREATE FUNCTION events_reject_mutation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % on table events is not allowed', TG_OP
        USING HINT = 'Append a compensating event instead.';
END;
$$;

CREATE TRIGGER events_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_reject_mutation();

-- Roles other than the owner never get to change history, even without the trigger.
REVOKE UPDATE, DELETE, TRUNCATE ON events FROM PUBLIC;

-- A request retried with the same Idempotency-Key replays the first answer. The
-- record is inserted (response still empty) at the start of the request's
-- transaction, which makes a concurrent duplicate wait on the primary key, and is
-- completed with the response in the same transaction as the events it appended.
CREATE TABLE idempotency_records (
    actor               text        NOT NULL,
    idempotency_key     text        NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 255),
    request_fingerprint bytea       NOT NULL CHECK (length(request_fingerprint) = 32),
    response_status     smallint    CHECK (response_status BETWEEN 100 AND 599),
    response_body       bytea,
    created_at          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (actor, idempotency_key)
);
