-- A finished tournament's archive (GET /v1/tournaments/{id}/archive), built once and
-- kept, so that reading it costs a few small reads instead of rebuilding tens of
-- megabytes per request (api/src/audit/archive_store.rs).
--
-- The copy holds while what it was built from is unchanged: the tournament's version,
-- the sum of its game tables' versions (a voided table may still move) and the latest
-- checkpoint (a new one may record its streams). Otherwise it is built again.
-- The body is stored uncompressed and out of line (STORAGE EXTERNAL), so that a
-- substring of it reads only the pages it covers: the server sends it in slices.
CREATE TABLE tournament_archives (
    tournament_id      bigint      PRIMARY KEY,
    tournament_version bigint      NOT NULL,
    tables_version     bigint      NOT NULL,
    checkpoint_id      bigint      NOT NULL,
    sha256             bytea       NOT NULL CHECK (length(sha256) = 32),
    bytes              bigint      NOT NULL CHECK (bytes >= 0),
    body               bytea       NOT NULL,
    built_at           timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE tournament_archives ALTER COLUMN body SET STORAGE EXTERNAL;
