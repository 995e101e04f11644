-- Set-up codes belong to whoever created the account. An account an organizer's door
-- list created remembers the tournament it was created for, so that only that
-- tournament's organizer (or an admin) can hand out a new code for it: registering the
-- same name in another tournament must never give a stranger a way into it. Kept with
-- the account, since its code is deleted once used.
ALTER TABLE accounts
    ADD COLUMN created_for_tournament bigint REFERENCES tournaments (id) ON DELETE SET NULL;

-- Every code handed out, the first one and each reissue: for which account, by whom,
-- in which tournament, when. A reissue voids a code the player may still hold, so
-- each one stays on record for review.
CREATE TABLE account_setup_code_issues (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id    bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    issued_by     bigint      REFERENCES accounts (id) ON DELETE SET NULL,
    tournament_id bigint      REFERENCES tournaments (id) ON DELETE SET NULL,
    reissue       boolean     NOT NULL,
    issued_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_setup_code_issues_by_account ON account_setup_code_issues (account_id);
