//! The events of a tournament: immutable facts, stored forever in the tournament's own
//! stream.
//!
//! As for games (`game/event.rs`), each event's serialized form is versioned in its `type`
//! tag (`round_drawn.v1`); a change of shape adds a `.v2` variant and upcasts the old one.
//! Events carry what was decided (the seating of a draw, the scores of a paper game, the
//! rounds a correction flags, the final ranking) rather than leaving a later version of
//! the code to recompute it. Decisions by officials carry `by` and, where the format asks
//! for one, a `reason`.

use serde::{Deserialize, Serialize};

use crate::rules::{RuleSpec, Rules};
use crate::shuffle::{Commitment, Seed};

use super::config::Config;
use super::refs::{AccountId, Actor, RoundRef, StageKind, TableRef, Timestamp};
pub use super::result::PlayerResult;
use super::result::ResultInput;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type")]
#[cfg_attr(feature = "openapi", schema(as = TournamentEventPayload))]
pub enum Event {
    #[serde(rename = "tournament_created.v1")]
    Created(TournamentCreated),
    #[serde(rename = "stages_configured.v1")]
    StagesConfigured(StagesConfigured),
    #[serde(rename = "referee_added.v1")]
    RefereeAdded(RefereeChanged),
    #[serde(rename = "referee_removed.v1")]
    RefereeRemoved(RefereeChanged),
    #[serde(rename = "registration_opened.v1")]
    RegistrationOpened(RegistrationChanged),
    #[serde(rename = "registration_closed.v1")]
    RegistrationClosed(RegistrationChanged),
    #[serde(rename = "player_registered.v1")]
    PlayerRegistered(PlayerRegistered),
    #[serde(rename = "player_entered_late.v1")]
    PlayerEnteredLate(PlayerEnteredLate),
    #[serde(rename = "player_checked_in.v1")]
    PlayerCheckedIn(PlayerChanged),
    #[serde(rename = "player_check_in_undone.v1")]
    PlayerCheckInUndone(PlayerChanged),
    #[serde(rename = "player_withdrew.v1")]
    PlayerWithdrew(PlayerChanged),
    #[serde(rename = "player_disqualified.v1")]
    PlayerDisqualified(PlayerDisqualified),
    #[serde(rename = "draw_seed_committed.v1")]
    DrawSeedCommitted(DrawSeedCommitted),
    #[serde(rename = "stage_started.v1")]
    StageStarted(StageStarted),
    #[serde(rename = "round_drawn.v1")]
    RoundDrawn(RoundDrawn),
    #[serde(rename = "round_redrawn.v1")]
    RoundRedrawn(RoundDrawn),
    #[serde(rename = "table_game_started.v1")]
    TableGameStarted(TableGameStarted),
    #[serde(rename = "result_recorded.v1")]
    ResultRecorded(ResultRecorded),
    #[serde(rename = "result_corrected.v1")]
    ResultCorrected(ResultCorrected),
    #[serde(rename = "game_voided.v1")]
    GameVoided(GameVoided),
    #[serde(rename = "no_show_recorded.v1")]
    NoShowRecorded(NoShowRecorded),
    #[serde(rename = "dispute_opened.v1")]
    DisputeOpened(DisputeOpened),
    #[serde(rename = "dispute_resolved.v1")]
    DisputeResolved(DisputeResolved),
    #[serde(rename = "tournament_finished.v1")]
    Finished(TournamentFinished),
    #[serde(rename = "round_clock_set.v1")]
    RoundClockSet(RoundClockSet),
    #[serde(rename = "announcement_made.v1")]
    Announced(Announced),
}

