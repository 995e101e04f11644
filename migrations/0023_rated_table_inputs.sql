-- Casual tables created with `rated` feed the rating list too (docs/ratings.md section
-- 4). The fold reads, of those tables only, the events that say who sat where and how
-- the game ended; the count that keeps the cached fold current counts their finished
-- games. Two partial indexes keep both reads off the game's moves:
--
-- * the rated tables: their `table_created.v1` row, by stream. `rated` is the last
--   field of that payload and written only when true, so a rated table's payload, and
--   only such a payload, ends with `"rated":true}` (a suffix test, cheap on every insert,
--   where parsing the JSON of every event would not be). The fold decodes the row and
--   has the last word; a tournament's table never holds the field (the server refuses
--   the option there);
-- * every table's rows of the other three types, by stream and version: a few rows
--   per table, which the read joins to the rated ones.
--
-- The types must stay those of api/src/ratings/source.rs.
CREATE INDEX events_rated_tables_idx ON events (stream_id)
    WHERE event_type = 'table_created.v1' AND payload LIKE '%"rated":true}';
CREATE INDEX events_table_rating_inputs_idx ON events (stream_id, version)
    WHERE event_type IN ('seat_taken.v1', 'seat_left.v1', 'game_finished.v1');
