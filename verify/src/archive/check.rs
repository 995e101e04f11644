//! Checking an archive offline, with the checks the server's own verification runs
//! (see the module docs of [`super`]).

use std::collections::BTreeMap;

use serde::Serialize;
use yaniv_domain::table::{Table, decode as decode_table_event};

use super::completeness::{self, ExportedStream};
pub use super::failure::ArchiveFailure;
use super::{Archive, ArchivedCheckpoint, FORMAT, decode_hash};
use crate::chain::{ChainStatus, ChainVerifier};
use crate::checkpoint::{self, CheckpointReport, CoveredHead};
use crate::merkle::{self, HeadLeaf};
use crate::report::{CheckReport, VerifyFailure};
use crate::row::{EventRow, Row};
use crate::table::{self as table_verify, Witnesses};
use crate::tournament::links;
use crate::tournament::{
    self as tournament_verify, GamesReport, LinkedGame, check_game, linked_table,
};

/// The verdict on a whole archive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArchiveVerdict {
    /// Every check of every stream passed.
    pub ok: bool,
    pub tournament_id: i64,
    /// Streams and events checked.
    pub streams: u64,
    pub events: u64,
    /// Checkpoints whose roots were recomputed from the archive's heads.
    pub checkpoints: u64,
    /// Results of online games compared with those games.
    pub games_checked: u64,
    /// The first failure: the games are checked first (a tournament's results stand
    /// on them), then the tournament.
    pub first_failure: Option<ArchiveFailure>,
    /// The first failure of each stream that has one, in the same order.
    pub failures: Vec<ArchiveFailure>,
    /// Game streams cut before a round still in play (an archive of an unfinished
    /// tournament): checked up to the cut only.
    pub sealed: Vec<SealedStream>,
}

/// A game stream the archive holds up to a round still in play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SealedStream {
    #[serde(rename = "stream")]
    pub stream_id: String,
    /// The first version left out.
    pub from: u64,
}

/// One archived stream read back as the store would give it.
struct Stream {
    id: String,
    events: Vec<EventRow>,
    covered: Vec<CoveredHead>,
    /// Where the archive says it cut the stream before a round in play.
    sealed_from: Option<u64>,
}

/// Checks everything `archive` holds.
pub fn verify(archive: &Archive) -> ArchiveVerdict {
    let mut verdict = ArchiveVerdict {
        ok: false,
        tournament_id: archive.tournament_id,
        streams: archive.streams.len() as u64,
        events: archive.streams.iter().map(|s| s.events.len() as u64).sum(),
        checkpoints: archive.checkpoints.len() as u64,
        games_checked: 0,
        first_failure: None,
        failures: Vec::new(),
        sealed: Vec::new(),
    };
    let tournament_stream = format!("tournament-{}", archive.tournament_id);
    if archive.format != FORMAT {
        verdict.failures.push(ArchiveFailure::archive(
            "",
            0,
            "unknown_format",
            format!("the archive's format is {:?}, not {FORMAT}", archive.format),
        ));
        return finish(verdict);
    }
    let (mut streams, mut failures) = read_streams(archive);
    failures.extend(check_paths(&archive.checkpoints, &mut streams));
    for stream in streams.values() {
        failures.extend(completeness::check(ExportedStream {
            stream_id: &stream.id,
            last_version: stream.events.last().map_or(0, |event| event.version),
            checkpointed: &mut stream.covered.iter().map(|head| head.version),
            sealed: stream.sealed_from.is_some(),
        }));
    }
    verdict.sealed = streams
        .values()
        .filter_map(|s| {
            s.sealed_from.map(|from| SealedStream {
                stream_id: s.id.clone(),
                from,
            })
        })
        .collect();

    let mut games: BTreeMap<i64, LinkedGame> = BTreeMap::new();
    let mut game_failures: BTreeMap<i64, VerifyFailure> = BTreeMap::new();
    for stream in streams.values().filter(|s| s.id != tournament_stream) {
        let Some(table_id) = linked_table(&stream.id) else {
            failures.push(ArchiveFailure::archive(
                &stream.id,
                0,
                "foreign_stream",
                "neither this tournament's stream nor a game table's",
            ));
            continue;
        };
        let (failure, game) = check_table(archive.tournament_id, table_id, stream);
        if let Some(failure) = failure {
            game_failures.insert(table_id, failure.1.clone());
            failures.push(ArchiveFailure::new(&stream.id, failure.0, &failure.1));
        }
        games.insert(table_id, game);
    }
    match streams.get(&tournament_stream) {
        None => failures.push(ArchiveFailure::archive(
            &tournament_stream,
            0,
            "missing_stream",
            "the archive holds no stream of its tournament",
        )),
        Some(stream) => {
            let (failure, checked) =
                check_tournament(archive.tournament_id, stream, &games, &game_failures);
            verdict.games_checked = checked;
            failures.extend(failure);
        }
    }
    order(&mut failures, archive);
    verdict.failures = failures;
    finish(verdict)
}

