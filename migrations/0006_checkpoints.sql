-- Checkpoints: the head (version and hash) of every stream at one moment, and a
-- Merkle root over them (format: docs/checkpoints.md, code: api/src/checkpoints/).
--
-- The hash chain of a stream shows an edited event only while the forger leaves the
-- later hashes alone. A forger with database access can delete a stream's tail, or
-- rewrite an event and recompute every later hash: the chain then holds. A checkpoint
-- taken before the change still names the old head, so verify compares each stream
-- with every checkpoint that covers it. The root is what gets published outside the
-- database (`yaniv-server checkpoint`): a forger who also rewrites these tables is
-- caught by a root published before the change.
--
-- Both tables are append-only like `events`: the same kind of trigger rejects
-- UPDATE, DELETE and TRUNCATE for every role, the owner included.

CREATE TABLE checkpoints (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now(),
    root       bytea       NOT NULL CHECK (length(root) = 32),
    streams    bigint      NOT NULL CHECK (streams >= 0)
);

CREATE TABLE checkpoint_heads (
    checkpoint_id bigint NOT NULL REFERENCES checkpoints (id),
    stream_id     text   NOT NULL,
    version       bigint NOT NULL CHECK (version >= 1),
    hash          bytea  NOT NULL CHECK (length(hash) = 32),
    PRIMARY KEY (checkpoint_id, stream_id)
);

COMMENT ON TABLE checkpoints IS
    'Append-only checkpoints of every stream head; root = Merkle root of checkpoint_heads.';

-- Verify reads every checkpoint that covers one stream.
CREATE INDEX checkpoint_heads_stream_idx ON checkpoint_heads (stream_id, version);

CREATE FUNCTION checkpoints_reject_mutation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'checkpoints are append-only: % on table % is not allowed', TG_OP, TG_TABLE_NAME
        USING HINT = 'Write a new checkpoint instead.';
END;
$$;

CREATE TRIGGER checkpoints_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON checkpoints
    FOR EACH STATEMENT EXECUTE FUNCTION checkpoints_reject_mutation();

CREATE TRIGGER checkpoint_heads_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON checkpoint_heads
    FOR EACH STATEMENT EXECUTE FUNCTION checkpoints_reject_mutation();

REVOKE UPDATE, DELETE, TRUNCATE ON checkpoints, checkpoint_heads FROM PUBLIC;
