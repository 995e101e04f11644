//! Read models for the API: the tournament at a glance, the stages and their bracket, the
//! players, and one account's own part in it ([`OwnView`]). Plain serializable values
//! computed from the folded state.

use serde::Serialize;

use crate::rules::RuleSpec;
use crate::shuffle::{Commitment, Seed};

use super::config::Config;
use super::event::{PlayerResult, RecordedSeeding, RegistrationWindow};
use super::refs::{AccountId, RoundRef, StageKind, TableRef, Timestamp};
use super::standings::StandingsRow;
use super::state::{Player, Registration, Round, State, Table};
use super::table_points::{Points, ScoreDifference, score_differences, table_points};

/// Where the tournament stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", schema(as = TournamentPhase))]
pub enum Phase {
    /// Created; registration never opened.
    Setup,
    RegistrationOpen,
    RegistrationClosed,
    Qualification,
    Knockout,
    Finished,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentView {
    pub name: String,
    pub organizer: AccountId,
    pub phase: Phase,
    pub rules: RuleSpec,
    pub capacity: u32,
    /// Registered and not withdrawn.
    pub registered: u32,
    pub registration_window: RegistrationWindow,
    pub config: Config,
    pub referees: Vec<AccountId>,
    pub current_stage: Option<u32>,
    /// The published commitment of the next draw, if any.
    pub pending_commitment: Option<Commitment>,
    /// Rounds whose draw a later result change would have altered (see `flags.rs`).
    pub flagged_rounds: Vec<RoundRef>,
    pub open_disputes: Vec<u32>,
    /// The projector's round clock: when it ends (seconds since the Unix epoch).
    pub clock_ends_at: Option<Timestamp>,
    /// The projector's announcement.
    pub announcement: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TournamentPlayerView))]
pub struct PlayerView {
    pub player: AccountId,
    pub registration: u32,
    pub checked_in: bool,
    pub withdrawn: bool,
    pub disqualified: bool,
    /// Entered late: the first qualification round the player was drawn into (the
    /// rounds before it count as missed).
    pub first_round: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TournamentStageView))]
pub struct StageView {
    pub stage: u32,
    pub kind: StageKind,
    /// Qualification: players dropped for not checking in.
    pub dropped: Vec<AccountId>,
    /// The qualification of a tournament seeded by rating: the order it started from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seeding: Option<RecordedSeeding>,
    pub rounds: Vec<RoundView>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TournamentRoundView))]
pub struct RoundView {
    pub round: RoundRef,
    pub algorithm: String,
    pub commitment: Commitment,
    pub seed: Seed,
    pub precommitted: bool,
    pub redraws: u32,
    pub flagged: bool,
    pub complete: bool,
    pub final_table: bool,
    /// Knockout: entrants best first; byes go through without playing.
    pub seeds: Vec<AccountId>,
    pub byes: Vec<AccountId>,
    pub tables: Vec<TableView>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TournamentTableView))]
pub struct TableView {
    pub table: TableRef,
    /// In seat order.
    pub players: Vec<AccountId>,
    pub started: bool,
    pub game: Option<String>,
    pub result: Option<Vec<PlayerResult>>,
    pub corrections: u32,
    pub voids: u32,
    /// Drawn here and recorded as no-shows: the game is played without them.
    pub absent: Vec<AccountId>,
    /// Knockout tables with a result: who goes through.
    pub advancing: Vec<AccountId>,
}

/// One account's part in a tournament: what a player's client shows them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TournamentOwnView))]
pub struct OwnView {
    /// `None` when the account never registered.
    pub player: Option<PlayerView>,
    /// The latest table the account was drawn to: the current round's, or the last
    /// one it played (`None` before its first draw).
    pub seat: Option<SeatView>,
    /// Every result in force that names the account, in the order the tables were
    /// drawn.
    pub results: Vec<OwnResult>,
    /// The account's row of the qualification standings, once it entered the
    /// qualification (disqualified players have none).
    pub standing: Option<StandingsRow>,
}

/// A table an account is drawn to.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TournamentSeatView))]
pub struct SeatView {
    pub table: TableRef,
    /// The account's seat, from 0, in the table's seat order.
    pub seat: u32,
    /// Everyone at the table, in seat order.
    pub players: Vec<AccountId>,
    pub started: bool,
    /// The online game's id, when there is one.
    pub game: Option<String>,
    pub has_result: bool,
}

