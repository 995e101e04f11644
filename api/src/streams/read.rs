//! Reading a stream: folds (cached or fresh) and pages of stored events.

use std::sync::Arc;

use sqlx::PgConnection;
use yaniv_domain::aggregate::{Aggregate, StoredEvent};

use super::corrupt::{ChainOnRead, Corruption, corrupt};
use super::{PAGE, Repository, StreamKind};
use crate::error::ApiError;
use crate::store::{EventStore, RecordedEvent};
use yaniv_verify::chain::Hash;

impl<A: StreamKind> Repository<A> {
    /// A stream that cannot be read at `version`: out of the cache, logged once, and
    /// answered as a problem naming it.
    fn corrupt(
        &self,
        id: i64,
        version: u64,
        why: Corruption,
        detail: impl std::fmt::Display,
    ) -> ApiError {
        self.cache.forget(id);
        corrupt(&self.reported, Self::stream_id(id), version, why, detail)
    }

    /// Folds the stored `events` after `aggregate`'s version, each checked against the
    /// chain; `false` once past `upto`.
    fn fold_into(
        &self,
        id: i64,
        aggregate: &mut Option<A>,
        chain: &mut ChainOnRead,
        events: Vec<RecordedEvent>,
        upto: u64,
    ) -> Result<bool, ApiError> {
        for recorded in events {
            let version = u64::try_from(recorded.version).unwrap_or(0);
            if version > upto {
                return Ok(false);
            }
            chain.check(&recorded).map_err(|(at, why)| {
                self.corrupt(id, at, why, format_args!("read version {version}"))
            })?;
            let event = A::Event::decode(&recorded.event_type, &recorded.payload)
                .map_err(|e| self.corrupt(id, version, Corruption::Undecodable, e))?;
            match aggregate {
                Some(a) => a
                    .apply(event)
                    .map_err(|e| self.corrupt(id, version, Corruption::DoesNotFollow, e))?,
                None => {
                    *aggregate = Some(
                        A::from_first(id, event)
                            .map_err(|e| self.corrupt(id, version, Corruption::DoesNotFollow, e))?,
                    )
                }
            }
        }
        Ok(true)
    }

    /// Checks a page of stored events of stream `id`, read after version `after`,
    /// against the chain (as far as the page shows it).
    pub fn check_page(&self, id: i64, after: u64, page: &[RecordedEvent]) -> Result<(), ApiError> {
        let mut chain = ChainOnRead::after(after);
        for event in page {
            chain
                .check(event)
                .map_err(|(at, why)| self.corrupt(id, at, why, "page read"))?;
        }
        Ok(())
    }

    /// The problem for stored event `version` of stream `id`, which does not decode.
    pub fn undecodable(&self, id: i64, version: u64, error: impl std::fmt::Display) -> ApiError {
        self.corrupt(id, version, Corruption::Undecodable, error)
    }

    /// Checks the stored chain of stream `id` from version 1 to `upto`: for staff reads,
    /// which must not serve, from a fold cached before a change, what is no longer
    /// stored.
    pub async fn check_chain_upto(&self, id: i64, upto: u64) -> Result<(), ApiError> {
        let stream = Self::stream_id(id);
        let mut chain = ChainOnRead::after(0);
        let mut from = 1;
        while from <= upto {
            let wanted = (upto - from + 1).min(u64::from(PAGE)) as u32;
            let page = self.store.read_stream(&stream, from, wanted).await?;
            if page.is_empty() {
                return Err(self.corrupt(id, from, Corruption::Missing, "the stream ends early"));
            }
            for event in &page {
                chain
                    .check(event)
                    .map_err(|(at, why)| self.corrupt(id, at, why, "staff read"))?;
            }
            from += page.len() as u64;
        }
        Ok(())
    }

    /// Brings `aggregate` (a fold of a prefix of stream `id`, or nothing) up to version
    /// `upto` (or the stream's end), reading through `conn`.
    async fn fold_from(
        &self,
        conn: &mut PgConnection,
        id: i64,
        aggregate: Option<A>,
        upto: u64,
    ) -> Result<Option<A>, ApiError> {
        let mut chain = ChainOnRead::after(
            aggregate
                .as_ref()
                .map_or(0, |a| <A as Aggregate>::version(a)),
        );
        self.fold_pages(conn, id, aggregate, &mut chain, upto).await
    }

    /// [`Repository::fold_from`] with the chain checked so far.
    async fn fold_pages(
        &self,
        conn: &mut PgConnection,
        id: i64,
        mut aggregate: Option<A>,
        chain: &mut ChainOnRead,
        upto: u64,
    ) -> Result<Option<A>, ApiError> {
        let stream = Self::stream_id(id);
        loop {
            let from = aggregate
                .as_ref()
                .map_or(1, |a| <A as Aggregate>::version(a) + 1);
            let wanted = upto.saturating_sub(from - 1).min(u64::from(PAGE)) as u32;
            if wanted == 0 {
                break;
            }
            let page = EventStore::read_stream_in(&mut *conn, &stream, from, wanted).await?;
            let full = page.len() == wanted as usize;
            if !self.fold_into(id, &mut aggregate, chain, page, upto)? || !full {
                break;
            }
        }
        Ok(aggregate)
    }

    /// Stream `id` as it is now (`None` when there is no such stream), read through
    /// `conn`: the cached fold of a prefix, copied, plus every later event.
    pub async fn load(&self, conn: &mut PgConnection, id: i64) -> Result<Option<A>, ApiError> {
        let cached = self.cache.get(id).map(Arc::unwrap_or_clone);
        self.fold_from(conn, id, cached, u64::MAX).await
    }

