//! Verifying a table's stream: the hash chain, recomputed from the stored bytes,
//! and the game, replayed through the rules.
//!
//! The checks catch different things. Someone who edits a row behind the server's
//! back (with the append-only trigger disabled) breaks the hash chain at that row.
//! Someone who also recomputes every later hash keeps the chain intact, but the game
//! they wrote must still be one the rules produce: every game event is decided again
//! from the state before it (`Game::replay_checked`), so an impossible throw, a
//! changed deal or a rewritten score is caught. When the rules only object some
//! events after the change (a turn that threw another card of the same hand is legal
//! where it stands), the replay names the changed event
//! (`yaniv_domain::game::earliest_divergence`) and keeps the rejection beside it.
//!
//! Deleting a stream's tail keeps the chain and the rules happy; the listing row
//! ([`crate::listing`]) and the checkpoints ([`crate::checkpoint`]) remember
//! the deleted events, and a checkpoint also the hash of every checkpointed head.

use serde::Serialize;
use yaniv_domain::game::{Deal, Event as GameEvent, Game, earliest_divergence_from};
use yaniv_domain::table::clock::{ClockEvent, TimedOutMove, first_wrong_stand_in};
use yaniv_domain::table::entropy::EntropyState;
use yaniv_domain::table::{StreamEvent, Table, TableEvent, decode};

use crate::chain::{ChainBreak, ChainStatus};
use crate::checkpoint::CheckpointReport;
pub use crate::report::{CheckReport, VerifyFailure};
use crate::report::{failure, report};
use crate::row::Row;

/// `POST /v1/tables/{id}/verify`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Verification {
    /// Both checks passed.
    pub ok: bool,
    /// Events in the stream.
    pub events: u64,
    /// The earlier of the two checks' first failures.
    pub first_failure: Option<VerifyFailure>,
    /// The hash chain, recomputed from the stored bytes.
    pub chain: CheckReport,
    /// The stream replayed: structure, then every game event re-decided by the rules.
    /// Its failure is the earliest event that differs from what the replay derives.
    pub replay: CheckReport,
    /// The first event the replay rejects, when it rejects one (it can come after
    /// `replay.first_failure`, the event that was changed).
    pub rule_failure: Option<VerifyFailure>,
    /// The stream against its listing row (version and status).
    pub listing: CheckReport,
    /// A tournament's finished game against its tournament's result.
    pub links: CheckReport,
    /// The stream against every checkpoint of its head.
    pub checkpoints: CheckpointReport,
    /// Hex SHA-256 of the last event when the chain is intact; while a round is in
    /// play, of the last event before `sealed_from` instead (a hash over a secret in
    /// play would let anyone try every card against it).
    pub head_hash: Option<String>,
    /// While a round is in play, the first version of its secrets: the verdict covers
    /// them, but `head_hash` stops before them and the reason of a failure among them
    /// waits for the round's end. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sealed_from: Option<u64>,
}

impl Verification {
    /// This verdict as it may leave the server while the events from version `from` on
    /// hold secrets in play: the head hash before them, the reasons of failures among
    /// them left out (code and version stay). `events` are the stream's stored events.
    pub fn sealed<R: Row>(mut self, from: Option<u64>, events: &[R]) -> Self {
        let Some(from) = from else {
            return self;
        };
        self.sealed_from = Some(from);
        if self.head_hash.is_some() {
            self.head_hash = events
                .iter()
                .rev()
                .find(|e| e.version() < from)
                .map(|e| hex::encode(e.hash()));
        }
        let seal = |failure: &mut Option<VerifyFailure>| {
            if let Some(f) = failure.as_mut().filter(|f| f.version >= from) {
                f.reason = "in the round still in play: the reason is given once it is over".into();
            }
        };
        seal(&mut self.first_failure);
        seal(&mut self.chain.first_failure);
        seal(&mut self.replay.first_failure);
        seal(&mut self.rule_failure);
        seal(&mut self.listing.first_failure);
        seal(&mut self.links.first_failure);
        seal(&mut self.checkpoints.first_failure);
        self
    }
}