/// One table's result, as one of its players sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TournamentOwnResult))]
pub struct OwnResult {
    pub table: TableRef,
    pub place: u8,
    /// Final total in the game.
    pub total: u32,
    /// What the place earns at this table, in 840ths of a point (`table_points.rs`).
    pub table_points: Points,
    /// Final total minus the table's mean, in 840ths of a point.
    pub score_difference: ScoreDifference,
}

/// One player's line at one drawn table: the result in force, or a no-show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TournamentResultLine))]
pub struct ResultLine {
    pub table: TableRef,
    pub player: AccountId,
    /// The player's seat, from 0, in the table's drawn order.
    pub seat: u32,
    /// Recorded as a no-show: no place, total or points at this table (the round counts
    /// as missed in the standings).
    pub absent: bool,
    /// Place in the game, from 1 (shared by ties).
    pub place: Option<u8>,
    /// Final total in the game.
    pub total: Option<u32>,
    /// What the place earns, in 840ths of a point.
    pub table_points: Option<Points>,
    /// Final total minus the table's mean, in 840ths of a point.
    pub score_difference: Option<ScoreDifference>,
}

fn player_view(p: &Player) -> PlayerView {
    PlayerView {
        player: p.account,
        registration: p.order,
        checked_in: p.checked_in,
        withdrawn: p.withdrawn,
        disqualified: p.disqualified.is_some(),
        first_round: p.first_round,
    }
}

/// `account`'s line of `result`, with the table points and score difference it earns.
fn own_result(table: TableRef, result: &[PlayerResult], account: AccountId) -> Option<OwnResult> {
    let i = result.iter().position(|l| l.player == account)?;
    Some(OwnResult {
        table,
        place: result[i].place,
        total: result[i].total,
        table_points: table_points(result)[i].1,
        score_difference: score_differences(result)[i].1,
    })
}

impl State {
    pub fn phase(&self) -> Phase {
        if self.finished.is_some() {
            return Phase::Finished;
        }
        match (self.current_stage().map(|s| s.kind), self.registration) {
            (Some(StageKind::Qualification), _) => Phase::Qualification,
            (Some(StageKind::Knockout), _) => Phase::Knockout,
            (None, Registration::NotOpened) => Phase::Setup,
            (None, Registration::Open) => Phase::RegistrationOpen,
            (None, Registration::Closed) => Phase::RegistrationClosed,
        }
    }

    pub fn view(&self) -> Option<TournamentView> {
        let info = self.info.as_ref()?;
        Some(TournamentView {
            name: info.name.clone(),
            organizer: info.organizer,
            phase: self.phase(),
            rules: info.rules.clone(),
            capacity: info.capacity,
            registered: self.registered,
            registration_window: info.registration_window,
            config: self.config.clone()?,
            referees: self.referees.iter().copied().collect(),
            current_stage: self.current_stage().map(|s| s.number),
            pending_commitment: self.pending_commitment,
            flagged_rounds: self.flagged.iter().copied().collect(),
            open_disputes: self
                .disputes
                .iter()
                .filter(|d| d.resolution.is_none())
                .map(|d| d.id)
                .collect(),
            clock_ends_at: self.clock_ends_at,
            announcement: self.announcement.clone(),
        })
    }

    pub fn player_views(&self) -> Vec<PlayerView> {
        self.players.iter().map(player_view).collect()
    }

    /// Every drawn table (the draws in force), in the order they were drawn.
    fn drawn_tables(&self) -> impl Iterator<Item = (TableRef, &Table)> {
        self.stages.iter().flat_map(|s| &s.rounds).flat_map(|r| {
            let at = r.draw.round_ref();
            r.tables.iter().zip(1..).map(move |(t, table)| {
                let at = TableRef {
                    stage: at.stage,
                    round: at.round,
                    table,
                };
                (at, t)
            })
        })
    }

    /// What `account` sees of its own part in the tournament (an account that never
    /// registered gets an empty view).
    pub fn own_view(&self, account: AccountId) -> OwnView {
        let seat = self
            .drawn_tables()
            .filter_map(|(at, t)| {
                let seat = t.players.iter().position(|&p| p == account)?;
                Some(SeatView {
                    table: at,
                    seat: seat as u32,
                    players: t.players.clone(),
                    started: t.started,
                    game: t.game.clone(),
                    has_result: t.result.is_some(),
                })
            })
            .last();
        let results = self
            .drawn_tables()
            .filter_map(|(at, t)| own_result(at, t.result.as_deref()?, account))
            .collect();
        OwnView {
            player: self.player(account).map(player_view),
            seat,
            results,
            standing: self
                .qualification_standings()
                .into_iter()
                .find(|row| row.stats.player == account),
        }
    }

