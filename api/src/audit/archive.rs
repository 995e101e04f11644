//! Building a tournament's archive from the store.

use std::collections::{BTreeMap, BTreeSet};

use sqlx::PgPool;
use time::OffsetDateTime;
use yaniv_domain::tournament::{Event, TableGameStarted};

use crate::app_state::AppState;
use crate::audit::tournament::{Decoded, linked_table};
use crate::checkpoints::{self, Head};
use crate::error::ApiError;
use crate::store::{RecordedEvent, unix_micros};
use crate::visibility::Disclosed;
use yaniv_verify::archive::{
    Archive, ArchivedCheckpoint, ArchivedEvent, ArchivedHead, ArchivedStream, FORMAT,
};
use yaniv_verify::merkle::{self, HeadLeaf};

/// Where an archive's JSON goes, piece by piece.
pub(crate) trait ArchiveSink {
    /// Takes the next piece; `false` when no one reads any more (the client left).
    async fn put(&mut self, piece: Vec<u8>) -> bool;
}

/// The whole archive in memory (to be stored).
impl ArchiveSink for Vec<u8> {
    async fn put(&mut self, piece: Vec<u8>) -> bool {
        self.extend_from_slice(&piece);
        true
    }
}

/// A response's body, read as the client takes it.
impl ArchiveSink for tokio::sync::mpsc::Sender<actix_web::web::Bytes> {
    async fn put(&mut self, piece: Vec<u8>) -> bool {
        self.send(piece.into()).await.is_ok()
    }
}

/// What [`write`] needs of a stream once it is written: where its checkpoints' proofs
/// stop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WrittenStream {
    pub stream_id: String,
    pub sealed_from: Option<u64>,
}

/// What an archive is written from: the checkpoint it is cut at (one that records
/// every exported stream's head, see [`super::archive_cut`]), the tournament's events up
/// to its head there, and the tournament's game tables.
pub(crate) struct Cut {
    checkpoint: checkpoints::Checkpoint,
    tournament: Vec<RecordedEvent>,
    tables: Vec<i64>,
}

impl Cut {
    /// The checkpoint the archive is cut at.
    pub(crate) fn checkpoint_id(&self) -> i64 {
        self.checkpoint.id
    }

    /// The version of `stream` the archive holds: its head in the checkpoint, or 0 for a
    /// stream that had no event when it was taken.
    fn head(&self, stream: &str) -> i64 {
        self.checkpoint
            .heads
            .binary_search_by(|head| head.stream_id.as_bytes().cmp(stream.as_bytes()))
            .ok()
            .and_then(|at| i64::try_from(self.checkpoint.heads[at].version).ok())
            .unwrap_or(0)
    }
}

/// Cuts the archive of tournament `id`, whose stored events (all of them) the caller
/// has read already (`stored`, decoded: `decoded`): takes the checkpoint (or reuses the
/// latest) and keeps what the archive will hold up to it. Each stream is then read up to
/// its head there, so what is written is one moment of the store, however long the
/// writing takes and however the streams move meanwhile. `503 server_busy` when no
/// checkpoint could be had in time.
pub(crate) async fn cut(
    state: &AppState,
    id: i64,
    mut stored: Vec<RecordedEvent>,
    decoded: &Decoded,
) -> Result<Cut, ApiError> {
    let pool = state.store.pool();
    let tournament_stream = crate::tournaments::stream_id(id);
    let mut tables = game_tables(pool, id, &decoded.events).await?;
    let streams: Vec<String> = std::iter::once(tournament_stream.clone())
        .chain(tables.iter().map(|&table| crate::tables::stream_id(table)))
        .collect();
    let names: Vec<&str> = streams.iter().map(String::as_str).collect();
    let checkpoint_id =
        super::archive_cut::checkpoint_for(pool, &state.archive_checkpoints, &names).await?;
    let Some(checkpoint) = checkpoints::by_id(pool, checkpoint_id).await? else {
        return Err(ApiError::unexpected(
            "cutting an archive",
            "its checkpoint cannot be read back",
        ));
    };
    let mut cut = Cut {
        checkpoint,
        tournament: Vec::new(),
        tables: Vec::new(),
    };
    let head = cut.head(&tournament_stream);
    if stored.last().map_or(0, |event| event.version) < head {
        // It moved since it was read: read again, with any game it opened since.
        stored = state.tournaments.read_all(id).await?;
        stored.retain(|event| event.version <= head);
        let again = super::tournament::decode_all(
            stored
                .iter()
                .map(|e| (e.event_type.as_str(), e.payload.as_str())),
        );
        tables = game_tables(pool, id, &again.events).await?;
    }
    stored.retain(|event| event.version <= head);
    cut.tournament = stored;
    cut.tables = tables;
    Ok(cut)
}

