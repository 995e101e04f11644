//! Verifying a tournament's stored stream, in checks that catch different forgeries:
//!
//! - **chain**: the store's hash chain, recomputed from the stored bytes
//!   ([`crate::chain`]). Someone who edits a row behind
//!   the server's back breaks it at that row.
//! - **domain**: someone who also recomputes every later hash keeps the chain intact,
//!   but the events must still be ones the rules produce: the domain's audit
//!   (`yaniv_domain::tournament::audit`) re-derives every draw from its revealed seed,
//!   every result from its input and the final ranking from the results, each on the
//!   state before the event.
//! - **game**: a result that says it comes from an online game of this server
//!   (`{"source": "game", "game": "table-<id>", ...}`) must be that game's outcome:
//!   the table's game is over and its final standings, seat `i` being the tournament
//!   table's `i`-th player, are the result's totals and places. Results entered with
//!   `source: game` and no game id, or an id that is not `table-<id>`, are the
//!   officials' word and are not cross-checked.
//!
//! - **listing**: the stream against its listing row (a deleted tail leaves the row
//!   ahead: `truncated_stream`; see [`crate::listing`]).
//! - **links**: every online game in force that is over has its result in the
//!   tournament (`missing_result`, [`links`]).
//! - **checkpoints**: the stream against every checkpoint of its head
//!   (`truncated_since_checkpoint`, `rewritten_since_checkpoint`).
//!
//! A tampered stream is a verdict (`ok: false` naming the first failure), never an
//! error of the request.

pub mod links;

use serde::Serialize;
use yaniv_domain::aggregate::StoredEvent;
use yaniv_domain::table::{Table, TournamentLink};
use yaniv_domain::tournament::audit::{Audit, OnlineGameResult};
use yaniv_domain::tournament::{Event, PlayerResult, ResultInput, State};

use crate::chain::ChainStatus;
use crate::checkpoint::CheckpointReport;
use crate::report::{CheckReport, VerifyFailure};
use crate::table::chain_report;

/// Reads one stored event of a tournament stream.
fn decode(event_type: &str, payload: &str) -> Result<Event, yaniv_domain::aggregate::DecodeError> {
    <Event as StoredEvent>::decode(event_type, payload)
}

/// Which of the three checks failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// The stored hash chain.
    Chain,
    /// The events re-derived by the rules.
    Domain,
    /// A result against the online game it names.
    Game,
    /// The stream against its listing row.
    Listing,
    /// The online games in force against the results.
    Links,
    /// The stream against the checkpoints of its head.
    Checkpoints,
}

impl Check {
    /// The check's name, as serialised.
    pub fn name(self) -> &'static str {
        match self {
            Self::Chain => "chain",
            Self::Domain => "domain",
            Self::Game => "game",
            Self::Listing => "listing",
            Self::Links => "links",
            Self::Checkpoints => "checkpoints",
        }
    }
}

/// The first event that does not check out, and which check says so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FirstFailure {
    pub check: Check,
    /// Stream version of the event.
    #[cfg_attr(feature = "openapi", schema(example = 14))]
    pub version: u64,
    /// Stable code: `hash_mismatch`, `prev_hash_mismatch`, `version_gap` (chain);
    /// `undecodable_event`, `commitment_mismatch`, `seed_mismatch`,
    /// `precommitted_mismatch`, `draw_mismatch`, `result_mismatch`,
    /// `ranking_mismatch`, ... or the domain's refusal code (domain);
    /// `game_not_found`, `game_unreadable`, `game_not_finished`,
    /// `game_result_mismatch` (game); `truncated_stream`, `listing_mismatch`
    /// (listing); `missing_result`, `game_not_linked` (links);
    /// `truncated_since_checkpoint`, `rewritten_since_checkpoint`,
    /// `checkpoint_head_removed`, `checkpoint_root_mismatch` (checkpoints).
    #[cfg_attr(feature = "openapi", schema(example = "draw_mismatch"))]
    pub code: String,
    /// Why, in English.
    pub reason: String,
}

/// The verdict of the online-game check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GamesReport {
    pub ok: bool,
    pub first_failure: Option<VerifyFailure>,
    /// Results compared with the online game they name.
    pub checked: u64,
}

