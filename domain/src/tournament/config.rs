//! The championship format as parameters (TOURNAMENT.md: "Everything in it is a parameter
//! of the tournament"). [`ConfigRequest`] is what an organizer sends, every field optional;
//! [`ConfigRequest::resolve`] fills the defaults against the tournament's rules and
//! validates, giving the effective [`Config`] that the events store.

use serde::{Deserialize, Serialize};

use crate::game::MAX_PLAYERS;
use crate::rules::Rules;
use crate::table::clock::Clock;

use super::error::TournamentError;

/// Default number of qualification rounds (`R`).
pub const DEFAULT_QUALIFICATION_ROUNDS: u32 = 3;
/// Default table sizes of the qualification.
pub const DEFAULT_TABLE_MIN: u8 = 4;
pub const DEFAULT_TABLE_MAX: u8 = 6;
/// Default players advancing from each knockout table (`A`).
pub const DEFAULT_ADVANCE_PER_TABLE: u8 = 1;
/// Most players at the final table, by default (capped by the rules' `max_players`).
pub const DEFAULT_FINAL_TABLE_MAX: u8 = 8;
/// Most qualification rounds accepted.
pub const MAX_QUALIFICATION_ROUNDS: u32 = 50;

/// A criterion that orders the standings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// More table points first.
    TablePoints,
    /// More games won (first place, shared or not) first.
    GameWins,
    /// Lower score difference (own final total minus the table's mean, summed) first.
    ScoreDifference,
    /// Earlier registration first.
    RegistrationOrder,
}

/// The default order: TOURNAMENT.md "Standings order: table points, then game wins, then
/// lower score difference ..., then the earlier registration."
pub const DEFAULT_TIE_BREAKS: [TieBreak; 4] = [
    TieBreak::TablePoints,
    TieBreak::GameWins,
    TieBreak::ScoreDifference,
    TieBreak::RegistrationOrder,
];

/// How the first qualification round is grouped, and whose place comes first among
/// players the tie-breaks cannot separate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Seeding {
    /// Round 1 is a random draw from the round's committed seed; the registration order
    /// is the entry order.
    #[default]
    Random,
    /// At the start of the qualification the server records the entrants in the order
    /// of the rating list as it stands (`docs/ratings.md`); round 1 seats them by snake
    /// order over that list, and it is the entry order.
    Rating,
    /// The same, from the standings of the season the config names (`season`,
    /// `docs/seasons.md`): a season's final.
    Season,
}

impl Seeding {
    fn is_random(&self) -> bool {
        *self == Seeding::Random
    }
}

/// How many players of the qualification standings enter the knockout (`K`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum KnockoutCut {
    /// TOURNAMENT.md default: "the better half, rounded down to a multiple of the table
    /// size" (the knockout table size). When that is below 2 (fewer than two full
    /// knockout tables' worth of players), the better half itself, at least 2.
    BetterHalf,
    /// The top `n` (capped by the number of players still in the tournament).
    Top(u32),
}

impl KnockoutCut {
    /// The number of players entering the knockout out of `active` players still in.
    pub fn resolve(self, active: usize, table_size: usize) -> usize {
        match self {
            KnockoutCut::BetterHalf => {
                let half = active / 2;
                let rounded = half / table_size.max(1) * table_size;
                if rounded >= 2 {
                    rounded
                } else {
                    half.max(2).min(active)
                }
            }
            KnockoutCut::Top(n) => (n as usize).min(active),
        }
    }
}

/// How a qualification round a player missed counts in the standings: a round drawn
/// before a late entry, or a table where a referee recorded the player as a no-show.
/// The missed round counts as a game played, with no win.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AbsentScoring {
    /// As the last place of a table: no table points, and the highest score difference
    /// any player of the round has (so an absence never ranks above a game played).
    #[default]
    LastPlace,
    /// A fixed number of table points and score difference, in whole points.
    Fixed {
        table_points: u32,
        #[serde(default)]
        score_difference: i32,
    },
}

/// Bound of [`AbsentScoring::Fixed`]'s score difference, either way.
pub const MAX_ABSENT_SCORE_DIFFERENCE: i32 = 10_000;

impl AbsentScoring {
    fn is_last_place(&self) -> bool {
        *self == AbsentScoring::LastPlace
    }
}

