//! The result of a replay, `yaniv-result/1`: per round what the rules decided, keyed by
//! player name, then whether the game is over, who starts next and the standings. Every
//! number is copied from the `RoundEnded` and `GameFinished` events the engine produced;
//! nothing is scored here.

use serde::{Deserialize, Serialize};

use crate::game::{Event, Outcome, RoundEnded, Seat, Standing};

use super::player_map::PlayerMap;

/// The `format` of a replay result.
pub const RESULT_FORMAT: &str = "yaniv-result/1";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", schema(example = super::examples::example_result))]
pub struct ReplayResult {
    /// Always [`RESULT_FORMAT`].
    #[cfg_attr(feature = "openapi", schema(example = "yaniv-result/1"))]
    pub format: String,
    pub rounds: Vec<RoundResult>,
    pub finished: bool,
    /// Who starts the next round; absent when the game is over (and when no round was
    /// played: the first starter is drawn at random).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_starter: Option<String>,
    /// Best first; tied players share a place.
    pub standings: Vec<PlacedPlayer>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RoundResult {
    /// The hands shown at the end, of the players who played the round.
    #[cfg_attr(feature = "openapi", schema(value_type = std::collections::BTreeMap<String, u32>))]
    pub hand_totals: PlayerMap<u32>,
    /// `null` when the round ended on an emptied hand.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub caller: Option<String>,
    pub outcome: Outcome,
    /// Extension: the successful caller, the lowest hand that beat the caller, the winning
    /// Kluft caller or challenger, whose hand emptied, or after a false call the lowest of
    /// the others.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub winner: Option<String>,
    /// What the round added, before reductions.
    #[cfg_attr(feature = "openapi", schema(value_type = std::collections::BTreeMap<String, u32>))]
    pub points: PlayerMap<u32>,
    /// Every player's total after the round (reductions and bonuses applied).
    #[cfg_attr(feature = "openapi", schema(value_type = std::collections::BTreeMap<String, u32>))]
    pub totals: PlayerMap<u32>,
    pub reductions: Vec<ReductionResult>,
    /// Extension: successful-call bonuses, present only when one was given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bonuses: Vec<BonusResult>,
    pub eliminated: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ReductionResult {
    pub player: String,
    pub from: u32,
    pub to: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct BonusResult {
    pub player: String,
    pub minus: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PlacedPlayer {
    pub player: String,
    pub total: u32,
    pub place: u8,
}

impl RoundResult {
    /// The round as the engine ended it, with seats turned into names.
    pub fn from_event(e: &RoundEnded, players: &[String]) -> RoundResult {
        let name = |seat: Seat| {
            players
                .get(seat as usize)
                .cloned()
                .unwrap_or_else(|| format!("seat {seat}"))
        };
        let per_player = |values: &[Option<u32>]| -> PlayerMap<u32> {
            values
                .iter()
                .enumerate()
                .filter_map(|(seat, v)| v.map(|v| (name(seat as Seat), v)))
                .collect()
        };
        RoundResult {
            hand_totals: per_player(&e.hand_totals),
            caller: e.caller.map(name),
            outcome: e.outcome,
            winner: e.winner.map(name),
            points: per_player(&e.points),
            totals: e
                .totals
                .iter()
                .enumerate()
                .map(|(seat, &t)| (name(seat as Seat), t))
                .collect(),
            reductions: e
                .reductions
                .iter()
                .map(|r| ReductionResult {
                    player: name(r.seat),
                    from: r.from,
                    to: r.to,
                })
                .collect(),
            bonuses: e
                .bonuses
                .iter()
                .map(|b| BonusResult {
                    player: name(b.seat),
                    minus: b.minus,
                })
                .collect(),
            eliminated: e.eliminated.iter().map(|&s| name(s)).collect(),
        }
    }
}

impl ReplayResult {
    /// The result of a game from its events (`GameCreated` first) and its standings now
    /// (the `GameFinished` ones once it is over).
    pub fn from_events(events: &[Event], standings: &[Standing]) -> ReplayResult {
        let players: &[String] = match events.first() {
            Some(Event::GameCreated(e)) => &e.players,
            _ => &[],
        };
        let name = |seat: Seat| {
            players
                .get(seat as usize)
                .cloned()
                .unwrap_or_else(|| format!("seat {seat}"))
        };
        let mut rounds = Vec::new();
        let mut next_starter = None;
        let mut finished = false;
        for event in events {
            match event {
                Event::RoundEnded(e) => {
                    rounds.push(RoundResult::from_event(e, players));
                    next_starter = e.next_starter.map(name);
                }
                Event::GameFinished(_) => finished = true,
                _ => {}
            }
        }
        ReplayResult {
            format: RESULT_FORMAT.to_owned(),
            rounds,
            finished,
            next_starter: if finished { None } else { next_starter },
            standings: standings
                .iter()
                .map(|s| PlacedPlayer {
                    player: name(s.seat),
                    total: s.total,
                    place: s.place,
                })
                .collect(),
        }
    }
}
