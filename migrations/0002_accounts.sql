-- Accounts, roles and sessions live in ordinary tables: they are not part of the
-- championship's auditable history (the events are), and they need in-place
-- updates (role grants, session expiry) that an append-only log would only
-- complicate. Every event records its actor, so the log stays attributable.

CREATE TABLE accounts (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username      text        NOT NULL CHECK (length(username) BETWEEN 3 AND 32),
    password_hash text        NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- Usernames are unique regardless of case.
CREATE UNIQUE INDEX accounts_username_key ON accounts (lower(username));

CREATE TABLE account_roles (
    account_id bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    role       text        NOT NULL CHECK (role IN ('admin', 'organizer', 'referee', 'player')),
    granted_by bigint      REFERENCES accounts (id) ON DELETE SET NULL,
    granted_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, role)
);

-- Opaque bearer tokens: only their SHA-256 is stored. Expired sessions of an
-- account are deleted when it logs in again.
CREATE TABLE sessions (
    token_hash bytea       PRIMARY KEY CHECK (length(token_hash) = 32),
    account_id bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);

CREATE INDEX sessions_account_idx ON sessions (account_id);
