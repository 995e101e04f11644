-- Tournaments played on the server: secret draw seeds and online game tables.
--
-- 1. The server draws every round of a tournament from a seed it generated and
--    committed (the SHA-256 published in `draw_seed_committed.v1`) before the seed
--    could be steered. Until the draw reveals it in `round_drawn.v1`, the seed
--    itself is secret: it lives here and in no event. A row is written in the
--    same transaction as the commitment event, so a committed seed always has its
--    secret; `revealed_at` is set by the transaction of the draw that uses it.
--    Anyone who can read this table can predict undrawn rounds: in production,
--    only the server's role should have SELECT on it.
-- 2. A drawn tournament table is played online as an ordinary game table (its own
--    stream `table-<id>`, with the tournament link in `table_created.v1`); the
--    column below lets the listing and the operators find them without folding.

CREATE TABLE tournament_draw_seeds (
    tournament_id bigint      NOT NULL REFERENCES tournaments (id),
    commitment    bytea       NOT NULL CHECK (length(commitment) = 32),
    seed          bytea       NOT NULL CHECK (length(seed) = 32),
    created_at    timestamptz NOT NULL DEFAULT now(),
    revealed_at   timestamptz,
    PRIMARY KEY (tournament_id, commitment)
);

COMMENT ON TABLE tournament_draw_seeds IS
    'Secret draw seeds the server committed to; each is revealed by the draw that uses it.';

ALTER TABLE game_tables ADD COLUMN tournament_id bigint REFERENCES tournaments (id);

CREATE INDEX game_tables_tournament_idx ON game_tables (tournament_id, id)
    WHERE tournament_id IS NOT NULL;
