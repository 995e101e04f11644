-- Which seat a table in play waits on, kept by the listing projection with every
-- append. With `updated_at` (the last change) it tells a referee how long each table
-- has waited on whom, and `GET /v1/tables?idle_for=` finds the stalled ones.
ALTER TABLE game_tables ADD COLUMN waiting_on smallint CHECK (waiting_on >= 0);

CREATE INDEX game_tables_playing_idle_idx ON game_tables (updated_at)
    WHERE status = 'playing';