/// Puts `failures` in the order `docs/verification.md` (1.3) gives, so that any
/// verifier names the same first one: the game streams in the archive's order, then
/// the tournament's; within a stream the earliest version; at one version the chain's
/// finding (and the archive's own), then the checkpoints', then what the events mean.
fn order(failures: &mut [ArchiveFailure], archive: &Archive) {
    let stream_rank = |id: &str| {
        if id.starts_with("tournament-") {
            (1, 0)
        } else {
            let at = archive.streams.iter().position(|s| s.stream_id == id);
            (0, at.unwrap_or(archive.streams.len()))
        }
    };
    let check_rank = |check: &str| match check {
        "archive" | "chain" => 0,
        "checkpoints" => 1,
        _ => 2,
    };
    failures.sort_by_key(|f| (stream_rank(&f.stream_id), f.version, check_rank(f.check)));
}

fn finish(mut verdict: ArchiveVerdict) -> ArchiveVerdict {
    verdict.ok = verdict.failures.is_empty();
    verdict.first_failure = verdict.failures.first().cloned();
    verdict
}

/// The archived streams by id, each read back as stored events; a stream with a
/// malformed event is a failure and left out of every other check.
fn read_streams(archive: &Archive) -> (BTreeMap<String, Stream>, Vec<ArchiveFailure>) {
    let mut streams = BTreeMap::new();
    let mut failures = Vec::new();
    for archived in &archive.streams {
        if streams.contains_key(&archived.stream_id) {
            failures.push(ArchiveFailure::archive(
                &archived.stream_id,
                0,
                "duplicate_stream",
                "the stream is in the archive twice",
            ));
            continue;
        }
        let mut events = Vec::with_capacity(archived.events.len());
        let mut malformed = None;
        for event in &archived.events {
            match event.to_row(&archived.stream_id) {
                Some(recorded) => events.push(recorded),
                None => {
                    malformed = Some(ArchiveFailure::archive(
                        &archived.stream_id,
                        event.version,
                        "malformed_event",
                        "a hash is not 64 hex digits, or the version or time is out of range",
                    ));
                    break;
                }
            }
        }
        match malformed {
            Some(failure) => failures.push(failure),
            None => {
                if let Some(from) = archived.sealed_from
                    && from != events.len() as u64 + 1
                {
                    failures.push(ArchiveFailure::archive(
                        &archived.stream_id,
                        from,
                        "sealed_mismatch",
                        format!(
                            "the stream says it is cut before version {from}, but holds {} events",
                            events.len()
                        ),
                    ));
                }
                streams.insert(
                    archived.stream_id.clone(),
                    Stream {
                        id: archived.stream_id.clone(),
                        events,
                        covered: Vec::new(),
                        sealed_from: archived.sealed_from,
                    },
                );
            }
        }
    }
    (streams, failures)
}

/// Recomputes each checkpoint's root from every archived head's path, and hands the
/// heads that lead to it to their streams.
fn check_paths(
    checkpoints: &[ArchivedCheckpoint],
    streams: &mut BTreeMap<String, Stream>,
) -> Vec<ArchiveFailure> {
    let mut failures = Vec::new();
    for checkpoint in checkpoints {
        let root = decode_hash(&checkpoint.root);
        for head in &checkpoint.heads {
            let hash = decode_hash(&head.head_hash);
            let path: Option<Vec<_>> = head.path.iter().map(|step| step.decode()).collect();
            let leads_to_root = match (root, hash, &path) {
                (Some(root), Some(hash), Some(path)) => {
                    checkpoint.format == checkpoint::FORMAT
                        && merkle::root_from_proof(
                            &HeadLeaf {
                                stream_id: &head.stream_id,
                                version: head.version,
                                hash: &hash,
                            },
                            path,
                        ) == root
                }
                _ => false,
            };
            if !leads_to_root {
                failures.push(ArchiveFailure {
                    stream_id: head.stream_id.clone(),
                    version: head.version,
                    check: "checkpoints",
                    code: "checkpoint_path_mismatch".into(),
                    reason: format!(
                        "the head recorded by checkpoint {} does not lead to its root {}",
                        checkpoint.id, checkpoint.root
                    ),
                });
                continue;
            }
            if let (Some(stream), Some(hash)) = (streams.get_mut(&head.stream_id), hash) {
                stream.covered.push(CoveredHead {
                    checkpoint_id: checkpoint.id,
                    created_at: checkpoint.created_at,
                    version: head.version,
                    hash,
                });
            }
        }
    }
    for stream in streams.values_mut() {
        stream
            .covered
            .sort_by_key(|head| (head.version, head.checkpoint_id));
    }
    failures
}

fn chain(stream: &Stream) -> ChainStatus {
    let mut verifier = ChainVerifier::new();
    for event in &stream.events {
        let input = event.hash_input();
        if let Err((version, reason)) = verifier.check(&input, &event.hash) {
            return ChainStatus::Broken { version, reason };
        }
    }
    verifier.finish()
}