/// `POST /v1/tournaments/{id}/verify`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentVerification {
    /// Every check passed.
    pub ok: bool,
    /// Events in the stream (its version when read).
    pub version: u64,
    /// Events the domain audit went through: all of them, or up to and including
    /// the first that does not check out.
    pub events_checked: u64,
    /// The earliest failure of the three checks.
    pub first_failure: Option<FirstFailure>,
    /// The hash chain, recomputed from the stored bytes.
    pub chain: CheckReport,
    /// The events re-derived by the rules (draws, results, ranking).
    pub domain: CheckReport,
    /// Results of online games against those games.
    pub games: GamesReport,
    /// The stream against its listing row (version and phase).
    pub listing: CheckReport,
    /// Online games in force that are over against the results recorded.
    pub links: CheckReport,
    /// The stream against every checkpoint of its head.
    pub checkpoints: CheckpointReport,
    /// Hex SHA-256 of the last event when the chain is intact.
    pub head_hash: Option<String>,
}

/// The stored events read as tournament events, up to the first that cannot be
/// read (its version and why).
#[derive(Debug)]
pub struct Decoded {
    pub events: Vec<Event>,
    pub undecodable: Option<VerifyFailure>,
}

/// Reads `(event type, payload)` pairs as stored, in version order.
pub fn decode_all<'a>(stored: impl IntoIterator<Item = (&'a str, &'a str)>) -> Decoded {
    let mut events = Vec::new();
    for (index, (event_type, payload)) in stored.into_iter().enumerate() {
        match decode(event_type, payload) {
            Ok(event) => events.push(event),
            Err(e) => {
                return Decoded {
                    events,
                    undecodable: Some(failure(index as u64 + 1, "undecodable_event", e)),
                };
            }
        }
    }
    Decoded {
        events,
        undecodable: None,
    }
}

/// What the stream says without checking it, for deciding who may verify it.
pub fn fold(events: &[Event]) -> State {
    let mut state = State::default();
    for event in events {
        state.apply(event);
    }
    state
}

/// The domain audit of the readable events.
#[derive(Debug)]
pub struct DomainAudit {
    pub report: CheckReport,
    pub events_checked: u64,
    /// The results that name an online game, with their versions, up to the first
    /// failure.
    pub online: Vec<(u64, OnlineGameResult)>,
}

/// Runs the domain audit over the readable events of tournament `id`; an unreadable
/// event after them is the failure when they all check out.
pub fn audit(id: i64, decoded: &Decoded) -> DomainAudit {
    let mut audit = Audit::of_tournament(id);
    let mut online = Vec::new();
    for event in &decoded.events {
        match audit.check(event) {
            Ok(Some(game)) => online.push((audit.version(), game)),
            Ok(None) => {}
            Err(error) => {
                return DomainAudit {
                    report: report(Some(failure(error.version, error.code(), &error.mismatch))),
                    events_checked: error.version,
                    online,
                };
            }
        }
    }
    let events_checked = audit.version() + u64::from(decoded.undecodable.is_some());
    DomainAudit {
        report: report(decoded.undecodable.clone()),
        events_checked,
        online,
    }
}

/// The id of the online table a result names, when it names one of this server's
/// tables (`table-<id>`).
pub fn linked_table(game: &str) -> Option<i64> {
    let id: i64 = game.strip_prefix("table-")?.parse().ok()?;
    (id > 0 && game == format!("table-{id}")).then_some(id)
}

/// Where a table named by a result stands.
#[derive(Debug)]
pub enum LinkedGame {
    /// No such table.
    Missing,
    /// Its stream cannot be folded.
    Unreadable,
    Found(Box<Table>),
}