/// The effective parameters, stored in `tournament_created.v1` and
/// `stages_configured.v1`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// `R`: rounds of the Swiss qualification.
    pub qualification_rounds: u32,
    /// Fewest players at a qualification table. Never undercut.
    pub table_min: u8,
    /// Most players at a qualification table (raised only when no split exists, see
    /// `seating/balance.rs`).
    pub table_max: u8,
    /// `K`.
    pub knockout_cut: KnockoutCut,
    /// Players per knockout table (default: `table_max`); the cut rounds to it.
    pub knockout_table_size: u8,
    /// `A`: players advancing from each knockout table.
    pub advance_per_table: u8,
    /// A knockout stage with at most this many players is played as the final table.
    pub final_table_max: u8,
    /// The standings order; complete ties under it share a place.
    pub tie_breaks: Vec<TieBreak>,
    /// Whether the organizer and referees may also play. Chosen at creation, never
    /// changed after; an official who plays has no power over any result or seating,
    /// nor over another player's place, and an official who does not play must remain.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub officials_may_play: bool,
    /// The clock of the tournament's online tables (each table keeps the clock it was
    /// opened with). None: they wait for their players forever.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// Whether the online tables opened from now on mix the players' contributions
    /// into every deal's seed (`table::entropy`). Absent from the payload when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub player_entropy: bool,
    /// How the qualification rounds a player missed count (late entries, no-shows).
    /// Left out of the payload when it is the default, so older events hash as before.
    #[serde(default, skip_serializing_if = "AbsentScoring::is_last_place")]
    pub absent_scoring: AbsentScoring,
    /// How many times one round may be redrawn (0 to [`MAX_REDRAWS_PER_ROUND`]): each
    /// redraw is a new seating from a new seed, so a bound keeps anyone from shopping
    /// for one. Left out of the payload at the default (1).
    #[serde(
        default = "default_redraws_per_round",
        skip_serializing_if = "is_default_redraws_per_round"
    )]
    pub redraws_per_round: u32,
    /// Whether a paper table's result must come round by round (a sheet of rounds or a
    /// whole game record), so that anyone can re-derive it; when false (the default),
    /// final totals alone are taken too (a `game` input without a game id). Left out of
    /// the payload when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rounds_required: bool,
    /// Whether the tournament's finished games count towards the server's rating list
    /// (`docs/ratings.md`). Every tournament here is an official one (only an
    /// organizer an admin appointed creates one), so it is on unless the organizer
    /// turns it off for a friendly or a rehearsal. Left out of the payload when true,
    /// so the events stored before it existed read as rated and hash as before.
    #[serde(default = "rated_by_default", skip_serializing_if = "is_rated")]
    pub rated: bool,
    /// How round 1 is grouped and the entry order that ends every tie. Left out of the
    /// payload when random (the default).
    #[serde(default, skip_serializing_if = "Seeding::is_random")]
    pub seeding: Seeding,
    /// Under `seeding: season`, the season whose standings seed round 1; absent (and
    /// not in the payload) otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub season: Option<i64>,
}

fn rated_by_default() -> bool {
    true
}

fn is_rated(rated: &bool) -> bool {
    *rated
}

/// The default of [`Config::redraws_per_round`].
pub const DEFAULT_REDRAWS_PER_ROUND: u32 = 1;
/// The most [`Config::redraws_per_round`] allows.
pub const MAX_REDRAWS_PER_ROUND: u32 = 5;

fn default_redraws_per_round() -> u32 {
    DEFAULT_REDRAWS_PER_ROUND
}

fn is_default_redraws_per_round(n: &u32) -> bool {
    *n == DEFAULT_REDRAWS_PER_ROUND
}

/// The parameters as an organizer sends them; absent fields take their defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ConfigRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualification_rounds: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_min: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_max: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knockout_cut: Option<KnockoutCut>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knockout_table_size: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advance_per_table: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_table_max: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie_breaks: Option<Vec<TieBreak>>,
    /// Only at creation; `false` by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub officials_may_play: Option<bool>,
    /// The clock of the online tables opened from now on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// Player entropy at the online tables opened from now on; `false` by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_entropy: Option<bool>,
    /// `last_place` by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub absent_scoring: Option<AbsentScoring>,
    /// 1 by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redraws_per_round: Option<u32>,
    /// `false` by default: paper results may be entered as final totals only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_required: Option<bool>,
    /// `true` by default: the games count towards the rating list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
    /// `random` by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeding: Option<Seeding>,
    /// The season of a final seeded by `season`: required with it, refused without.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub season: Option<i64>,
}

fn bad(field: &'static str, message: String) -> TournamentError {
    TournamentError::BadConfig { field, message }
}