/// The chain's verdict.
pub fn chain_report(status: &ChainStatus) -> (CheckReport, Option<String>) {
    match status {
        ChainStatus::Intact { head, .. } => (report(None), head.map(hex::encode)),
        ChainStatus::Broken { version, reason } => {
            let (code, text) = match reason {
                ChainBreak::VersionGap => ("version_gap", "a version is missing or repeated"),
                ChainBreak::PrevHashMismatch => (
                    "prev_hash_mismatch",
                    "the event does not point at the previous event's hash",
                ),
                ChainBreak::HashMismatch => (
                    "hash_mismatch",
                    "the stored hash is not the hash of the stored event: it was changed",
                ),
            };
            (report(Some(failure(*version, code, text))), None)
        }
    }
}

/// The last version a hash chain vouches for: the events before its first break,
/// except the one a wrong back link points at (its hash may have been recomputed
/// after it was changed). An intact chain vouches for none, since a forger may have
/// recomputed all of it.
pub fn vouched_through(status: &ChainStatus) -> u64 {
    match status {
        ChainStatus::Intact { .. } => 0,
        ChainStatus::Broken {
            version,
            reason: ChainBreak::PrevHashMismatch,
        } => version.saturating_sub(2),
        ChainStatus::Broken { version, .. } => version.saturating_sub(1),
    }
}

/// The replay's verdict: the earliest event that does not hold, and the first event
/// the rules reject (the same one unless a change was accepted where it was made).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replayed {
    pub report: CheckReport,
    pub rule_failure: Option<VerifyFailure>,
}

/// Replays a table's stored events: decodes each, checks the table's structure,
/// then re-decides every game event with the rules. The events up to version
/// `vouched_through` are known to be the ones first written (the chain breaks only
/// after them), so when the rules reject a later event, none of those is blamed for
/// it: a changed event that a single other turn before it would also explain is
/// still named where the chain says it was changed.
pub fn replay<R: Row>(id: i64, events: &[R], vouched_through: u64) -> Replayed {
    let (changed, rejected) = match first_replay_failure(id, events, vouched_through) {
        ReplayFailure::None => (None, None),
        ReplayFailure::Structure(failure) => (Some(failure.clone()), Some(failure)),
        ReplayFailure::Rules { changed, rejected } => (Some(changed), Some(rejected)),
    };
    Replayed {
        report: report(changed),
        rule_failure: rejected,
    }
}

enum ReplayFailure {
    None,
    Structure(VerifyFailure),
    /// The rules reject `rejected`; `changed` is the earliest event whose content
    /// differs from what the replay of the later events derives (maybe the same).
    Rules {
        changed: VerifyFailure,
        rejected: VerifyFailure,
    },
}

