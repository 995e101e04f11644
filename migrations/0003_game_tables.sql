-- Game tables: the registry of online tables and the listing behind
-- `GET /v1/tables`.
--
-- A table's truth is its event stream `table-<id>` (see api/src/tables/mod.rs):
-- seats, start, every game event. This table only
--   * hands out table ids (the identity column), and
--   * keeps a listing projection (status, free seats, stream version) so that the
--     list endpoint does not fold every stream.
-- The projection row is written in the same transaction as the events it
-- reflects (created with `table_created.v1`, updated by every later append to
-- the stream), so it never runs ahead of or behind the stream; it can be rebuilt
-- from the events at any time.

CREATE TABLE game_tables (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    created_by  bigint      NOT NULL REFERENCES accounts (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    preset      text        NOT NULL,
    seats       smallint    NOT NULL CHECK (seats BETWEEN 2 AND 8),
    free_seats  smallint    NOT NULL CHECK (free_seats BETWEEN 0 AND seats),
    status      text        NOT NULL CHECK (status IN ('open', 'playing', 'finished')),
    -- Version of the stream this row reflects.
    version     bigint      NOT NULL CHECK (version >= 1),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

COMMENT ON TABLE game_tables IS
    'Table ids and a listing projection; the truth is the event stream table-<id>.';

-- Listing by status, newest first (keyset pagination on id).
CREATE INDEX game_tables_status_idx ON game_tables (status, id DESC);
