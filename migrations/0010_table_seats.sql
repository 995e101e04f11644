-- Who sits where, kept by the tables' listing projection (api/src/tables/listing.rs)
-- while seats can change (before the start, and when a tournament's table opens
-- seated). `GET /v1/accounts/me/stream` finds an account's tables here. Seats taken
-- before this migration are not listed; the events stay the truth.
CREATE TABLE table_seats (
    table_id   bigint   NOT NULL REFERENCES game_tables (id),
    seat       smallint NOT NULL CHECK (seat >= 0),
    account_id bigint   NOT NULL REFERENCES accounts (id),
    PRIMARY KEY (table_id, seat)
);

CREATE INDEX table_seats_account_idx ON table_seats (account_id, table_id);