impl ConfigRequest {
    /// The effective configuration for a tournament played under `rules`, validated.
    pub fn resolve(&self, rules: &Rules) -> Result<Config, TournamentError> {
        let seats_min = rules.min_players.max(2);
        let seats_max = rules.max_players.min(MAX_PLAYERS as u8);
        let table_min = self.table_min.unwrap_or(DEFAULT_TABLE_MIN);
        let table_max = self.table_max.unwrap_or(DEFAULT_TABLE_MAX);
        let config = Config {
            qualification_rounds: self
                .qualification_rounds
                .unwrap_or(DEFAULT_QUALIFICATION_ROUNDS),
            table_min,
            table_max,
            knockout_cut: self.knockout_cut.unwrap_or(KnockoutCut::BetterHalf),
            knockout_table_size: self.knockout_table_size.unwrap_or(table_max),
            advance_per_table: self.advance_per_table.unwrap_or(DEFAULT_ADVANCE_PER_TABLE),
            final_table_max: self
                .final_table_max
                .unwrap_or(DEFAULT_FINAL_TABLE_MAX.min(seats_max)),
            tie_breaks: self
                .tie_breaks
                .clone()
                .unwrap_or_else(|| DEFAULT_TIE_BREAKS.to_vec()),
            officials_may_play: self.officials_may_play.unwrap_or(false),
            clock: self.clock,
            player_entropy: self.player_entropy.unwrap_or(false),
            absent_scoring: self.absent_scoring.unwrap_or_default(),
            redraws_per_round: self.redraws_per_round.unwrap_or(DEFAULT_REDRAWS_PER_ROUND),
            rounds_required: self.rounds_required.unwrap_or(false),
            rated: self.rated.unwrap_or(true),
            seeding: self.seeding.unwrap_or_default(),
            season: self.season,
        };
        config.validate(seats_min, seats_max)?;
        Ok(config)
    }
}

impl Config {
    /// The defaults for `rules`.
    pub fn defaults(rules: &Rules) -> Result<Config, TournamentError> {
        ConfigRequest::default().resolve(rules)
    }

