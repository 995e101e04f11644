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

/// The archive of tournament `id`, whose stored events (`stored`, all of them) and
/// their decoding the caller has read already. A game stream stops before the first
/// secret of a round still in play (its `sealed_from` says where): a round of a game
/// that is never finished (voided, or replaced by a result typed in) stays sealed even
/// once the tournament is over, as it does for every other read.
pub async fn build(
    state: &AppState,
    id: i64,
    stored: &[RecordedEvent],
    decoded: &Decoded,
) -> Result<Archive, ApiError> {
    let pool = state.store.pool();
    let mut streams = vec![archived(
        &crate::tournaments::stream_id(id),
        &Disclosed::whole(stored.to_vec()),
    )];
    for table in game_tables(pool, id, &decoded.events).await? {
        let events = state.tables.read_all(table).await?;
        let disclosed = Disclosed::table_stream(events);
        streams.push(archived(&crate::tables::stream_id(table), &disclosed));
    }
    let checkpoints = checkpoints_of(pool, &streams).await?;
    Ok(Archive {
        format: FORMAT.to_owned(),
        tournament_id: id,
        exported_at: OffsetDateTime::now_utc(),
        streams,
        checkpoints,
    })
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

/// For each stream and each version a checkpoint recorded, the first checkpoint that
/// recorded it (the earliest witness of that head), and the latest checkpoint that
/// recorded any of the streams (the one most likely published); each with the paths
/// of the archive's heads to its root.
async fn checkpoints_of(
    pool: &PgPool,
    streams: &[ArchivedStream],
) -> Result<Vec<ArchivedCheckpoint>, ApiError> {
    let ids: Vec<&str> = streams.iter().map(|s| s.stream_id.as_str()).collect();
    let first_witnesses: Vec<i64> = sqlx::query_scalar(
        "SELECT DISTINCT ON (stream_id, version) checkpoint_id FROM checkpoint_heads \
         WHERE stream_id = ANY($1) ORDER BY stream_id, version, checkpoint_id",
    )
    .bind(&ids)
    .fetch_all(pool)
    .await?;
    let latest: Option<i64> = sqlx::query_scalar(
        "SELECT max(checkpoint_id) FROM checkpoint_heads WHERE stream_id = ANY($1)",
    )
    .bind(&ids)
    .fetch_one(pool)
    .await?;
    let chosen: BTreeSet<i64> = first_witnesses.into_iter().chain(latest).collect();
    let mut archived = Vec::with_capacity(chosen.len());
    for checkpoint_id in chosen {
        let Some(checkpoint) = checkpoints::by_id(pool, checkpoint_id).await? else {
            continue;
        };
        archived.push(with_paths(&checkpoint, streams));
    }
    Ok(archived)
}

/// `checkpoint` with the heads of `streams` in it and their paths to its root; a head
/// past where a stream was cut stays out (it is a hash over a secret still in play).
fn with_paths(
    checkpoint: &checkpoints::Checkpoint,
    streams: &[ArchivedStream],
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