    /// `cached` (a shared fold of a prefix of stream `id`, or nothing) brought up to the
    /// stream's end, and whether anything was folded. The fold is copied only when
    /// events follow it.
    async fn catch_up(
        &self,
        conn: &mut PgConnection,
        id: i64,
        cached: Option<Arc<A>>,
    ) -> Result<(Option<Arc<A>>, bool), ApiError> {
        let after = cached.as_ref().map_or(0, |a| <A as Aggregate>::version(a));
        let page =
            EventStore::read_stream_in(&mut *conn, &Self::stream_id(id), after + 1, PAGE).await?;
        if page.is_empty() {
            return Ok((cached, false));
        }
        let full = page.len() == PAGE as usize;
        let mut chain = ChainOnRead::after(after);
        let mut aggregate = cached.map(Arc::unwrap_or_clone);
        let more = self.fold_into(id, &mut aggregate, &mut chain, page, u64::MAX)?;
        if more && full {
            aggregate = self
                .fold_pages(conn, id, aggregate, &mut chain, u64::MAX)
                .await?;
        }
        Ok((aggregate.map(Arc::new), true))
    }

    /// [`Repository::load`] for a writer: with [`StreamKind::TAKE_ON_WRITE`] the cached
    /// fold is taken out of the cache rather than copied; the writer puts it back.
    /// Also the stream's head as read (version and hash of its last event), which
    /// the append chains from without reading it again.
    pub async fn load_for_write(
        &self,
        conn: &mut PgConnection,
        id: i64,
    ) -> Result<(Option<A>, Option<(u64, Hash)>), ApiError> {
        let cached = if A::TAKE_ON_WRITE {
            self.cache.take(id)
        } else {
            self.cache.get(id)
        };
        // Taken out of the cache, the fold is copied only if a reader still holds it.
        let Some(cached) = cached.map(Arc::unwrap_or_clone) else {
            let mut chain = ChainOnRead::after(0);
            let aggregate = self
                .fold_pages(conn, id, None, &mut chain, u64::MAX)
                .await?;
            return Ok((aggregate, chain.head()));
        };
        // The read starts at the cached head itself: its hash chains the rest and the
        // append, in the same round trip as the events after it.
        let version = <A as Aggregate>::version(&cached);
        let mut page =
            EventStore::read_stream_in(&mut *conn, &Self::stream_id(id), version, PAGE + 1).await?;
        let full = page.len() == PAGE as usize + 1;
        let Some(head) = page.first() else {
            return Err(self.corrupt(
                id,
                version,
                Corruption::Missing,
                "the cached head is no longer stored",
            ));
        };
        let mut chain = ChainOnRead::resuming(head, version)
            .map_err(|(at, why)| self.corrupt(id, at, why, "write read"))?;
        page.remove(0);
        let mut aggregate = Some(cached);
        let more = self.fold_into(id, &mut aggregate, &mut chain, page, u64::MAX)?;
        if more && full {
            aggregate = self
                .fold_pages(conn, id, aggregate, &mut chain, u64::MAX)
                .await?;
        }
        Ok((aggregate, chain.head()))
    }

    /// Stream `id` as it is now, shared with the cache (for reads): the cached fold
    /// itself when no event follows it.
    pub async fn read(&self, id: i64) -> Result<Arc<A>, ApiError> {
        let mut conn = self.store.pool().acquire().await?;
        let (aggregate, changed) = self.catch_up(&mut conn, id, self.cache.get(id)).await?;
        let aggregate = aggregate.ok_or_else(|| Self::not_found(id))?;
        if changed {
            self.cache.put_shared(id, Arc::clone(&aggregate));
        }
        Ok(aggregate)
    }

    /// Stream `id` at version `at_least` or later: the cached fold alone when it has
    /// caught up, which is the usual case for a live stream woken by a change (this
    /// process committed it, or another of its subscribers already read it); else as
    /// [`Repository::read`]. `at_least` 0 means "unknown" and always reads.
    pub async fn read_at_least(&self, id: i64, at_least: u64) -> Result<Arc<A>, ApiError> {
        if at_least == 0 {
            return self.read(id).await;
        }
        let caught_up = || {
            self.cache
                .get(id)
                .filter(|cached| <A as Aggregate>::version(cached) >= at_least)
        };
        if let Some(cached) = caught_up() {
            return Ok(cached);
        }
        // The subscribers a change woke here read one after another: the first brings
        // the fold up to date, and the others find it so (see `read_gate`).
        let _turn = self.reading.enter(id).await;
        if let Some(cached) = caught_up() {
            return Ok(cached);
        }
        self.read(id).await
    }

    /// Stream `id` from the database alone, after its first `upto` events (all when
    /// `None`): what audits look at.
    pub async fn load_fresh(&self, id: i64, upto: Option<u64>) -> Result<Option<A>, ApiError> {
        let mut conn = self.store.pool().acquire().await?;
        self.fold_from(&mut conn, id, None, upto.unwrap_or(u64::MAX))
            .await
    }

    /// Up to `limit` stored events of stream `id` after version `after`.
    pub async fn read_page(
        &self,
        id: i64,
        after: u64,
        limit: u32,
    ) -> Result<Vec<RecordedEvent>, ApiError> {
        Ok(self
            .store
            .read_stream(&Self::stream_id(id), after.saturating_add(1), limit)
            .await?)
    }

    /// Every stored event of stream `id`, in order (for verification).
    pub async fn read_all(&self, id: i64) -> Result<Vec<RecordedEvent>, ApiError> {
        let mut all: Vec<RecordedEvent> = Vec::new();
        loop {
            let after = all
                .last()
                .map_or(0, |e| u64::try_from(e.version).unwrap_or(0));
            let page = self.read_page(id, after, PAGE).await?;
            let done = page.len() < PAGE as usize;
            all.extend(page);
            if done {
                return Ok(all);
            }
        }
    }
}