fn first_replay_failure<R: Row>(id: i64, events: &[R], vouched_through: u64) -> ReplayFailure {
    let mut table: Option<Table> = None;
    let mut game_events: Vec<GameEvent> = Vec::new();
    let mut game_versions: Vec<u64> = Vec::new();
    let mut started_players: Option<Vec<String>> = None;
    let mut timeouts: Vec<(TimedOutMove, u64)> = Vec::new();
    // Player entropy and each deal's seed against its commitment are checked event by
    // event, so that a seed changed after its commitment is named as such
    // (verification.md 2, `commitment_mismatch`) rather than as the deal the rules
    // would have made; the first such failure competes with the rules' for the
    // earliest version.
    let mut entropy: Option<EntropyState> = None;
    let mut entropy_failure: Option<VerifyFailure> = None;
    for (index, recorded) in events.iter().enumerate() {
        let version = index as u64 + 1;
        let event = match decode(recorded.event_type(), recorded.payload()) {
            Ok(event) => event,
            Err(e) => {
                return ReplayFailure::Structure(failure(
                    version,
                    "undecodable_event",
                    e.to_string(),
                ));
            }
        };
        if let Some(state) = &mut entropy
            && let Err(mismatch) = state.observe(&event)
            && entropy_failure.is_none()
        {
            entropy_failure = Some(failure(version, mismatch.code(), mismatch.to_string()));
        }
        if let StreamEvent::Game(GameEvent::RoundDealt(dealt)) = &event
            && let Deal::Shuffled {
                commitment, seed, ..
            } = &dealt.deal
            && seed.commitment() != *commitment
            && entropy_failure.is_none()
        {
            entropy_failure = Some(failure(
                version,
                "commitment_mismatch",
                format!(
                    "round {}: SHA-256 of the deal's seed is not its commitment",
                    dealt.round
                ),
            ));
        }
        match event {
            StreamEvent::Table(table_event) => {
                if let TableEvent::Created(created) = &table_event {
                    entropy = Some(EntropyState::of_table(created));
                }
                if let TableEvent::Started(started) = &table_event {
                    let seated = table.as_ref().map(Table::player_names);
                    if seated.as_ref() != Some(&started.players)
                        || started.players.iter().any(String::is_empty)
                    {
                        return ReplayFailure::Structure(failure(
                            version,
                            "table_mismatch",
                            "the players named at the start are not the ones seated",
                        ));
                    }
                    started_players = Some(started.players.clone());
                }
                let event = StreamEvent::Table(table_event);
                let applied = match &mut table {
                    Some(state) => state.apply(event).map_err(|e| e.to_string()),
                    None => Table::fold(id, [event])
                        .map(|state| table = state)
                        .map_err(|e| e.to_string()),
                };
                if let Err(reason) = applied {
                    return ReplayFailure::Structure(failure(version, "unexpected_event", reason));
                }
            }
            StreamEvent::Game(game_event) => {
                let Some(players) = &started_players else {
                    return ReplayFailure::Structure(failure(
                        version,
                        "unexpected_event",
                        format!("{} before the table started", game_event.type_name()),
                    ));
                };
                if game_events.is_empty() {
                    let created = match (&game_event, &table) {
                        (GameEvent::GameCreated(created), Some(table)) => Some((created, table)),
                        _ => None,
                    };
                    // The players are the table's (6); the rules its effective rules
                    // (9.1), a check of its own in section 24.
                    let mismatch = match created {
                        None => Some(("table_mismatch", "the game must be created first")),
                        Some((created, _)) if &created.players != players => Some((
                            "table_mismatch",
                            "the game must be created with the players the table started with",
                        )),
                        Some((created, table)) if &created.rules != table.rules() => Some((
                            "rules_mismatch",
                            "the game must be created with the table's effective rules",
                        )),
                        Some(_) => None,
                    };
                    if let Some((code, reason)) = mismatch {
                        return ReplayFailure::Structure(failure(version, code, reason));
                    }
                }
                game_events.push(game_event);
                game_versions.push(version);
            }
            StreamEvent::Clock(clock_event) => {
                let clocked = table.as_ref().is_some_and(|t| t.created.clock.is_some());
                if started_players.is_none() || !clocked {
                    return ReplayFailure::Structure(failure(
                        version,
                        "unexpected_event",
                        format!(
                            "{} at a table without a clock or before it started",
                            clock_event.type_name()
                        ),
                    ));
                }
                if let ClockEvent::TurnTimedOut(timed_out) = clock_event {
                    let at = TimedOutMove {
                        seat: timed_out.seat,
                        game_index: game_events.len(),
                    };
                    timeouts.push((at, version));
                }
            }
            StreamEvent::Entropy(entropy_event) => {
                if started_players.is_none() {
                    return ReplayFailure::Structure(failure(
                        version,
                        "unexpected_event",
                        format!("{} before the table started", entropy_event.type_name()),
                    ));
                }
            }
        }
    }
    let by_rules = rules_verdict(
        &game_events,
        &game_versions,
        &timeouts,
        events.len() as u64,
        vouched_through,
    );
    match (entropy_failure, by_rules) {
        (Some(entropy), ReplayFailure::None) => ReplayFailure::Structure(entropy),
        (Some(entropy), ReplayFailure::Rules { changed, .. })
            if entropy.version <= changed.version =>
        {
            ReplayFailure::Structure(entropy)
        }
        (_, by_rules) => by_rules,
    }
}