/// Writes the archive `cut` of tournament `id` into `sink` as compact JSON, the same
/// bytes `serde_json::to_vec` would give for the whole [`Archive`], one stream at a
/// time: only the stream being written is in memory, however large the tournament. A
/// game stream stops before the first secret of a round still in play (its
/// `sealed_from` says where): a round of a game that is never finished (voided, or
/// replaced by a result typed in) stays sealed even once the tournament is over, as it
/// does for every other read. Stops early, without error, when the sink is closed.
pub(crate) async fn write(
    state: &AppState,
    id: i64,
    cut: &Cut,
    sink: &mut impl ArchiveSink,
) -> Result<(), ApiError> {
    let pool = state.store.pool();
    if !sink.put(opening(id, OffsetDateTime::now_utc())?).await {
        return Ok(());
    }
    let mut written = Vec::with_capacity(cut.tables.len() + 1);
    let tournament = archived(
        &crate::tournaments::stream_id(id),
        &Disclosed::whole(cut.tournament.clone()),
    );
    if !put_stream(sink, &tournament, false, &mut written).await? {
        return Ok(());
    }
    drop(tournament);
    for &table in &cut.tables {
        let stream_id = crate::tables::stream_id(table);
        let head = cut.head(&stream_id);
        if head == 0 {
            // Opened after the cut: not part of this moment.
            continue;
        }
        let mut events = state.tables.read_all(table).await?;
        events.retain(|event| event.version <= head);
        let disclosed = Disclosed::table_stream(events);
        let stream = archived(&stream_id, &disclosed);
        if !put_stream(sink, &stream, true, &mut written).await? {
            return Ok(());
        }
    }
    let checkpoints = checkpoints_of(pool, &written, &cut.checkpoint).await?;
    sink.put(closing(&checkpoints)?).await;
    Ok(())
}

/// The archive `cut` of tournament `id` whole, in memory (see [`write`]).
pub(crate) async fn build(state: &AppState, id: i64, cut: &Cut) -> Result<Vec<u8>, ApiError> {
    let mut body = Vec::new();
    write(state, id, cut, &mut body).await?;
    Ok(body)
}

