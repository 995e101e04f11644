-- Seasons: series of tournaments whose rankings add up (docs/seasons.md).
--
-- A season's truth is its event stream `season-<id>`. This table hands out season
-- ids and keeps the name and stream version for the listing, written in the same
-- transaction as the events; it can be rebuilt from them.

CREATE TABLE seasons (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    created_by  bigint      NOT NULL REFERENCES accounts (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    name        text        NOT NULL,
    version     bigint      NOT NULL CHECK (version >= 1),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

COMMENT ON TABLE seasons IS
    'Season ids and their names; the truth is the event stream season-<id>.';
