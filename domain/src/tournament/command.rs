//! Commands: what an organizer, a referee, a player or the server asks of a tournament.
//! A command is untrusted until [`Tournament::decide`](super::Tournament::decide) turns it
//! into events; who asks, and when, comes beside it in a
//! [`Context`](super::refs::Context).

use serde::{Deserialize, Serialize};

use crate::rules::RuleSpec;
use crate::shuffle::{Commitment, Seed};

use super::config::ConfigRequest;
use super::event::{RecordedSeeding, RegistrationWindow};
use super::refs::{AccountId, RoundRef, TableRef};
use super::result::ResultInput;

pub use super::refs::{MAX_NAME_LEN, MAX_TEXT_LEN};

/// Who may send each command is said on it. "Organizer" includes the server; "official"
/// means a referee or the organizer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "command", rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", schema(as = TournamentCommand))]
pub enum Command {
    /// Anyone: creates the tournament, with the sender as its organizer.
    Create {
        #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 100))]
        name: String,
        rules: RuleSpec,
        #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 100_000))]
        capacity: u32,
        #[serde(default)]
        registration_window: RegistrationWindow,
        #[serde(default)]
        config: ConfigRequest,
    },
    /// Organizer, before the qualification starts: replaces the stage parameters.
    ConfigureStages { config: ConfigRequest },
    /// Organizer.
    AddReferee { referee: AccountId },
    /// Organizer.
    RemoveReferee { referee: AccountId },
    /// Organizer, before the qualification starts (again after closing, to reopen).
    OpenRegistration,
    /// Organizer.
    CloseRegistration,
    /// The player themselves while registration is open and within the window, or the
    /// organizer at any time before the qualification starts.
    Register { player: AccountId },
    /// Organizer, during the qualification: admits a player into its next round (a new
    /// registration, or a registered player dropped for not checking in). The rounds
    /// already drawn count as missed (`config.absent_scoring`).
    EnterLate { player: AccountId },
    /// The player or an official, before the qualification starts.
    CheckIn { player: AccountId },
    /// The player or an official, before the qualification starts: takes back a
    /// check-in made by mistake (the wrong name clicked at the door).
    UndoCheckIn { player: AccountId },
    /// An official: starts the round clock the projector shows, `minutes` from now
    /// (1 to 600); without `minutes`, stops it.
    SetRoundClock {
        #[serde(default)]
        #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 600))]
        minutes: Option<u32>,
    },
    /// An official: a line the projector shows in large type (at most 280 characters);
    /// an empty text takes it down.
    Announce {
        #[cfg_attr(feature = "openapi", schema(max_length = 280))]
        text: String,
    },
    /// The player or the organizer, until the tournament is over. A withdrawn player is
    /// never seated again.
    Withdraw { player: AccountId },
    /// Organizer: publishes the hash of the seed the next draw will use.
    CommitDrawSeed { commitment: Commitment },
    /// Organizer, registration closed: starts the qualification; players who did not
    /// check in are dropped. Under `seeding: rating` the server adds `seeding`, the
    /// entrants in the order of its rating list (a client's is refused by the API).
    StartQualification {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seeding: Option<RecordedSeeding>,
    },
    /// Organizer: seats the next round of the current stage from `seed`.
    DrawRound { seed: Seed },
    /// Organizer: draws a round again (the latest round, before any of its tables started).
    RedrawRound {
        round: RoundRef,
        seed: Seed,
        #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 1000))]
        reason: String,
    },
    /// Official or server: a table's game began (an online game was created for it).
    StartTableGame {
        table: TableRef,
        #[serde(default)]
        game: Option<String>,
    },
    /// Official or server: the result of a table's game (or of its replay after a void).
    RecordResult {
        table: TableRef,
        input: ResultInput,
        /// Required when a person enters the result of a table that has an online game
        /// (it reports its own): why the game's own result is overridden.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 1000))]
        reason: Option<String>,
    },
    /// Official: replaces a recorded result.
    CorrectResult {
        table: TableRef,
        input: ResultInput,
        #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 1000))]
        reason: String,
    },
    /// Official: the game does not count and is played again.
    VoidGame {
        table: TableRef,
        #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 1000))]
        reason: String,
    },
    /// Official, at a qualification table with no result whose game has not started
    /// (void a started game first): the player did not come. The table plays without
    /// them, and the round counts as missed for them (`config.absent_scoring`).
    RecordNoShow {
        table: TableRef,
        player: AccountId,
        #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 1000))]
        reason: String,
    },
    /// Official.
    Disqualify {
        player: AccountId,
        #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 1000))]
        reason: String,
    },
    /// A player seated at the table, or an official.
    OpenDispute {
        table: TableRef,
        #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 1000))]
        reason: String,
    },
    /// Official.
    ResolveDispute {
        dispute: u32,
        #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 1000))]
        resolution: String,
    },
    /// Organizer: the current stage is over; the next knockout stage begins.
    AdvanceStage,
    /// Organizer: the final table has its result; the ranking is published.
    Finish,
}