/// The game check of one result (stored at `version`): `None` when the game
/// confirms it.
pub fn check_game(
    tournament_id: i64,
    version: u64,
    claimed: &OnlineGameResult,
    game: &LinkedGame,
) -> Option<VerifyFailure> {
    let table = match game {
        LinkedGame::Missing => {
            return Some(failure(
                version,
                "game_not_found",
                format!(
                    "{}: there is no online game {}",
                    claimed.table, claimed.game
                ),
            ));
        }
        LinkedGame::Unreadable => {
            return Some(failure(
                version,
                "game_unreadable",
                format!(
                    "{}: the stream of {} cannot be read",
                    claimed.table, claimed.game
                ),
            ));
        }
        LinkedGame::Found(table) => table,
    };
    // Only a game the tournament's draw opened for this very table can stand behind
    // the result: any other finished game with the same players proves nothing.
    let link = TournamentLink {
        tournament_id,
        table: claimed.table,
    };
    if table.created.tournament != Some(link) {
        return Some(failure(
            version,
            "game_not_linked",
            format!(
                "{}: {} was not opened for this table of this tournament",
                claimed.table, claimed.game
            ),
        ));
    }
    if !table.game.is_finished() {
        return Some(failure(
            version,
            "game_not_finished",
            format!("{}: the game {} is not over", claimed.table, claimed.game),
        ));
    }
    // The game's own seats say who played where: a player who left the tournament
    // after the draw is not seated at a game started later.
    let accounts = table.human_accounts();
    let seated_here = accounts.iter().all(|a| claimed.seats.contains(a));
    let played = ResultInput::from_game(&table.game, &accounts, None)
        .ok()
        .filter(|_| seated_here)
        .map(|input| match input {
            ResultInput::Game { standings, .. } => standings,
            _ => Vec::new(),
        });
    let by_player = |result: &[PlayerResult]| {
        let mut lines = result.to_vec();
        lines.sort_by_key(|l| l.player);
        lines
    };
    if played.as_deref().map(by_player) != Some(by_player(&claimed.result)) {
        return Some(failure(
            version,
            "game_result_mismatch",
            format!(
                "{}: the result is not the final standings of {} (its players: {:?}; drawn: {:?})",
                claimed.table, claimed.game, accounts, claimed.seats
            ),
        ));
    }
    None
}

/// What the stream is compared with besides itself.
#[derive(Debug)]
pub struct Witnesses {
    pub listing: CheckReport,
    pub links: CheckReport,
    pub checkpoints: CheckpointReport,
}

impl Witnesses {
    /// Nothing to compare with (unit tests of the other checks).
    pub fn agreeing() -> Self {
        let ok = CheckReport {
            ok: true,
            first_failure: None,
        };
        Self {
            listing: ok.clone(),
            links: ok,
            checkpoints: CheckpointReport {
                ok: true,
                first_failure: None,
                checked: 0,
            },
        }
    }
}

/// Every verdict combined.
pub fn combine(
    version: u64,
    chain: &ChainStatus,
    domain: DomainAudit,
    games: GamesReport,
    witnesses: Witnesses,
) -> TournamentVerification {
    let (chain, head_hash) = chain_report(chain);
    let Witnesses {
        listing,
        links,
        checkpoints,
    } = witnesses;
    // At one version the chain's finding comes first, then the witnesses' (a cut tail
    // is reported as cut, verification.md 1.3 and 20.3), then what the events mean.
    let first_failure = [
        (Check::Chain, &chain.first_failure),
        (Check::Listing, &listing.first_failure),
        (Check::Checkpoints, &checkpoints.first_failure),
        (Check::Links, &links.first_failure),
        (Check::Domain, &domain.report.first_failure),
        (Check::Game, &games.first_failure),
    ]
    .into_iter()
    .filter_map(|(check, failure)| failure.as_ref().map(|f| (check, f)))
    .min_by_key(|(_, f)| f.version)
    .map(|(check, f)| FirstFailure {
        check,
        version: f.version,
        code: f.code.clone(),
        reason: f.reason.clone(),
    });
    TournamentVerification {
        ok: chain.ok && domain.report.ok && games.ok && listing.ok && links.ok && checkpoints.ok,
        version,
        events_checked: domain.events_checked,
        first_failure,
        chain,
        domain: domain.report,
        games,
        listing,
        links,
        checkpoints,
        head_hash,
    }
}

fn failure(version: u64, code: &str, reason: impl ToString) -> VerifyFailure {
    VerifyFailure {
        version,
        reason: reason.to_string(),
        code: code.to_owned(),
    }
}