    /// Every line of every drawn table that has a result or a no-show, in draw order
    /// then seat order; `round` keeps one round only.
    pub fn result_lines(&self, round: Option<RoundRef>) -> Vec<ResultLine> {
        let mut lines = Vec::new();
        for (at, t) in self.drawn_tables() {
            if round.is_some_and(|r| r != at.round_ref()) {
                continue;
            }
            let result = t.result.as_deref().unwrap_or_default();
            let points = table_points(result);
            let differences = score_differences(result);
            for (seat, &player) in t.players.iter().enumerate() {
                let absent = t.absent.contains(&player);
                let i = result.iter().position(|l| l.player == player);
                if i.is_none() && !absent {
                    continue;
                }
                lines.push(ResultLine {
                    table: at,
                    player,
                    seat: seat as u32,
                    absent,
                    place: i.map(|i| result[i].place),
                    total: i.map(|i| result[i].total),
                    table_points: i.map(|i| points[i].1),
                    score_difference: i.map(|i| differences[i].1),
                });
            }
        }
        lines
    }

    /// Every stage with its rounds and tables: the bracket.
    pub fn stage_views(&self) -> Vec<StageView> {
        let advance = self
            .config
            .as_ref()
            .map_or(1, |c| c.advance_per_table as usize);
        self.stages
            .iter()
            .map(|s| StageView {
                stage: s.number,
                kind: s.kind,
                dropped: s.dropped.clone(),
                seeding: s.seeding.clone(),
                rounds: s
                    .rounds
                    .iter()
                    .map(|r| self.round_view(r, s.kind, advance))
                    .collect(),
            })
            .collect()
    }