    fn validate(&self, seats_min: u8, seats_max: u8) -> Result<(), TournamentError> {
        if let Some(problem) = self
            .clock
            .and_then(|c| c.problems("clock").into_iter().next())
        {
            return Err(bad(
                "clock",
                format!("{}: {}", problem.field, problem.message),
            ));
        }
        if !(1..=MAX_QUALIFICATION_ROUNDS).contains(&self.qualification_rounds) {
            return Err(bad(
                "qualification_rounds",
                format!("1 to {MAX_QUALIFICATION_ROUNDS} rounds"),
            ));
        }
        let seats = seats_min..=seats_max;
        let range = format!("the rules seat {seats_min} to {seats_max} players at a table");
        if !seats.contains(&self.table_min) {
            return Err(bad("table_min", range));
        }
        if !seats.contains(&self.table_max) {
            return Err(bad("table_max", range));
        }
        if self.table_min > self.table_max {
            return Err(bad("table_min", "the minimum is above the maximum".into()));
        }
        if !seats.contains(&self.knockout_table_size) {
            return Err(bad("knockout_table_size", range));
        }
        if !seats.contains(&self.final_table_max) {
            return Err(bad("final_table_max", range));
        }
        if self.final_table_max < self.knockout_table_size {
            return Err(bad(
                "final_table_max",
                "the final table must seat at least a full knockout table".into(),
            ));
        }
        if self.advance_per_table == 0 || self.advance_per_table >= self.knockout_table_size {
            return Err(bad(
                "advance_per_table",
                format!(
                    "1 to {} (fewer than a knockout table seats, so every stage is smaller than the one before)",
                    self.knockout_table_size - 1
                ),
            ));
        }
        if let KnockoutCut::Top(n) = self.knockout_cut
            && n < 2
        {
            return Err(bad("knockout_cut", "at least 2 players".into()));
        }
        if let AbsentScoring::Fixed {
            table_points,
            score_difference,
        } = self.absent_scoring
        {
            if table_points > 100 {
                return Err(bad(
                    "absent_scoring",
                    "0 to 100 table points (what a game earns at most)".into(),
                ));
            }
            if score_difference.abs() > MAX_ABSENT_SCORE_DIFFERENCE {
                return Err(bad(
                    "absent_scoring",
                    format!(
                        "a score difference of -{MAX_ABSENT_SCORE_DIFFERENCE} to {MAX_ABSENT_SCORE_DIFFERENCE}"
                    ),
                ));
            }
        }
        if self.redraws_per_round > MAX_REDRAWS_PER_ROUND {
            return Err(bad(
                "redraws_per_round",
                format!("0 to {MAX_REDRAWS_PER_ROUND} redraws of one round"),
            ));
        }
        match (self.seeding, self.season) {
            (Seeding::Season, None) => {
                return Err(bad(
                    "season",
                    "a tournament seeded by a season names the season".into(),
                ));
            }
            (Seeding::Random | Seeding::Rating, Some(_)) => {
                return Err(bad(
                    "season",
                    "only a tournament seeded by a season names one".into(),
                ));
            }
            _ => {}
        }
        if self.tie_breaks.is_empty() {
            return Err(bad("tie_breaks", "at least one criterion".into()));
        }
        for (i, t) in self.tie_breaks.iter().enumerate() {
            if self.tie_breaks[..i].contains(t) {
                return Err(bad("tie_breaks", format!("{t:?} is listed twice")));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn defaults_follow_tournament_md() {
        let config = Config::defaults(&Preset::Belgian.rules()).expect("valid defaults");
        assert_eq!(config.qualification_rounds, 3);
        assert_eq!((config.table_min, config.table_max), (4, 6));
        assert_eq!(config.knockout_cut, KnockoutCut::BetterHalf);
        assert_eq!(config.knockout_table_size, 6);
        assert_eq!(config.advance_per_table, 1);
        assert_eq!(config.final_table_max, 8);
        assert_eq!(config.tie_breaks, DEFAULT_TIE_BREAKS.to_vec());
    }

    #[test]
    fn the_default_cut_is_the_better_half_rounded_to_the_table_size() {
        let cut = KnockoutCut::BetterHalf;
        assert_eq!(cut.resolve(23, 6), 6);
        assert_eq!(cut.resolve(100, 6), 48);
        assert_eq!(cut.resolve(24, 6), 12);
        // Fewer than two tables' worth: the better half itself.
        assert_eq!(cut.resolve(11, 6), 5);
        assert_eq!(cut.resolve(3, 6), 2);
        assert_eq!(KnockoutCut::Top(40).resolve(23, 6), 23);
    }

    #[test]
    fn bad_values_name_their_field() {
        let rules = Preset::Israeli.rules();
        let field = |request: ConfigRequest| match request.resolve(&rules) {
            Err(TournamentError::BadConfig { field, .. }) => field,
            other => panic!("expected bad_config, got {other:?}"),
        };
        assert_eq!(
            field(ConfigRequest {
                table_min: Some(7),
                ..Default::default()
            }),
            "table_min"
        );
        assert_eq!(
            field(ConfigRequest {
                table_max: Some(9),
                ..Default::default()
            }),
            "table_max"
        );
        assert_eq!(
            field(ConfigRequest {
                qualification_rounds: Some(0),
                ..Default::default()
            }),
            "qualification_rounds"
        );
        assert_eq!(
            field(ConfigRequest {
                advance_per_table: Some(6),
                ..Default::default()
            }),
            "advance_per_table"
        );
        assert_eq!(
            field(ConfigRequest {
                final_table_max: Some(5),
                ..Default::default()
            }),
            "final_table_max"
        );
        assert_eq!(
            field(ConfigRequest {
                knockout_cut: Some(KnockoutCut::Top(1)),
                ..Default::default()
            }),
            "knockout_cut"
        );
        assert_eq!(
            field(ConfigRequest {
                seeding: Some(Seeding::Season),
                ..Default::default()
            }),
            "season"
        );
        assert_eq!(
            field(ConfigRequest {
                seeding: Some(Seeding::Rating),
                season: Some(3),
                ..Default::default()
            }),
            "season"
        );
        assert_eq!(
            field(ConfigRequest {
                tie_breaks: Some(vec![]),
                ..Default::default()
            }),
            "tie_breaks"
        );
        assert_eq!(
            field(ConfigRequest {
                tie_breaks: Some(vec![TieBreak::GameWins, TieBreak::GameWins]),
                ..Default::default()
            }),
            "tie_breaks"
        );
        assert_eq!(
            field(ConfigRequest {
                clock: Some(Clock {
                    turn_ms: 30_000,
                    decision_ms: 10,
                    window_ms: 0,
                    absent_after: 2,
                }),
                ..Default::default()
            }),
            "clock"
        );
    }

    #[test]
    fn the_clock_of_online_tables_is_kept_as_given() {
        let clock = Clock {
            turn_ms: 30_000,
            decision_ms: 15_000,
            window_ms: 3_000,
            absent_after: 3,
        };
        let request = ConfigRequest {
            clock: Some(clock),
            ..Default::default()
        };
        let config = request.resolve(&Preset::Belgian.rules()).expect("valid");
        assert_eq!(config.clock, Some(clock));
        // A configuration without a clock stores none (its payload is unchanged).
        let plain = Config::defaults(&Preset::Belgian.rules()).expect("valid");
        assert!(!serde_json::to_string(&plain).unwrap().contains("clock"));
    }

    #[test]
    fn requests_deserialize_strictly() {
        let request: ConfigRequest = serde_json::from_value(serde_json::json!({
            "qualification_rounds": 4,
            "knockout_cut": {"top": 12},
            "tie_breaks": ["game_wins", "table_points"]
        }))
        .expect("valid request");
        assert_eq!(request.knockout_cut, Some(KnockoutCut::Top(12)));
        assert!(serde_json::from_value::<ConfigRequest>(serde_json::json!({"rounds": 4})).is_err());
    }

    /// verification.md 12, "The stored config": "Eight fields are written only when they
    /// differ from their default ... a field absent from a stored config has this
    /// value". A stored config without them reads as those defaults and is written
    /// back byte for byte, so older streams replay and hash as they did; each one set
    /// to something else is written.
    #[test]
    fn a_stored_config_without_its_optional_fields_reads_as_the_documented_defaults() {
        let stored = r#"{"qualification_rounds":3,"table_min":4,"table_max":6,"knockout_cut":"better_half","knockout_table_size":6,"advance_per_table":1,"final_table_max":8,"tie_breaks":["table_points","game_wins","score_difference","registration_order"]}"#;
        let config: Config = serde_json::from_str(stored).expect("an older stored config");
        assert!(!config.officials_may_play);
        assert_eq!(config.clock, None);
        assert!(!config.player_entropy);
        assert_eq!(config.absent_scoring, AbsentScoring::LastPlace);
        assert_eq!(config.redraws_per_round, 1);
        assert!(!config.rounds_required);
        assert!(config.rated);
        assert_eq!(config.seeding, Seeding::Random);
        assert_eq!(config.season, None);
        assert_eq!(serde_json::to_string(&config).unwrap(), stored);
        // What the server resolves an empty request to is what the table of 12 says.
        let defaults = Config::defaults(&Preset::Belgian.rules()).expect("valid");
        assert_eq!(serde_json::to_string(&defaults).unwrap(), stored);
        let set = Config {
            officials_may_play: true,
            player_entropy: true,
            absent_scoring: AbsentScoring::Fixed {
                table_points: 25,
                score_difference: 0,
            },
            redraws_per_round: 2,
            rounds_required: true,
            rated: false,
            seeding: Seeding::Season,
            season: Some(4),
            ..config
        };
        let written = serde_json::to_string(&set).unwrap();
        for field in [
            "officials_may_play",
            "player_entropy",
            "absent_scoring",
            "redraws_per_round",
            "rounds_required",
            "rated",
            "seeding",
            "season",
        ] {
            assert!(written.contains(field), "{field} in {written}");
        }
    }

    #[test]
    fn absences_score_as_last_place_unless_a_fixed_score_is_set() {
        let rules = Preset::Belgian.rules();
        let plain = Config::defaults(&rules).expect("valid");
        assert_eq!(plain.absent_scoring, AbsentScoring::LastPlace);
        // The default is left out of the payload: older events hash as before.
        assert!(!serde_json::to_string(&plain).unwrap().contains("absent"));
        let request: ConfigRequest = serde_json::from_value(serde_json::json!({
            "absent_scoring": {"kind": "fixed", "table_points": 25}
        }))
        .expect("valid request");
        let config = request.resolve(&rules).expect("valid");
        assert_eq!(
            config.absent_scoring,
            AbsentScoring::Fixed {
                table_points: 25,
                score_difference: 0
            }
        );
        for bad_scoring in [
            AbsentScoring::Fixed {
                table_points: 101,
                score_difference: 0,
            },
            AbsentScoring::Fixed {
                table_points: 0,
                score_difference: -10_001,
            },
        ] {
            let request = ConfigRequest {
                absent_scoring: Some(bad_scoring),
                ..Default::default()
            };
            assert!(matches!(
                request.resolve(&rules),
                Err(TournamentError::BadConfig {
                    field: "absent_scoring",
                    ..
                })
            ));
        }
    }
}