impl Event {
    /// Every type name, as stored beside the payload.
    pub const TYPES: [&'static str; 26] = [
        "tournament_created.v1",
        "stages_configured.v1",
        "referee_added.v1",
        "referee_removed.v1",
        "registration_opened.v1",
        "registration_closed.v1",
        "player_registered.v1",
        "player_checked_in.v1",
        "player_withdrew.v1",
        "player_disqualified.v1",
        "draw_seed_committed.v1",
        "stage_started.v1",
        "round_drawn.v1",
        "round_redrawn.v1",
        "table_game_started.v1",
        "result_recorded.v1",
        "result_corrected.v1",
        "game_voided.v1",
        "dispute_opened.v1",
        "dispute_resolved.v1",
        "tournament_finished.v1",
        "player_entered_late.v1",
        "no_show_recorded.v1",
        "player_check_in_undone.v1",
        "round_clock_set.v1",
        "announcement_made.v1",
    ];

    /// The `type` tag.
    pub fn type_name(&self) -> &'static str {
        let i = match self {
            Event::Created(_) => 0,
            Event::StagesConfigured(_) => 1,
            Event::RefereeAdded(_) => 2,
            Event::RefereeRemoved(_) => 3,
            Event::RegistrationOpened(_) => 4,
            Event::RegistrationClosed(_) => 5,
            Event::PlayerRegistered(_) => 6,
            Event::PlayerCheckedIn(_) => 7,
            Event::PlayerWithdrew(_) => 8,
            Event::PlayerDisqualified(_) => 9,
            Event::DrawSeedCommitted(_) => 10,
            Event::StageStarted(_) => 11,
            Event::RoundDrawn(_) => 12,
            Event::RoundRedrawn(_) => 13,
            Event::TableGameStarted(_) => 14,
            Event::ResultRecorded(_) => 15,
            Event::ResultCorrected(_) => 16,
            Event::GameVoided(_) => 17,
            Event::DisputeOpened(_) => 18,
            Event::DisputeResolved(_) => 19,
            Event::Finished(_) => 20,
            Event::PlayerEnteredLate(_) => 21,
            Event::NoShowRecorded(_) => 22,
            Event::PlayerCheckInUndone(_) => 23,
            Event::RoundClockSet(_) => 24,
            Event::Announced(_) => 25,
        };
        Event::TYPES[i]
    }
}

/// When self-registration is accepted, by the caller's clock; `null` is unbounded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RegistrationWindow {
    #[serde(default)]
    pub opens_at: Option<Timestamp>,
    #[serde(default)]
    pub closes_at: Option<Timestamp>,
}

impl RegistrationWindow {
    /// Whether `now` is inside the window (`opens_at <= now < closes_at`).
    pub fn contains(&self, now: Timestamp) -> bool {
        self.opens_at.is_none_or(|t| t <= now) && self.closes_at.is_none_or(|t| now < t)
    }
}

/// The tournament is set up by its organizer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TournamentCreated {
    pub organizer: AccountId,
    pub name: String,
    /// The rules as asked (preset and overrides) ...
    pub rules: RuleSpec,
    /// ... and as every game of the tournament plays them, whatever a preset means later.
    pub effective_rules: Rules,
    /// Most players registered at once (withdrawals free a place).
    pub capacity: u32,
    pub registration_window: RegistrationWindow,
    /// The effective stage parameters and tie-breaks.
    pub config: Config,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct StagesConfigured {
    pub config: Config,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RefereeChanged {
    pub referee: AccountId,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RegistrationChanged {}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PlayerRegistered {
    pub player: AccountId,
    pub by: Actor,
    /// 1 for the first registration: the `registration_order` tie-break.
    pub order: u32,
}

/// A player admitted into the qualification after it started: seated from round
/// `first_round` on, the rounds before it counting as missed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PlayerEnteredLate {
    pub player: AccountId,
    pub by: Actor,
    /// The registration order: a new one for a player not registered before, the
    /// player's own for one dropped at the start for not checking in.
    pub order: u32,
    /// The qualification round the player is first drawn into.
    pub first_round: u32,
}

/// A check-in or a withdrawal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PlayerChanged {
    pub player: AccountId,
    pub by: Actor,
}

/// A referee decision: the player is never seated again and leaves the standings and the
/// ranking; the games they played stand for the others.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PlayerDisqualified {
    pub player: AccountId,
    pub reason: String,
    pub by: Actor,
}