fn report(failure: Option<VerifyFailure>) -> CheckReport {
    CheckReport {
        ok: failure.is_none(),
        first_failure: failure,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use yaniv_domain::bots::BotKind;
    use yaniv_domain::rules::{Preset, RuleSpec};
    use yaniv_domain::sim::{SimOptions, Simulator, make_bots};
    use yaniv_domain::tournament::sim::{TournamentSim, simulate};
    use yaniv_domain::tournament::{ConfigRequest, TableRef};

    use super::*;
    use crate::chain::ChainBreak;
    use yaniv_domain::table::{StreamEvent, TableEvent};

    /// A small championship as stored: `(event type, payload)`.
    fn stored() -> Vec<(String, String)> {
        let sim = simulate(&TournamentSim {
            rules: RuleSpec {
                preset: "belgian".into(),
                overrides: Default::default(),
            },
            config: ConfigRequest::default(),
            players: 8,
            bot: BotKind::Greedy,
            seed: 3,
        })
        .expect("a simulated championship");
        sim.tournament
            .events()
            .iter()
            .map(|e| (e.type_name().to_owned(), serde_json::to_string(e).unwrap()))
            .collect()
    }

    fn decoded(stored: &[(String, String)]) -> Decoded {
        decode_all(stored.iter().map(|(t, p)| (t.as_str(), p.as_str())))
    }

    fn intact(events: usize) -> ChainStatus {
        ChainStatus::Intact {
            events: events as u64,
            head: Some([7; 32]),
        }
    }

    fn no_games() -> GamesReport {
        GamesReport {
            ok: true,
            first_failure: None,
            checked: 0,
        }
    }

    #[test]
    fn a_clean_stream_verifies() {
        let stored = stored();
        let domain = audit(1, &decoded(&stored));
        assert!(
            !domain.online.is_empty(),
            "the simulation enters game results"
        );
        let verdict = combine(
            stored.len() as u64,
            &intact(stored.len()),
            domain,
            no_games(),
            Witnesses::agreeing(),
        );
        assert!(verdict.ok, "{verdict:?}");
        assert_eq!(verdict.events_checked, stored.len() as u64);
        assert_eq!(verdict.head_hash, Some(hex::encode([7; 32])));
        assert!(verdict.first_failure.is_none());
    }

    #[test]
    fn an_undecodable_event_is_a_domain_failure_at_its_version() {
        let mut stored = stored();
        stored[3].1 = "{\"type\": \"nonsense\"}".into();
        let decoded = decoded(&stored);
        assert_eq!(decoded.events.len(), 3);
        let domain = audit(1, &decoded);
        assert_eq!(domain.events_checked, 4);
        let verdict = combine(
            stored.len() as u64,
            &intact(stored.len()),
            domain,
            no_games(),
            Witnesses::agreeing(),
        );
        assert!(!verdict.ok);
        let first = verdict.first_failure.unwrap();
        assert_eq!(
            (first.check, first.version, first.code.as_str()),
            (Check::Domain, 4, "undecodable_event")
        );
    }

    #[test]
    fn the_earliest_failure_of_the_three_checks_comes_first() {
        let mut stored = stored();
        let at = stored
            .iter()
            .position(|(t, _)| t == "tournament_finished.v1")
            .unwrap();
        let mut finished: serde_json::Value = serde_json::from_str(&stored[at].1).unwrap();
        finished["ranking"][0]["player"] = finished["ranking"][1]["player"].clone();
        stored[at].1 = finished.to_string();
        let domain = audit(1, &decoded(&stored));
        assert_eq!(domain.events_checked, at as u64 + 1);
        let broken = ChainStatus::Broken {
            version: 5,
            reason: ChainBreak::HashMismatch,
        };
        let verdict = combine(
            stored.len() as u64,
            &broken,
            domain,
            no_games(),
            Witnesses::agreeing(),
        );
        let first = verdict.first_failure.clone().unwrap();
        assert_eq!((first.check, first.version), (Check::Chain, 5));
        assert_eq!(
            verdict.domain.first_failure.unwrap().code,
            "ranking_mismatch"
        );
        assert!(verdict.head_hash.is_none());

        let domain = audit(1, &decoded(&stored));
        let games = GamesReport {
            ok: false,
            first_failure: Some(failure(2, "game_result_mismatch", "x")),
            checked: 1,
        };
        let verdict = combine(
            stored.len() as u64,
            &intact(stored.len()),
            domain,
            games,
            Witnesses::agreeing(),
        );
        let first = verdict.first_failure.unwrap();
        assert_eq!((first.check, first.version), (Check::Game, 2));
    }

    #[test]
    fn only_this_servers_tables_are_linked() {
        assert_eq!(linked_table("table-12"), Some(12));
        for other in [
            "table-0",
            "table--3",
            "table-012",
            "table-+4",
            "sim-00ff",
            "table-",
            "",
        ] {
            assert_eq!(linked_table(other), None, "{other}");
        }
    }

    fn claimed() -> OnlineGameResult {
        OnlineGameResult {
            table: TableRef {
                stage: 1,
                round: 1,
                table: 2,
            },
            game: "table-9".into(),
            seats: vec![5, 6],
            result: vec![
                PlayerResult {
                    player: 6,
                    total: 10,
                    place: 1,
                },
                PlayerResult {
                    player: 5,
                    total: 70,
                    place: 2,
                },
            ],
        }
    }

    #[test]
    fn a_missing_or_unreadable_game_fails_the_game_check() {
        let missing = check_game(3, 8, &claimed(), &LinkedGame::Missing).unwrap();
        assert_eq!(
            (missing.version, missing.code.as_str()),
            (8, "game_not_found")
        );
        assert!(missing.reason.contains("table-9"), "{}", missing.reason);
        let unreadable = check_game(3, 8, &claimed(), &LinkedGame::Unreadable).unwrap();
        assert_eq!(unreadable.code, "game_unreadable");
    }

    /// Online table 9: two seats, started, and the first `played` events of a bots'
    /// game (all of them when `None`).
    fn online_table(played: Option<usize>) -> LinkedGame {
        let rules = Preset::Israeli.rules();
        let mut simulator = Simulator::new(SimOptions {
            record: true,
            ..SimOptions::default()
        });
        let mut bots = make_bots(BotKind::Greedy, 2, 11);
        let summary = simulator
            .play(&rules, 2, 11, &mut bots)
            .expect("the bots finish");
        let mut game = summary.log.expect("recorded");
        game.truncate(played.unwrap_or(game.len()));
        let lifecycle = [
            json!({"type": "table_created.v1",
                   "rules": {"preset": "israeli", "overrides": {}},
                   "effective_rules": rules, "seats": 2, "bots": [],
                   "created_by": {"account_id": 5, "username": "ann"},
                   "tournament": {"tournament_id": 3, "table": {"stage": 1, "round": 1, "table": 2}}}),
            json!({"type": "seat_taken.v1", "seat": 0, "account_id": 5, "username": "ann"}),
            json!({"type": "seat_taken.v1", "seat": 1, "account_id": 6, "username": "bob"}),
            json!({"type": "table_started.v1", "started_by": 5, "players": ["ann", "bob"]}),
        ]
        .map(|e| {
            StreamEvent::Table(serde_json::from_value::<TableEvent>(e).expect("a table event"))
        });
        let events = lifecycle
            .into_iter()
            .chain(game.into_iter().map(StreamEvent::Game));
        let table = Table::fold(9, events)
            .expect("a valid table stream")
            .expect("a table");
        LinkedGame::Found(Box::new(table))
    }

    /// What table 9's finished game gives, seat 0 being account 5.
    fn its_result(game: &LinkedGame) -> Vec<PlayerResult> {
        let LinkedGame::Found(table) = game else {
            panic!("a table");
        };
        ResultInput::from_game(&table.game, &[5, 6], None)
            .and_then(|input| input.resolve(table.rules()))
            .expect("a finished game")
    }

    #[test]
    fn a_result_must_be_the_final_standings_of_its_game() {
        let game = online_table(None);
        let mut claimed = claimed();
        claimed.result = its_result(&game);
        assert_eq!(check_game(3, 8, &claimed, &game), None);

        let mut changed = claimed.clone();
        changed.result[0].total += 1;
        let failure = check_game(3, 8, &changed, &game).unwrap();
        assert_eq!(
            (failure.version, failure.code.as_str()),
            (8, "game_result_mismatch")
        );

        // The result is read through the game's own seats, whatever the draw's order.
        let mut swapped = claimed.clone();
        swapped.seats.reverse();
        assert_eq!(check_game(3, 8, &swapped, &game), None);

        // A drawn player who left the tournament before this game began is not in it,
        // and not in the result: the result still confirms.
        let mut dropped = claimed.clone();
        dropped.seats.push(7);
        assert_eq!(check_game(3, 8, &dropped, &game), None);

        // A player of the game who was not drawn at this table.
        let mut stranger = claimed.clone();
        stranger.seats.retain(|&p| p != 6);
        assert_eq!(
            check_game(3, 8, &stranger, &game).unwrap().code,
            "game_result_mismatch"
        );

        // The same game named by another table, or by another tournament.
        let mut elsewhere = claimed.clone();
        elsewhere.table.table = 1;
        assert_eq!(
            check_game(3, 8, &elsewhere, &game).unwrap().code,
            "game_not_linked"
        );
        assert_eq!(
            check_game(4, 8, &claimed, &game).unwrap().code,
            "game_not_linked"
        );
    }

    #[test]
    fn a_game_still_playing_confirms_nothing() {
        let mut claimed = claimed();
        claimed.result = its_result(&online_table(None));
        let playing = online_table(Some(3));
        let failure = check_game(3, 8, &claimed, &playing).unwrap();
        assert_eq!(failure.code, "game_not_finished");
    }
}