/// Everything before the first stream: `{"format":…,"exported_at":…,"streams":[`.
fn opening(id: i64, exported_at: OffsetDateTime) -> Result<Vec<u8>, ApiError> {
    const EMPTY_TAIL: &[u8] = br#""streams":[],"checkpoints":[]}"#;
    let empty = Archive {
        format: FORMAT.to_owned(),
        tournament_id: id,
        exported_at,
        streams: Vec::new(),
        checkpoints: Vec::new(),
    };
    let mut head = serde_json::to_vec(&empty).map_err(unwritable)?;
    // The two lists are the archive's last fields: a layout that changed is a bug.
    if !head.ends_with(EMPTY_TAIL) {
        return Err(ApiError::unexpected(
            "writing an archive",
            "the archive's lists are no longer its last fields",
        ));
    }
    head.truncate(head.len() - EMPTY_TAIL.len());
    head.extend_from_slice(br#""streams":["#);
    Ok(head)
}

/// One stream, after a comma unless it is the first.
async fn put_stream(
    sink: &mut impl ArchiveSink,
    stream: &ArchivedStream,
    after_another: bool,
    written: &mut Vec<WrittenStream>,
) -> Result<bool, ApiError> {
    let mut piece = Vec::new();
    if after_another {
        piece.push(b',');
    }
    serde_json::to_writer(&mut piece, stream).map_err(unwritable)?;
    written.push(WrittenStream {
        stream_id: stream.stream_id.clone(),
        sealed_from: stream.sealed_from,
    });
    Ok(sink.put(piece).await)
}

/// Everything after the last stream: `],"checkpoints":[…]}`.
fn closing(checkpoints: &[ArchivedCheckpoint]) -> Result<Vec<u8>, ApiError> {
    let mut tail = br#"],"checkpoints":"#.to_vec();
    serde_json::to_writer(&mut tail, checkpoints).map_err(unwritable)?;
    tail.push(b'}');
    Ok(tail)
}

fn unwritable(err: serde_json::Error) -> ApiError {
    ApiError::unexpected("writing an archive", err)
}

fn archived(stream_id: &str, disclosed: &Disclosed) -> ArchivedStream {
    ArchivedStream {
        stream_id: stream_id.to_owned(),
        events: disclosed.events().iter().map(archived_event).collect(),
        sealed_from: disclosed.sealed_from(),
    }
}

/// One stored event with every field its hash covers, as an archive carries it.
fn archived_event(event: &RecordedEvent) -> ArchivedEvent {
    ArchivedEvent {
        version: u64::try_from(event.version).unwrap_or(0),
        event_type: event.event_type.clone(),
        payload: event.payload.clone(),
        actor: event.actor.clone(),
        request_id: event.request_id.clone(),
        idempotency_key: event.idempotency_key.clone(),
        recorded_at_micros: unix_micros(event.recorded_at),
        prev_hash: hex::encode(event.prev_hash),
        hash: hex::encode(event.hash),
    }
}

/// Every online game the tournament opened (its stream names them; the listing
/// remembers a table opened by a draw whose event was later deleted), by id.
async fn game_tables(pool: &PgPool, id: i64, events: &[Event]) -> Result<Vec<i64>, ApiError> {
    let listed: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM game_tables WHERE tournament_id = $1 ORDER BY id")
            .bind(id)
            .fetch_all(pool)
            .await?;
    let named = events.iter().filter_map(|event| match event {
        Event::TableGameStarted(TableGameStarted {
            game: Some(game), ..
        }) => linked_table(game),
        _ => None,
    });
    let all: BTreeSet<i64> = listed.into_iter().chain(named).collect();
    Ok(all.into_iter().collect())
}

/// For each stream and each version a checkpoint up to `cut` recorded, the first
/// checkpoint that recorded it (the earliest witness of that head), and `cut` itself,
/// the latest that records every stream at its exported head; each with the paths of
/// the archive's heads to its root. A later checkpoint stays out: it may record heads
/// past the cut, which the archive does not hold.
async fn checkpoints_of(
    pool: &PgPool,
    streams: &[WrittenStream],
    cut: &checkpoints::Checkpoint,
) -> Result<Vec<ArchivedCheckpoint>, ApiError> {
    let ids: Vec<&str> = streams.iter().map(|s| s.stream_id.as_str()).collect();
    let first_witnesses: Vec<i64> = sqlx::query_scalar(
        "SELECT DISTINCT ON (stream_id, version) checkpoint_id FROM checkpoint_heads \
         WHERE stream_id = ANY($1) AND checkpoint_id < $2 \
         ORDER BY stream_id, version, checkpoint_id",
    )
    .bind(&ids)
    .bind(cut.id)
    .fetch_all(pool)
    .await?;
    let earlier: BTreeSet<i64> = first_witnesses.into_iter().collect();
    let mut archived = Vec::with_capacity(earlier.len() + 1);
    for checkpoint_id in earlier {
        let Some(checkpoint) = checkpoints::by_id(pool, checkpoint_id).await? else {
            continue;
        };
        // A deleted head row would leave every path short of the root, blaming the
        // streams still listed; the root itself says which head to put back.
        let checkpoint = checkpoints::restored(pool, checkpoint).await?;
        archived.push(with_paths(&checkpoint, streams));
    }
    archived.push(with_paths(cut, streams));
    Ok(archived)
}

/// `checkpoint` with the heads of `streams` in it and their paths to its root; a head
/// past where a stream was cut stays out (it is a hash over a secret still in play).
fn with_paths(
    checkpoint: &checkpoints::Checkpoint,
    streams: &[WrittenStream],
) -> ArchivedCheckpoint {
    let leaves: Vec<HeadLeaf<'_>> = checkpoint
        .heads
        .iter()
        .map(|h: &Head| HeadLeaf {
            stream_id: &h.stream_id,
            version: h.version,
            hash: &h.head_hash,
        })
        .collect();
    let index: BTreeMap<&str, usize> = checkpoint
        .heads
        .iter()
        .enumerate()
        .map(|(i, h)| (h.stream_id.as_str(), i))
        .collect();
    let heads = streams
        .iter()
        .filter_map(|stream| {
            let at = *index.get(stream.stream_id.as_str())?;
            let head = &checkpoint.heads[at];
            if stream.sealed_from.is_some_and(|from| head.version >= from) {
                return None;
            }
            let path = merkle::proof(&leaves, at)?;
            Some(ArchivedHead {
                stream_id: head.stream_id.clone(),
                version: head.version,
                head_hash: hex::encode(head.head_hash),
                path: path.iter().map(Into::into).collect(),
            })
        })
        .collect();
    ArchivedCheckpoint {
        id: checkpoint.id,
        created_at: checkpoint.created_at,
        format: checkpoint.format.clone(),
        root: hex::encode(checkpoint.root),
        streams: checkpoint.heads.len() as u64,
        heads,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pieces_make_the_bytes_of_the_whole_archive() {
        let exported_at = OffsetDateTime::from_unix_timestamp(1_764_000_000).unwrap();
        let stream = |id: &str, sealed_from| ArchivedStream {
            stream_id: id.to_owned(),
            events: Vec::new(),
            sealed_from,
        };
        let streams = vec![stream("tournament-3", None), stream("table-9", Some(4))];
        let checkpoints = vec![ArchivedCheckpoint {
            id: 2,
            created_at: exported_at,
            format: "f".into(),
            root: "00".into(),
            streams: 2,
            heads: Vec::new(),
        }];
        let whole = serde_json::to_vec(&Archive {
            format: FORMAT.to_owned(),
            tournament_id: 3,
            exported_at,
            streams: streams.clone(),
            checkpoints: checkpoints.clone(),
        })
        .unwrap();
        let mut pieces = opening(3, exported_at).unwrap();
        for (i, stream) in streams.iter().enumerate() {
            if i > 0 {
                pieces.push(b',');
            }
            pieces.extend(serde_json::to_vec(stream).unwrap());
        }
        pieces.extend(closing(&checkpoints).unwrap());
        assert_eq!(String::from_utf8(pieces), String::from_utf8(whole));
    }
}
