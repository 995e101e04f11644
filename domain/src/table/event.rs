//! What a table's stream holds: the table's own lifecycle events, defined here, and
//! the game's events ([`crate::game::Event`]), stored under their own type names.
//!
//! Every payload is the event's compact JSON *including* its `type` tag (the same
//! text `serde_json` writes for the tagged enums below and for the game's events);
//! a store's `event_type` column repeats the tag, and [`decode`] insists that both
//! agree. The payload text is what a server's hash chain covers, so these types must
//! serialize byte for byte as they always have: a change is a new `.v2` event.
//!
//! | type | when | payload |
//! | --- | --- | --- |
//! | `table_created.v1` | `POST /v1/tables` | rules as asked (preset + overrides) and as effective, seat count, bot seats, creator |
//! | `seat_taken.v1` | `POST /v1/tables/{id}/join` | seat, account id, username |
//! | `seat_left.v1` | `POST /v1/tables/{id}/leave` | seat, account id |
//! | `table_started.v1` | `POST /v1/tables/{id}/start` | who started it, the player names in seat order |
//! | `game_created.v1`, `round_dealt.v1`, `turn_played.v1`, ... | start, every action | the domain's events (`yaniv_domain::game::Event`) |
//! | `turn_timed_out.v1`, `window_passed.v1`, `window_closed.v1`, `seat_returned.v1` | the clock, a pass, a return | the clock's events ([`ClockEvent`]) |
//! | `deal_seed_committed.v1`, `entropy_contributed.v1` | before each deal at a table with player entropy | the server's committed seed, each seat's contribution ([`EntropyEvent`]) |
//!
//! The lifecycle events come first (version 1 is always `table_created.v1`), the
//! game's and the clock's events only after `table_started.v1`.

use serde::{Deserialize, Serialize};

use super::link::TableRef;
use crate::aggregate::DecodeError;
use crate::bots::BotKind;
use crate::game::Event as GameEvent;
use crate::rules::{RuleSpec, Rules};

use super::clock::{Clock, ClockEvent};
use super::entropy::EntropyEvent;

/// The bots a table can seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum BotKindName {
    /// Keeps its hand total low ([`crate::bots::GreedyBot`]).
    Greedy,
    /// A uniformly random legal action ([`crate::bots::RandomBot`]).
    Random,
}

impl BotKindName {
    pub fn domain(self) -> BotKind {
        match self {
            Self::Greedy => BotKind::Greedy,
            Self::Random => BotKind::Random,
        }
    }

    pub fn as_str(self) -> &'static str {
        self.domain().name()
    }

    /// The kind named `name` (`greedy`, `random`).
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Greedy, Self::Random]
            .into_iter()
            .find(|kind| kind.as_str() == name)
    }
}

/// The table's own events (the game's are [`GameEvent`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type")]
// One `table_created.v1` per stream: boxing it would buy nothing but indirection.
#[allow(clippy::large_enum_variant)]
pub enum TableEvent {
    #[serde(rename = "table_created.v1")]
    Created(TableCreated),
    #[serde(rename = "seat_taken.v1")]
    SeatTaken(SeatTaken),
    #[serde(rename = "seat_left.v1")]
    SeatLeft(SeatLeft),
    #[serde(rename = "table_started.v1")]
    Started(TableStarted),
}

impl TableEvent {
    /// Every type name, as stored in the `event_type` column.
    pub const TYPES: [&'static str; 4] = [
        "table_created.v1",
        "seat_taken.v1",
        "seat_left.v1",
        "table_started.v1",
    ];

    pub fn type_name(&self) -> &'static str {
        match self {
            Self::Created(_) => Self::TYPES[0],
            Self::SeatTaken(_) => Self::TYPES[1],
            Self::SeatLeft(_) => Self::TYPES[2],
            Self::Started(_) => Self::TYPES[3],
        }
    }
}

/// The table is set up: nobody sits yet except the bots.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TableCreated {
    /// The rules as the creator asked for them.
    pub rules: RuleSpec,
    /// The rules they resolve to today: what the game is played with, whatever a
    /// preset means later.
    pub effective_rules: Rules,
    /// Number of seats, bots included.
    pub seats: u8,
    /// Seats filled by the server's bots.
    pub bots: Vec<BotSeat>,
    pub created_by: AccountRef,
    /// Set when a tournament's draw created the table: its result goes to that
    /// tournament. Absent from the payload of every other table, so older events
    /// read (and hash) exactly as they were written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentLink>,
    /// The table's clock; absent (and not in the payload) at a table without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// Every deal's seed mixes the server's committed seed with the human seats'
    /// contributions (`table::entropy`). Absent from the payload when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub player_entropy: bool,
    /// The finished game counts towards the rating list (`docs/ratings.md` section 4):
    /// chosen at creation by an organizer, never on a tournament's table (which its
    /// tournament rates). Absent from the payload when false, so every table stored
    /// before the option existed reads and hashes as it did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
}

