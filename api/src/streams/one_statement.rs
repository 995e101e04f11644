//! A write in one statement: the fast path of [`Repository::mutate`] for streams whose
//! writes need none of the transaction's steps (game tables in play).
//!
//! The usual path opens a transaction and reads the events after the cached fold before
//! deciding, then appends, projects and commits: five round trips or more. When this
//! process cached the fold itself after a write, it also knows the hash of the fold's
//! last event. Then the command is decided on the cached fold without reading, and the
//! events, the listing row and the idempotency record go to the database in one call
//! (`append_table_write`, migration 0013), which checks that the stored head still has
//! that hash and lets the unique key refuse a writer that came second.
//!
//! Whatever this path cannot settle by itself it hands back to the usual path, which
//! starts again from the database: a refusal (it might come from a fold another server
//! has moved past), an `If-Match` that names another version, a head this process
//! does not know, a head that moved, a lost race, a known idempotency key. Only an
//! append that the database accepted, with the stream exactly as the fold had it,
//! completes here.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use yaniv_domain::aggregate::Aggregate;

use super::write::{Write, encode};
use super::written::Written;
use super::{Mutation, Repository, StreamKind};
use crate::error::ApiError;
use crate::store::idempotency::{IdempotentRequest, StoredResponse};
use crate::store::{ChainedEvents, EventMetadata, is_version_conflict};

/// The listing row's columns after a write in one statement (those of
/// `tables::listing::project` for a table whose seats do not change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListingUpdate {
    pub status: &'static str,
    pub free_seats: i16,
    pub waiting_on: Option<i16>,
    /// How long the clock allows from this write, if it runs.
    pub deadline_ms: Option<i64>,
}

/// Why a write was handed back when another writer got the stream's next version.
const LOST_RACE: &str = "lost_race";

/// What the database said to a write in one statement.
enum Outcome {
    Appended,
    /// Not written: the usual path takes over.
    HandedBack(&'static str),
}

impl<A: StreamKind> Repository<A> {
    /// Runs `write` in one statement if it can be; `None` when the usual path must
    /// (see the module docs). Nothing is stored unless the answer is `Some(Ok)`.
    pub(super) async fn mutate_in_one_statement(
        &self,
        id: i64,
        mutation: &Mutation<'_>,
        request: Option<&IdempotentRequest>,
        metadata: &EventMetadata,
        write: &mut impl Write<A>,
    ) -> Result<Option<Written>, ApiError> {
        if !A::DECIDES_WITHOUT_WRITING {
            return Ok(None);
        }
        let Some((cached, Some(head_hash))) = self.cache.get_with_head(id) else {
            return Ok(None);
        };
        let before = <A as Aggregate>::version(&cached);
        if mutation.if_match.is_some_and(|asked| asked != before) {
            return Ok(None);
        }
        let mut conn = self.store.pool().acquire().await?;
        // The cache keeps its fold: this copy is the one that changes.
        let mut aggregate = Arc::unwrap_or_clone(cached);
        let Ok(events) = write.execute(&mut conn, id, &mut aggregate).await else {
            return Ok(None);
        };
        if events.is_empty() {
            return Ok(None);
        }
        let Some(listing) = A::one_statement_listing(&self.extension, &aggregate, before) else {
            return Ok(None);
        };
        let Ok(encoded) = encode(&events) else {
            return Ok(None);
        };
        let stream = Self::stream_id(id);
        let Ok(chained) = ChainedEvents::new(&stream, before, head_hash, &encoded, metadata) else {
            return Ok(None);
        };
        let body = write.answer(id, &aggregate, &events, before)?;
        let stored = StoredResponse::json(write.answer_kind(), &body)?;

        let caller_announces = self.store.caller_announces();
        match Self::store_in_one_statement(
            &mut conn,
            id,
            &stream,
            before,
            &head_hash,
            metadata,
            request,
            &chained,
            &listing,
            &stored,
            caller_announces,
        )
        .await?
        {
            Outcome::Appended => {}
            Outcome::HandedBack(why) => {
                self.figures.handed_back.fetch_add(1, Ordering::Relaxed);
                if why == LOST_RACE {
                    self.figures.conflicts.fetch_add(1, Ordering::Relaxed);
                }
                tracing::debug!(stream, why, "a write in one statement handed back");
                return Ok(None);
            }
        }
        self.figures
            .appended
            .fetch_add(events.len() as u64, Ordering::Relaxed);
        self.figures.one_statement.fetch_add(1, Ordering::Relaxed);
        if caller_announces {
            self.store.announce(&stream, before + events.len() as u64);
        }
        self.cache.put_with_head(id, aggregate, chained.head_hash);
        Ok(Some(Written::now(stored, before, events.len() as u64)))
    }

    #[allow(clippy::too_many_arguments)]
    async fn store_in_one_statement(
        conn: &mut sqlx::PgConnection,
        id: i64,
        stream: &str,
        before: u64,
        head_hash: &[u8; 32],
        metadata: &EventMetadata,
        request: Option<&IdempotentRequest>,
        chained: &ChainedEvents<'_>,
        listing: &ListingUpdate,
        stored: &StoredResponse,
        caller_announces: bool,
    ) -> Result<Outcome, ApiError> {
        // The second asks the trigger to leave the announcement to us (migration 0016).
        let statement = if caller_announces {
            "SELECT append_table_write_caller_notifies($1, $2, $3, $4, $5, $6, $7, $8, $9, \
                 $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)"
        } else {
            "SELECT append_table_write($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, \
                                       $13, $14, $15, $16, $17, $18, $19, $20)"
        };
        let outcome: Result<String, sqlx::Error> = sqlx::query_scalar(statement)
            .bind(id)
            .bind(stream)
            .bind(i64::try_from(before).unwrap_or(i64::MAX))
            .bind(&head_hash[..])
            .bind(&metadata.actor)
            .bind(&metadata.request_id)
            .bind(&metadata.idempotency_key)
            .bind(chained.recorded_at)
            .bind(&chained.versions)
            .bind(&chained.types)
            .bind(&chained.payloads)
            .bind(&chained.prev_hashes)
            .bind(&chained.hashes)
            .bind(listing.status)
            .bind(listing.free_seats)
            .bind(listing.waiting_on)
            .bind(listing.deadline_ms)
            .bind(request.map(|r| &r.fingerprint[..]))
            .bind(request.map(|_| i16::try_from(stored.status).unwrap_or(500)))
            .bind(request.map(|_| &stored.body[..]))
            .fetch_one(&mut *conn)
            .await;
        match outcome {
            Ok(outcome) if outcome == "appended" => Ok(Outcome::Appended),
            Ok(outcome) if outcome == "known_key" => Ok(Outcome::HandedBack("known_key")),
            Ok(outcome) if outcome == "head_moved" => Ok(Outcome::HandedBack("head_moved")),
            Ok(outcome) => Err(ApiError::unexpected(
                "a write in one statement",
                std::io::Error::other(format!("unknown outcome {outcome:?}")),
            )),
            Err(err) if is_version_conflict(&err) => Ok(Outcome::HandedBack(LOST_RACE)),
            Err(sqlx::Error::Database(db)) if db.is_unique_violation() => {
                // The idempotency record's key: a duplicate of this request committed
                // first; the usual path replays its answer.
                Ok(Outcome::HandedBack("duplicate_key"))
            }
            Err(err) => Err(err.into()),
        }
    }
}
