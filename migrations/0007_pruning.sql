-- The pruning task (api/src/pruning.rs) deletes by age: without these indexes each
-- pass would scan both tables whole.
CREATE INDEX idempotency_records_created_idx ON idempotency_records (created_at);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);
