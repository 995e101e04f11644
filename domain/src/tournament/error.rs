//! Why a tournament command was refused. Every variant has a stable machine code
//! ([`TournamentError::code`], for the API's problem documents) and a message an
//! organizer or referee understands. Tests assert the exact error (`PartialEq`).

use crate::rules::RulesError;

use super::refs::{AccountId, RoundRef, TableRef};

/// The roles a command may need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The organizer who created the tournament (or the server).
    Organizer,
    /// A referee, the organizer or the server.
    Official,
    /// The player named in the command, or an official.
    PlayerOrOfficial,
    /// The player named in the command, or the organizer.
    PlayerOrOrganizer,
    /// A player seated at the table, or an official.
    SeatedPlayerOrOfficial,
}

impl Role {
    fn describe(self) -> &'static str {
        match self {
            Role::Organizer => "the organizer",
            Role::Official => "a referee or the organizer",
            Role::PlayerOrOfficial => "the player themselves, a referee or the organizer",
            Role::PlayerOrOrganizer => "the player themselves or the organizer",
            Role::SeatedPlayerOrOfficial => "a player of the table, a referee or the organizer",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    #[error("the tournament has not been created")]
    NotCreated,
    #[error("the tournament was already created")]
    AlreadyCreated,
    #[error("bad rules: {0}")]
    BadRules(#[from] RulesError),
    #[error("bad tournament settings ({field}): {message}")]
    BadConfig {
        field: &'static str,
        message: String,
    },
    #[error("only {} may do this", .0.describe())]
    Forbidden(Role),
    #[error("not allowed now: {0}")]
    WrongPhase(&'static str),
    #[error("registration is not open")]
    RegistrationNotOpen,
    #[error("outside the registration window")]
    OutsideRegistrationWindow,
    #[error("the tournament is full ({capacity} players)")]
    CapacityReached { capacity: u32 },
    #[error("player {0} is already registered")]
    AlreadyRegistered(AccountId),
    #[error("player {0} is not registered")]
    NotRegistered(AccountId),
    #[error("player {0} has already checked in")]
    AlreadyCheckedIn(AccountId),
    #[error("player {0} has not checked in")]
    NotCheckedIn(AccountId),
    #[error("player {0} has withdrawn")]
    Withdrawn(AccountId),
    #[error("player {0} is disqualified")]
    Disqualified(AccountId),
    #[error("account {0} is already a referee")]
    AlreadyReferee(AccountId),
    #[error("account {0} is not a referee")]
    NotReferee(AccountId),
    #[error("account {0} is an official of this tournament: officials do not play in it")]
    OfficialCannotPlay(AccountId),
    #[error("account {0} plays in this tournament: players do not officiate in it")]
    PlayerCannotOfficiate(AccountId),
    #[error(
        "account {0} plays in this tournament: an official who plays has no power over a result, a seating or a player; another official must act"
    )]
    OfficialPlays(AccountId),
    #[error("officials play in this tournament: it needs at least one official who does not ({0})")]
    NoNeutralOfficial(&'static str),
    #[error("{round} has been redrawn {limit} time(s), the most a round may be")]
    RedrawLimit { round: RoundRef, limit: u32 },
    #[error("{0} has an online game, which reports its own result: say why you enter it by hand")]
    ReasonRequired(TableRef),
    #[error("a draw seed is already committed and not yet used")]
    SeedAlreadyCommitted,
    #[error("the seed does not match the commitment published for this draw ({commitment})")]
    SeedMismatch { commitment: String },
    #[error(
        "{players} players cannot be seated at tables of {min} to {max} (nor up to {hard_max}, the most the rules seat)"
    )]
    NoTableSplit {
        players: usize,
        min: usize,
        max: usize,
        hard_max: usize,
    },
    #[error("{players} players are too few: a table seats at least {min}")]
    NotEnoughPlayers { players: usize, min: usize },
    #[error("{0} is not complete: every table needs a result")]
    RoundIncomplete(RoundRef),
    #[error("every round of this stage has been drawn: advance to the next stage")]
    StageRoundsDrawn,
    #[error("stage {0} is not over: every round must be drawn and every table must have a result")]
    StageIncomplete(u32),
    #[error("the final table has been drawn: finish the tournament instead")]
    FinalReached,
    #[error("there is no {0}")]
    NoSuchRound(RoundRef),
    #[error("there is no {0}")]
    NoSuchTable(TableRef),
    #[error("{0} has started: its draw stands")]
    RoundStarted(RoundRef),
    #[error("only the latest round of the current stage can be redrawn")]
    NotLatestRound(RoundRef),
    #[error("{0} has already started")]
    TableAlreadyStarted(TableRef),
    #[error("{0} already has a result: correct it or void it instead")]
    ResultAlreadyRecorded(TableRef),
    #[error("{0} has no result")]
    NoResult(TableRef),
    #[error("bad result: {0}")]
    BadResult(String),
    #[error("the game is not over")]
    GameNotFinished,
    #[error("the game was played under other rules than the tournament's")]
    RulesMismatch,
    #[error("bad game record: {code}: {message}")]
    BadRecord { code: String, message: String },
    #[error("paper round {round}: {message}")]
    BadPaperRound { round: usize, message: String },
    #[error("a reason is required: 1 to {max} characters, no control characters but line breaks and tabs, no invisible or direction characters, no pile of combining marks", max = super::refs::MAX_TEXT_LEN)]
    BadReason,
    #[error(
        "this tournament takes paper results round by round (the sheet's rounds or a game record), not as final totals alone"
    )]
    RoundsRequired,
    #[error("a round clock runs 1 to 600 minutes")]
    BadClock,
    #[error(
        "an announcement has 1 to 280 characters, no control characters but line breaks and tabs, no invisible or direction characters, no pile of combining marks"
    )]
    BadAnnouncement,
    #[error("a tournament name has 1 to {max} characters, no control, invisible or direction characters and no pile of combining marks", max = super::refs::MAX_NAME_LEN)]
    BadName,
    #[error("bad registration window: {0}")]
    BadWindow(&'static str),
    #[error("there is no dispute {0}")]
    NoSuchDispute(u32),
    #[error("dispute {0} is already resolved")]
    DisputeResolved(u32),
    #[error("dispute {0} is still open")]
    OpenDispute(u32),
    #[error("the tournament is over")]
    Finished,
    #[error("player {player} is not drawn at {table}")]
    NotAtTable { player: AccountId, table: TableRef },
    #[error("player {player} is already recorded as a no-show at {table}")]
    AlreadyAbsent { player: AccountId, table: TableRef },
    #[error("bad seeding: {0}")]
    BadSeeding(&'static str),
}

impl TournamentError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            TournamentError::NotCreated => "not_created",
            TournamentError::AlreadyCreated => "already_created",
            TournamentError::BadRules(_) => "bad_rules",
            TournamentError::BadConfig { .. } => "bad_config",
            TournamentError::Forbidden(_) => "forbidden",
            TournamentError::WrongPhase(_) => "wrong_phase",
            TournamentError::RegistrationNotOpen => "registration_not_open",
            TournamentError::OutsideRegistrationWindow => "outside_registration_window",
            TournamentError::CapacityReached { .. } => "capacity_reached",
            TournamentError::AlreadyRegistered(_) => "already_registered",
            TournamentError::NotRegistered(_) => "not_registered",
            TournamentError::AlreadyCheckedIn(_) => "already_checked_in",
            TournamentError::NotCheckedIn(_) => "not_checked_in",
            TournamentError::Withdrawn(_) => "player_withdrawn",
            TournamentError::Disqualified(_) => "player_disqualified",
            TournamentError::AlreadyReferee(_) => "already_referee",
            TournamentError::NotReferee(_) => "not_referee",
            TournamentError::OfficialCannotPlay(_) => "official_cannot_play",
            TournamentError::PlayerCannotOfficiate(_) => "player_cannot_officiate",
            TournamentError::OfficialPlays(_) => "official_plays",
            TournamentError::NoNeutralOfficial(_) => "no_neutral_official",
            TournamentError::RedrawLimit { .. } => "redraw_limit_reached",
            TournamentError::ReasonRequired(_) => "reason_required",
            TournamentError::SeedAlreadyCommitted => "seed_already_committed",
            TournamentError::SeedMismatch { .. } => "seed_mismatch",
            TournamentError::NoTableSplit { .. } => "no_table_split",
            TournamentError::NotEnoughPlayers { .. } => "not_enough_players",
            TournamentError::RoundIncomplete(_) => "round_incomplete",
            TournamentError::StageRoundsDrawn => "stage_rounds_drawn",
            TournamentError::StageIncomplete(_) => "stage_incomplete",
            TournamentError::FinalReached => "final_reached",
            TournamentError::NoSuchRound(_) => "no_such_round",
            TournamentError::NoSuchTable(_) => "no_such_table",
            TournamentError::RoundStarted(_) => "round_started",
            TournamentError::NotLatestRound(_) => "not_latest_round",
            TournamentError::TableAlreadyStarted(_) => "table_already_started",
            TournamentError::ResultAlreadyRecorded(_) => "result_already_recorded",
            TournamentError::NoResult(_) => "no_result",
            TournamentError::BadResult(_) => "bad_result",
            TournamentError::GameNotFinished => "game_not_finished",
            TournamentError::RulesMismatch => "rules_mismatch",
            TournamentError::BadRecord { .. } => "bad_record",
            TournamentError::BadPaperRound { .. } => "bad_paper_round",
            TournamentError::BadReason => "bad_reason",
            TournamentError::RoundsRequired => "rounds_required",
            TournamentError::BadClock => "bad_clock",
            TournamentError::BadAnnouncement => "bad_announcement",
            TournamentError::BadName => "bad_name",
            TournamentError::BadWindow(_) => "bad_window",
            TournamentError::NoSuchDispute(_) => "no_such_dispute",
            TournamentError::DisputeResolved(_) => "dispute_resolved",
            TournamentError::OpenDispute(_) => "open_dispute",
            TournamentError::Finished => "finished",
            TournamentError::NotAtTable { .. } => "not_at_table",
            TournamentError::AlreadyAbsent { .. } => "already_absent",
            TournamentError::BadSeeding(_) => "bad_seeding",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_snake_case_and_messages_read_well() {
        let e = TournamentError::NoTableSplit {
            players: 3,
            min: 4,
            max: 6,
            hard_max: 8,
        };
        assert_eq!(e.code(), "no_table_split");
        assert_eq!(
            e.to_string(),
            "3 players cannot be seated at tables of 4 to 6 (nor up to 8, the most the rules seat)"
        );
        assert_eq!(
            TournamentError::Forbidden(Role::Organizer).to_string(),
            "only the organizer may do this"
        );
        assert_eq!(TournamentError::BadReason.code(), "bad_reason");
    }
}