/// The hash of the seed of the next draw, published before the draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct DrawSeedCommitted {
    pub commitment: Commitment,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct StageStarted {
    /// 1 for the qualification.
    pub stage: u32,
    pub kind: StageKind,
    /// Registered players dropped because they did not check in (qualification only).
    pub dropped: Vec<AccountId>,
    /// Under `seeding: rating` or `seeding: season`, stage 1 only: the entrants in the
    /// order the server took from its rating list or the season's standings. Absent
    /// otherwise, so older events hash as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeding: Option<RecordedSeeding>,
}

/// The name and version of the rating procedure `docs/ratings.md` describes, which a
/// seeding names (here, with the seeding, since the ratings read tournaments and not
/// the other way round).
pub const RATINGS_PROCEDURE: &str = "yaniv-ratings/1";

/// The season standings procedure `docs/seasons.md` describes (here for the same
/// reason: seasons read tournaments).
pub const SEASON_PROCEDURE: &str = "yaniv-season/1";

/// The entry order of a seeded tournament: taken by the server from its rating list or
/// from a season's standings when the qualification starts, never from a client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RecordedSeeding {
    /// `yaniv-ratings/1` (the rating list) or `yaniv-season/1` (a season's standings).
    pub procedure: String,
    /// Under `yaniv-ratings/1`, the list as it stood before this instant (microseconds
    /// since the Unix epoch): the rated games recorded before it, as
    /// `GET /v1/ratings?to=` gives them. Under `yaniv-season/1`, when the standings
    /// were read (finished rankings never change, so nothing is cut by it).
    pub as_of_micros: i64,
    /// Under `yaniv-season/1` only: what the standings were computed from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub season: Option<SeasonBasis>,
    /// Every entrant once: those the list or the standings hold, in their order, then
    /// the others in registration order.
    pub order: Vec<AccountId>,
}

/// The season standings a final was seeded from, enough to compute them again from
/// the members' archives (`docs/seasons.md` section 4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SeasonBasis {
    /// The season's id (`season-<id>`).
    pub season: i64,
    /// Points of places 1, 2, 3, ... at that moment.
    pub points: Vec<u32>,
    /// How many results counted (absent: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<u32>,
    /// The members that had finished, in the season's order.
    pub tournaments: Vec<i64>,
}

impl SeasonBasis {
    /// What is wrong with the basis in itself (`docs/seasons.md` sections 1 and 4): a
    /// scale or count out of bounds, or members that are more than a season holds or
    /// listed twice.
    pub fn problem(&self) -> Option<&'static str> {
        if super::season_scale::scale_problem(&self.points, self.best).is_some() {
            return Some("the seeding's season has no valid points scale and count");
        }
        let mut members = self.tournaments.clone();
        members.sort_unstable();
        members.dedup();
        if members.len() != self.tournaments.len()
            || members.len() > super::season_scale::MAX_MEMBERS
        {
            return Some("the seeding's season lists at most 100 tournaments, each once");
        }
        None
    }
}

/// A round's seating, from a seed. `round_redrawn.v1` carries the same payload, with a
/// `reason`, who redrew (`by`) and the seating it replaces (`replaced`), and replaces
/// the round's seating.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RoundDrawn {
    pub stage: u32,
    pub round: u32,
    /// `tournament-draw/1` (`seating/mod.rs`).
    pub algorithm: String,
    pub commitment: Commitment,
    /// Revealed here: the seed decides nothing but this seating, which the event
    /// publishes (see `docs/tournaments.md`, "Fairness").
    pub seed: Seed,
    /// Whether the commitment was published (`draw_seed_committed.v1`) before the draw.
    pub precommitted: bool,
    /// Knockout stages: the entrants in seed order (best first). Empty in the
    /// qualification.
    pub seeds: Vec<AccountId>,
    /// Players at each table, in seat order (the direction of play).
    pub tables: Vec<Vec<AccountId>>,
    /// Knockout stages: the highest seeds, who go through without playing.
    pub byes: Vec<AccountId>,
    /// This draw seats the final table.
    pub final_table: bool,
    /// Redraws only: why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Redraws only: who redrew (absent from redraws stored before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Actor>,
    /// Redraws only: the seating this one replaces (absent from redraws stored before
    /// it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced: Option<ReplacedSeating>,
}

