-- Officials look players up by the start of their name (GET /v1/accounts?prefix=):
-- a pattern index lets `lower(username) LIKE 'ab%'` use an index scan whatever the
-- database's collation.
CREATE INDEX accounts_username_prefix_idx ON accounts (lower(username) text_pattern_ops);