    fn round_view(&self, r: &Round, kind: StageKind, advance: usize) -> RoundView {
        let at = r.draw.round_ref();
        let position = |a: &AccountId| {
            r.draw
                .seeds
                .iter()
                .position(|s| s == a)
                .unwrap_or(usize::MAX)
        };
        RoundView {
            round: at,
            algorithm: r.draw.algorithm.clone(),
            commitment: r.draw.commitment,
            seed: r.draw.seed,
            precommitted: r.draw.precommitted,
            redraws: r.redraws,
            flagged: self.flagged.contains(&at),
            complete: r.is_complete(),
            final_table: r.draw.final_table,
            seeds: r.draw.seeds.clone(),
            byes: r.draw.byes.clone(),
            tables: r
                .tables
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let advancing = match (&t.result, kind, r.draw.final_table) {
                        (Some(result), StageKind::Knockout, false) => {
                            let mut lines: Vec<&PlayerResult> = result.iter().collect();
                            lines.sort_by_key(|l| (l.place, position(&l.player)));
                            lines.iter().take(advance).map(|l| l.player).collect()
                        }
                        _ => Vec::new(),
                    };
                    TableView {
                        table: TableRef {
                            stage: at.stage,
                            round: at.round,
                            table: i as u32 + 1,
                        },
                        players: t.players.clone(),
                        started: t.started,
                        game: t.game.clone(),
                        result: t.result.clone(),
                        corrections: t.corrections,
                        voids: t.voids.len() as u32,
                        absent: t.absent.clone(),
                        advancing,
                    }
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::shuffle::Seed;
    use crate::tournament::refs::Context;
    use crate::tournament::{Command, Tournament};

    const ORGANIZER: AccountId = 1;

    fn run(t: &mut Tournament, command: serde_json::Value) {
        let command: Command = serde_json::from_value(command).expect("a command");
        t.execute(&Context::account(ORGANIZER, 0), &command)
            .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    }

    /// Players 10 to 13 check in and are drawn to one table of 4 (two qualification
    /// rounds); player 14 registers but does not check in.
    fn drawn() -> Tournament {
        let mut t = Tournament::new();
        run(
            &mut t,
            json!({"command": "create", "name": "Cup", "rules": {"preset": "belgian"},
                   "capacity": 8,
                   "config": {"qualification_rounds": 2, "table_min": 4, "table_max": 4}}),
        );
        run(&mut t, json!({"command": "open_registration"}));
        for player in 10..=14 {
            run(&mut t, json!({"command": "register", "player": player}));
        }
        run(&mut t, json!({"command": "close_registration"}));
        for player in 10..=13 {
            run(&mut t, json!({"command": "check_in", "player": player}));
        }
        run(&mut t, json!({"command": "start_qualification"}));
        let seed = Seed([3; 32]);
        run(
            &mut t,
            json!({"command": "commit_draw_seed", "commitment": seed.commitment()}),
        );
        run(&mut t, json!({"command": "draw_round", "seed": seed}));
        t
    }

    const TABLE_1: TableRef = TableRef {
        stage: 1,
        round: 1,
        table: 1,
    };

    /// Table 1's players finish in seat order, 10 points apart.
    fn record_in_seat_order(t: &mut Tournament) -> Vec<AccountId> {
        let seats = t.state().table(TABLE_1).expect("table 1").players.clone();
        let standings: Vec<_> = seats
            .iter()
            .enumerate()
            .map(|(i, p)| json!({"player": p, "total": 10 * i, "place": i + 1}))
            .collect();
        run(
            t,
            json!({"command": "record_result", "table": TABLE_1,
                   "input": {"source": "game", "game": "table-9", "standings": standings}}),
        );
        seats
    }

    #[test]
    fn a_seated_player_sees_its_table_and_registration() {
        let mut t = drawn();
        let seats = t.state().table(TABLE_1).expect("table 1").players.clone();
        run(
            &mut t,
            json!({"command": "start_table_game", "table": TABLE_1, "game": "table-9"}),
        );
        let view = t.state().own_view(seats[2]);
        assert_eq!(
            view.player,
            Some(PlayerView {
                player: seats[2],
                registration: (seats[2] - 9) as u32,
                checked_in: true,
                withdrawn: false,
                disqualified: false,
                first_round: None,
            })
        );
        assert_eq!(
            view.seat,
            Some(SeatView {
                table: TABLE_1,
                seat: 2,
                players: seats.clone(),
                started: true,
                game: Some("table-9".into()),
                has_result: false,
            })
        );
        assert!(view.results.is_empty());
        let standing = view.standing.expect("a standings row");
        assert_eq!((standing.stats.player, standing.stats.games), (seats[2], 0));
    }

    #[test]
    fn results_carry_table_points_and_the_seat_moves_to_the_next_round() {
        let mut t = drawn();
        let seats = record_in_seat_order(&mut t);
        // Second at a table of 4: 66.67 points; total 10 against a mean of 15.
        let second = t.state().own_view(seats[1]);
        let expected = OwnResult {
            table: TABLE_1,
            place: 2,
            total: 10,
            table_points: Points(56_000),
            score_difference: ScoreDifference(-5 * 840),
        };
        assert_eq!(second.results, vec![expected]);
        assert_eq!(second.seat.as_ref().map(|s| s.has_result), Some(true));
        let standing = second.standing.expect("a standings row");
        assert_eq!(standing.place, 2);
        assert_eq!(standing.stats.table_points, Points(56_000));

        let seed = Seed([4; 32]);
        run(
            &mut t,
            json!({"command": "commit_draw_seed", "commitment": seed.commitment()}),
        );
        run(&mut t, json!({"command": "draw_round", "seed": seed}));
        let now = t.state().own_view(seats[1]);
        let seat = now.seat.expect("a seat in round 2");
        assert_eq!(seat.table.round_ref(), RoundRef { stage: 1, round: 2 });
        assert!(!seat.has_result && !seat.started && seat.game.is_none());
        assert_eq!(now.results, vec![expected], "round 1's result stays");
    }

    #[test]
    fn an_outsider_sees_nothing_and_a_dropped_player_only_its_registration() {
        let mut t = drawn();
        record_in_seat_order(&mut t);
        assert_eq!(
            t.state().own_view(77),
            OwnView {
                player: None,
                seat: None,
                results: Vec::new(),
                standing: None,
            }
        );
        let dropped = t.state().own_view(14);
        let player = dropped.player.expect("registered");
        assert_eq!((player.registration, player.checked_in), (5, false));
        assert_eq!(dropped.seat, None);
        assert!(dropped.results.is_empty());
        assert_eq!(dropped.standing, None, "never entered the qualification");
    }
}
