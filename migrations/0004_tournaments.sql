-- Tournaments: the registry of championship tournaments.
--
-- A tournament's truth is its event stream `tournament-<id>` (see
-- api/src/tournaments/mod.rs and docs/tournaments.md): every registration, draw,
-- result and decision. This table only
--   * hands out tournament ids (the identity column), and
--   * keeps a small projection (name, phase, stream version) written in the same
--     transaction as the events it reflects, so that a future listing endpoint
--     does not fold every stream. It can be rebuilt from the events at any time.

CREATE TABLE tournaments (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    created_by  bigint      NOT NULL REFERENCES accounts (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    name        text        NOT NULL,
    phase       text        NOT NULL,
    -- Version of the stream this row reflects.
    version     bigint      NOT NULL CHECK (version >= 1),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

COMMENT ON TABLE tournaments IS
    'Tournament ids and a small projection; the truth is the event stream tournament-<id>.';

CREATE INDEX tournaments_phase_idx ON tournaments (phase, id DESC);