/// The seating a redraw replaced, as the draw before it published it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ReplacedSeating {
    /// Players at each table, in seat order.
    pub tables: Vec<Vec<AccountId>>,
    /// Knockout stages: who went through without playing.
    pub byes: Vec<AccountId>,
}

impl RoundDrawn {
    pub fn round_ref(&self) -> RoundRef {
        RoundRef {
            stage: self.stage,
            round: self.round,
        }
    }
}

/// The table's game began (an online game was created for it, or a paper table sat down).
/// From then on the round cannot be redrawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TableGameStarted {
    pub table: TableRef,
    /// The online game's id on this server, if there is one.
    pub game: Option<String>,
    pub by: Actor,
}

/// A table's game result, first entry or replay of a voided game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ResultRecorded {
    pub table: TableRef,
    /// What was entered, kept for audit and replay.
    pub input: ResultInput,
    /// What it decides, best place first.
    pub result: Vec<PlayerResult>,
    pub by: Actor,
    /// Later rounds whose draw this result changes (see [`ResultCorrected::flagged`]).
    pub flagged: Vec<RoundRef>,
    /// Why a person entered the result of a table that has an online game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A referee's correction of a recorded result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ResultCorrected {
    pub table: TableRef,
    pub input: ResultInput,
    pub result: Vec<PlayerResult>,
    pub reason: String,
    pub by: Actor,
    /// Rounds already drawn after this table's round whose seating would differ had the
    /// corrected result been known: the draw re-run on the corrected events, with the
    /// round's own seed, gives other tables, byes or entrants. The draws stand; the flags
    /// tell the organizer which of them to consider redrawing.
    pub flagged: Vec<RoundRef>,
}

/// A referee voids a table's game: its result no longer counts and the table must play
/// again (a later `result_recorded.v1` for the same table).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct GameVoided {
    pub table: TableRef,
    pub reason: String,
    pub by: Actor,
    pub flagged: Vec<RoundRef>,
}

/// A referee decision: a player drawn at `table` did not come. The table's game is played
/// by the others; the round counts as missed for the player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct NoShowRecorded {
    pub table: TableRef,
    pub player: AccountId,
    pub reason: String,
    pub by: Actor,
    /// Later rounds whose draw this changes (see [`ResultCorrected::flagged`]).
    pub flagged: Vec<RoundRef>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct DisputeOpened {
    /// 1 for the first dispute of the tournament.
    pub dispute: u32,
    pub table: TableRef,
    pub reason: String,
    pub by: Actor,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct DisputeResolved {
    pub dispute: u32,
    pub resolution: String,
    pub by: Actor,
}

/// How far a player got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Reached {
    /// Played the final table, finishing at `place_at_table`.
    Final { place_at_table: u8 },
    /// Went out in knockout stage `stage`; `place_at_table` is `null` for a player who
    /// entered the stage but was not seated (withdrew).
    Knockout {
        stage: u32,
        place_at_table: Option<u8>,
    },
    /// Did not make the cut.
    Qualification,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RankedPlayer {
    /// From 1; shared only by players completely tied in the qualification standings.
    pub place: u32,
    pub player: AccountId,
    pub reached: Reached,
    pub withdrawn: bool,
}

/// The final ranking, published.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TournamentFinished {
    pub ranking: Vec<RankedPlayer>,
    /// Out of the ranking.
    pub disqualified: Vec<AccountId>,
}

/// The projector's round clock: started for `minutes`, to end at `ends_at` (seconds
/// since the Unix epoch, by the server's clock when it was set), or stopped (both
/// `null`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoundClockSet {
    pub minutes: Option<u32>,
    pub ends_at: Option<Timestamp>,
    pub by: Actor,
}

/// The line the projector shows, or none (`null`: taken down).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Announced {
    pub text: Option<String>,
    pub by: Actor,
}
