-- One-time set-up codes for accounts an organizer creates for players (bulk
-- registration at the door). The player sets their own password with the code; until
-- then the account's password_hash is a marker no password matches. Only the code's
-- SHA-256 is kept, as for session tokens: a leaked table gives no usable code. One
-- code per account: issuing a new one replaces the old.
CREATE TABLE account_setup_codes (
    account_id bigint      PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    code_hash  bytea       NOT NULL CHECK (length(code_hash) = 32),
    issued_by  bigint      REFERENCES accounts (id) ON DELETE SET NULL,
    issued_at  timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);
