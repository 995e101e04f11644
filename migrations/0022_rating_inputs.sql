-- The rating list (api/src/ratings/) is folded from tournament events of a few types:
-- configs (whether a tournament is rated), results, corrections, voids, redraws, names
-- and final rankings. This partial index holds exactly those rows, so that the check
-- every rating read makes (how many such rows exist: rows are never deleted, so a new
-- count means a new result) and the fold's read touch them and nothing else.
-- The list of types must stay the one in api/src/ratings/source.rs.
CREATE INDEX events_rating_inputs_idx ON events (stream_id, version)
    WHERE event_type IN ('tournament_created.v1', 'stages_configured.v1', 'result_recorded.v1',
                         'result_corrected.v1', 'game_voided.v1', 'round_redrawn.v1',
                         'tournament_finished.v1');
