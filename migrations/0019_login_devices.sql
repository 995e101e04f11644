-- Devices an account has logged in from: a random token the server hands out at a
-- successful log-in and the client presents at the next one. The log-in throttle
-- judges a known device by its own failures alone, so someone guessing a player's
-- password elsewhere (or on the same network) cannot lock that player out. Only the
-- token's SHA-256 is kept, as for sessions. The most recent few per account are kept.
CREATE TABLE login_devices (
    token_hash   bytea       PRIMARY KEY CHECK (length(token_hash) = 32),
    account_id   bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_devices_by_account ON login_devices (account_id, last_used_at DESC);
