-- Each server instance caches the sessions it has checked (api/src/auth/session_cache.rs)
-- so that a request does not cost a round trip to find its account. Revoking must still
-- take effect on every instance at once: deleting a session (log out, pruning) or
-- changing an account's roles notifies `auth-<account id>` on the live streams'
-- channel, at commit, and every instance drops that account's cached sessions.
CREATE FUNCTION auth_notify_accounts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('yaniv_streams', 'auth-' || changed.account_id || ':0')
    FROM (SELECT DISTINCT account_id FROM changed_rows) AS changed;
    RETURN NULL;
END;
$$;

CREATE TRIGGER sessions_notify_deleted
    AFTER DELETE ON sessions
    REFERENCING OLD TABLE AS changed_rows
    FOR EACH STATEMENT EXECUTE FUNCTION auth_notify_accounts();

-- An expiry moved (by hand: the server never updates a session) counts as well.
CREATE TRIGGER sessions_notify_updated
    AFTER UPDATE ON sessions
    REFERENCING NEW TABLE AS changed_rows
    FOR EACH STATEMENT EXECUTE FUNCTION auth_notify_accounts();

CREATE TRIGGER account_roles_notify_inserted
    AFTER INSERT ON account_roles
    REFERENCING NEW TABLE AS changed_rows
    FOR EACH STATEMENT EXECUTE FUNCTION auth_notify_accounts();

CREATE TRIGGER account_roles_notify_updated
    AFTER UPDATE ON account_roles
    REFERENCING NEW TABLE AS changed_rows
    FOR EACH STATEMENT EXECUTE FUNCTION auth_notify_accounts();

CREATE TRIGGER account_roles_notify_deleted
    AFTER DELETE ON account_roles
    REFERENCING OLD TABLE AS changed_rows
    FOR EACH STATEMENT EXECUTE FUNCTION auth_notify_accounts();
