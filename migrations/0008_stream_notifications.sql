-- Live streams (api/src/live/): every append wakes the servers that have subscribers on
-- the stream. The notification carries only `stream_id:version`, the head after the
-- append; subscribers read the events themselves, so the store stays the only truth
-- and a lost notification costs a delay, never an event. NOTIFY is transactional: it
-- is sent at commit, and a rolled-back append sends nothing.
CREATE FUNCTION events_notify_heads() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('yaniv_streams', heads.stream_id || ':' || heads.version)
    FROM (
        SELECT stream_id, max(version) AS version FROM appended GROUP BY stream_id
    ) AS heads;
    RETURN NULL;
END;
$$;

CREATE TRIGGER events_notify_heads
    AFTER INSERT ON events
    REFERENCING NEW TABLE AS appended
    FOR EACH STATEMENT EXECUTE FUNCTION events_notify_heads();