/// Which tournament table a game table plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TournamentLink {
    pub tournament_id: i64,
    pub table: TableRef,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct AccountRef {
    pub account_id: i64,
    pub username: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct BotSeat {
    pub seat: u8,
    pub kind: BotKindName,
    /// Its player name in the game (never a valid username, so never a clash).
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SeatTaken {
    pub seat: u8,
    pub account_id: i64,
    pub username: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SeatLeft {
    pub seat: u8,
    pub account_id: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TableStarted {
    pub started_by: i64,
    /// Player names in seat order (usernames, bot names): the game's `players`.
    pub players: Vec<String>,
}

/// One event of a table's stream. It serializes as the event it wraps (with that
/// event's `type` tag); [`decode`] reads it back by its type name.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TableStreamEvent))]
#[serde(untagged)]
pub enum StreamEvent {
    Table(TableEvent),
    Game(GameEvent),
    Clock(ClockEvent),
    Entropy(EntropyEvent),
}

impl StreamEvent {
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::Table(e) => e.type_name(),
            Self::Game(e) => e.type_name(),
            Self::Clock(e) => e.type_name(),
            Self::Entropy(e) => e.type_name(),
        }
    }
}

/// Reads one stored event of a table stream.
pub fn decode(event_type: &str, payload: &str) -> Result<StreamEvent, DecodeError> {
    let payload_error = |e: serde_json::Error| DecodeError::payload(event_type, &e);
    let event = if TableEvent::TYPES.contains(&event_type) {
        StreamEvent::Table(serde_json::from_str(payload).map_err(payload_error)?)
    } else if ClockEvent::TYPES.contains(&event_type) {
        StreamEvent::Clock(serde_json::from_str(payload).map_err(payload_error)?)
    } else if EntropyEvent::TYPES.contains(&event_type) {
        StreamEvent::Entropy(serde_json::from_str(payload).map_err(payload_error)?)
    } else {
        StreamEvent::Game(serde_json::from_str(payload).map_err(payload_error)?)
    };
    DecodeError::check_type(event_type, event.type_name())?;
    Ok(event)
}

/// A `table_created.v1` for unit tests: Israeli rules, 3 seats with a random bot in
/// seat 1, created by account 1 ("ann"), outside tournaments.
#[cfg(test)]
pub(crate) fn sample_created() -> TableCreated {
    TableCreated {
        rules: RuleSpec {
            preset: "israeli".into(),
            overrides: Default::default(),
        },
        effective_rules: crate::rules::Preset::Israeli.rules(),
        seats: 3,
        bots: vec![BotSeat {
            seat: 1,
            kind: BotKindName::Random,
            name: "random#2".into(),
        }],
        created_by: AccountRef {
            account_id: 1,
            username: "ann".into(),
        },
        tournament: None,
        clock: None,
        player_entropy: false,
        rated: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{CallKind, Called};

    #[test]
    fn events_round_trip_through_their_stored_form() {
        let created = StreamEvent::Table(TableEvent::Created(sample_created()));
        let StreamEvent::Table(TableEvent::Created(mut linked)) = created.clone() else {
            unreachable!()
        };
        linked.tournament = Some(TournamentLink {
            tournament_id: 3,
            table: TableRef {
                stage: 1,
                round: 2,
                table: 4,
            },
        });
        let linked = StreamEvent::Table(TableEvent::Created(linked));
        // A table outside tournaments stores no link at all, an unrated one no `rated`:
        // its payload (and hash) is what it was before links and ratings existed.
        let plain = serde_json::to_string(&created).unwrap();
        assert!(!plain.contains("tournament"));
        assert!(!plain.contains("rated"));
        let StreamEvent::Table(TableEvent::Created(mut rated)) = created.clone() else {
            unreachable!()
        };
        rated.rated = true;
        let rated = StreamEvent::Table(TableEvent::Created(rated));
        assert!(
            serde_json::to_string(&rated)
                .unwrap()
                .ends_with(r#","rated":true}"#)
        );
        let game = StreamEvent::Game(GameEvent::Called(Called {
            seat: 1,
            call: CallKind::Yaniv,
        }));
        for event in [created, linked, rated, game] {
            let payload = serde_json::to_string(&event).unwrap();
            assert!(payload.contains(event.type_name()));
            assert_eq!(decode(event.type_name(), &payload).unwrap(), event);
        }
    }

    #[test]
    fn the_type_column_and_the_payload_must_agree() {
        let payload = r#"{"type":"called.v1","seat":1,"call":"yaniv"}"#;
        assert!(matches!(
            decode("went_along.v1", payload),
            Err(DecodeError::TypeMismatch { .. })
        ));
        assert!(matches!(
            decode("seat_left.v1", payload),
            Err(DecodeError::Payload { .. })
        ));
        assert!(decode("called.v1", "{").is_err());
    }
}