/// A game stream's own verification (chain, replay, checkpoints), its first failure
/// with the check that found it, and the table as the result checks need it.
fn check_table(
    tournament_id: i64,
    table_id: i64,
    stream: &Stream,
) -> (Option<(&'static str, VerifyFailure)>, LinkedGame) {
    let status = chain(stream);
    let replayed = table_verify::replay(
        table_id,
        &stream.events,
        table_verify::vouched_through(&status),
    );
    let checkpoints = checkpoint::check_stream(&stream.covered, &stream.events);
    let verdict = table_verify::combine(
        stream.events.len() as u64,
        &status,
        replayed,
        Witnesses {
            checkpoints,
            ..agreeing()
        },
    );
    let decoded: Result<Vec<_>, _> = stream
        .events
        .iter()
        .map(|e| decode_table_event(&e.event_type, &e.payload))
        .collect();
    let game = match decoded.ok().map(|events| Table::fold(table_id, events)) {
        Some(Ok(Some(table))) => LinkedGame::Found(Box::new(table)),
        _ => LinkedGame::Unreadable,
    };
    let mut failure = verdict.first_failure.map(|first| {
        let check = if verdict.chain.first_failure.as_ref() == Some(&first) {
            "chain"
        } else if verdict.checkpoints.first_failure.as_ref() == Some(&first) {
            "checkpoints"
        } else {
            "replay"
        };
        (check, first)
    });
    if failure.is_none()
        && let (Some(from), LinkedGame::Found(table)) = (stream.sealed_from, &game)
        && table.game.is_finished()
    {
        failure = Some((
            "archive",
            VerifyFailure {
                version: from,
                code: "sealed_mismatch".into(),
                reason: "the stream is cut before a round in play, but its game is over".into(),
            },
        ));
    }
    if failure.is_none()
        && let LinkedGame::Found(table) = &game
        && table.created.tournament.map(|link| link.tournament_id) != Some(tournament_id)
    {
        failure = Some((
            "game",
            VerifyFailure {
                version: 1,
                code: "game_not_linked".into(),
                reason: format!("the table was not opened by tournament {tournament_id}"),
            },
        ));
    }
    (failure, game)
}

fn agreeing() -> Witnesses {
    Witnesses {
        listing: ok(),
        links: ok(),
        checkpoints: CheckpointReport {
            ok: true,
            first_failure: None,
            checked: 0,
        },
    }
}

fn ok() -> CheckReport {
    CheckReport {
        ok: true,
        first_failure: None,
    }
}

/// The tournament's verification (chain, domain audit, results against their games,
/// no finished game without its result, checkpoints): its first failure, and how
/// many results were compared with their games.
fn check_tournament(
    id: i64,
    stream: &Stream,
    games: &BTreeMap<i64, LinkedGame>,
    game_failures: &BTreeMap<i64, VerifyFailure>,
) -> (Option<ArchiveFailure>, u64) {
    let status = chain(stream);
    let decoded = tournament_verify::decode_all(
        stream
            .events
            .iter()
            .map(|e| (e.event_type.as_str(), e.payload.as_str())),
    );
    let domain = tournament_verify::audit(id, &decoded);
    let lookup = |table: i64| match games.get(&table) {
        Some(LinkedGame::Found(found)) => LinkedGame::Found(found.clone()),
        Some(_) => LinkedGame::Unreadable,
        None => LinkedGame::Missing,
    };
    let mut checked = 0;
    let mut game_failure = None;
    for (version, claimed) in &domain.online {
        let Some(table) = linked_table(&claimed.game) else {
            continue;
        };
        checked += 1;
        let found = check_game(id, *version, claimed, &lookup(table)).or_else(|| {
            game_failures.get(&table).map(|inner| VerifyFailure {
                version: *version,
                code: "game_stream_invalid".into(),
                reason: format!(
                    "{}: {} fails its own verification at its version {}: {} ({})",
                    claimed.table, claimed.game, inner.version, inner.code, inner.reason
                ),
            })
        });
        if found.is_some() {
            game_failure = found;
            break;
        }
    }
    let games_report = GamesReport {
        ok: game_failure.is_none(),
        first_failure: game_failure,
        checked,
    };
    let state = tournament_verify::fold(&decoded.events);
    let links = links::check(
        id,
        &decoded.events,
        &state,
        stream.events.len() as u64,
        lookup,
    );
    let checkpoints = checkpoint::check_stream(&stream.covered, &stream.events);
    let verdict = tournament_verify::combine(
        stream.events.len() as u64,
        &status,
        domain,
        games_report,
        tournament_verify::Witnesses {
            links,
            checkpoints,
            ..agreeing_tournament()
        },
    );
    let failure = verdict.first_failure.map(|first| ArchiveFailure {
        stream_id: stream.id.clone(),
        version: first.version,
        check: first.check.name(),
        code: first.code,
        reason: first.reason,
    });
    (failure, checked)
}

fn agreeing_tournament() -> tournament_verify::Witnesses {
    tournament_verify::Witnesses::agreeing()
}