/// The game's events re-decided by the rules, and the stand-in's moves checked.
fn rules_verdict(
    game_events: &[GameEvent],
    game_versions: &[u64],
    timeouts: &[(TimedOutMove, u64)],
    stream_length: u64,
    vouched_through: u64,
) -> ReplayFailure {
    let Err((index, error)) = Game::replay_checked(game_events) else {
        let moves: Vec<TimedOutMove> = timeouts.iter().map(|(at, _)| *at).collect();
        return match first_wrong_stand_in(game_events, &moves) {
            None => ReplayFailure::None,
            Some(wrong) => {
                let at = moves[wrong].game_index;
                let version = game_versions.get(at).copied().unwrap_or(timeouts[wrong].1);
                let failure = failure(
                    version,
                    "stand_in_mismatch",
                    "this move follows a timeout, but it is not the move the server plays for a \
                     seat whose time ran out",
                );
                ReplayFailure::Rules {
                    changed: failure.clone(),
                    rejected: failure,
                }
            }
        };
    };
    // An event the rules expect past the stream's end is missing at the next version.
    let past_the_end = stream_length + 1;
    let version_of = |index: usize| game_versions.get(index).copied().unwrap_or(past_the_end);
    let rejected = failure(version_of(index), error.code(), error.to_string());
    let first_suspect = game_versions.partition_point(|&version| version <= vouched_through);
    let changed = match earliest_divergence_from(game_events, first_suspect, index) {
        Some(changed) if changed < index => failure(
            version_of(changed),
            "diverging_event",
            format!(
                "the rules accept this event where it stands, but the game after it holds \
                 only if it was different: it was changed, and the rules reject version {} \
                 ({}) because of it",
                rejected.version, rejected.code
            ),
        ),
        _ => rejected.clone(),
    };
    ReplayFailure::Rules { changed, rejected }
}

/// What the stream is compared with besides itself.
#[derive(Debug)]
pub struct Witnesses {
    pub listing: CheckReport,
    pub links: CheckReport,
    pub checkpoints: CheckpointReport,
}

/// Every verdict combined.
pub fn combine(
    events: u64,
    chain: &ChainStatus,
    replay: Replayed,
    witnesses: Witnesses,
) -> Verification {
    let (chain, head_hash) = chain_report(chain);
    let Witnesses {
        listing,
        links,
        checkpoints,
    } = witnesses;
    // At the same version, what the witnesses say explains what the replay sees: a
    // stream cut in the middle of a turn is reported as truncated, not as a turn that
    // lacks its last event.
    let first_failure = [
        &chain.first_failure,
        &listing.first_failure,
        &checkpoints.first_failure,
        &links.first_failure,
        &replay.report.first_failure,
    ]
    .into_iter()
    .flatten()
    .min_by_key(|f| f.version)
    .cloned();
    Verification {
        ok: chain.ok && replay.report.ok && listing.ok && links.ok && checkpoints.ok,
        events,
        first_failure,
        chain,
        replay: replay.report,
        rule_failure: replay.rule_failure,
        listing,
        links,
        checkpoints,
        head_hash,
        sealed_from: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_chain_vouches_for_the_events_before_the_one_it_cannot_trust() {
        let broken = |version, reason| ChainStatus::Broken { version, reason };
        assert_eq!(vouched_through(&broken(9, ChainBreak::HashMismatch)), 8);
        assert_eq!(vouched_through(&broken(9, ChainBreak::VersionGap)), 8);
        // Event 8 may have been changed with its own hash recomputed.
        assert_eq!(vouched_through(&broken(9, ChainBreak::PrevHashMismatch)), 7);
        assert_eq!(vouched_through(&broken(1, ChainBreak::PrevHashMismatch)), 0);
        let intact = ChainStatus::Intact {
            events: 9,
            head: None,
        };
        assert_eq!(vouched_through(&intact), 0);
    }

    fn failing(version: u64, code: &str) -> CheckReport {
        report(Some(failure(version, code, "test")))
    }

    /// A stream cut in the middle of a turn: the replay misses the turn's last event at
    /// the very version the listing row says the stream was cut. The cut is the cause.
    #[test]
    fn at_the_same_version_the_truncation_explains_the_missing_event() {
        let verdict = combine(
            12,
            &ChainStatus::Intact {
                events: 12,
                head: None,
            },
            Replayed {
                report: failing(13, "event_mismatch"),
                rule_failure: None,
            },
            Witnesses {
                listing: failing(13, "truncated_stream"),
                links: report(None),
                checkpoints: CheckpointReport {
                    ok: true,
                    first_failure: None,
                    checked: 0,
                },
            },
        );
        let first = verdict.first_failure.expect("a failure");
        assert_eq!(
            (first.version, first.code.as_str()),
            (13, "truncated_stream")
        );
    }
}
