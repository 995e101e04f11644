-- Grants for a server role that can play and run championships but cannot change
-- the schema or history. Run it as the schema's owner after `yaniv-server migrate`,
-- and again after each upgrade that adds tables:
--
--   psql "$OWNER_URL" -v ON_ERROR_STOP=1 -f deploy/least-privilege.sql
--
-- It grants to the role `yaniv_app` (create it first, e.g.
-- CREATE ROLE yaniv_app LOGIN PASSWORD '...'), then start the server with that role
-- in DATABASE_URL and YANIV_MIGRATIONS=check. docs/operations.md explains the split.

GRANT USAGE ON SCHEMA public TO yaniv_app;

-- History: read and append, never change. (The migrations also revoke UPDATE, DELETE
-- and TRUNCATE on events from PUBLIC, and a trigger refuses them for everyone.)
GRANT SELECT, INSERT ON events TO yaniv_app;

-- Checkpoints of the stream heads: written and read, never changed.
GRANT SELECT, INSERT ON checkpoints, checkpoint_heads TO yaniv_app;

-- Which migrations are applied, so that the server can check it is up to date.
GRANT SELECT ON _sqlx_migrations TO yaniv_app;

-- Everything else is the server's working state: accounts, sessions, listings,
-- idempotency records, tournament seeds.
DO $$
DECLARE
    name text;
BEGIN
    FOR name IN
        SELECT tablename FROM pg_tables
        WHERE schemaname = 'public'
          AND tablename NOT IN ('events', 'checkpoints', 'checkpoint_heads', '_sqlx_migrations')
    LOOP
        EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO yaniv_app', name);
    END LOOP;
END
$$;

-- Ids handed out by identity columns.
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO yaniv_app;
