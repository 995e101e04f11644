//! `GET /v1/tables/{id}/events?after=N`: the table's stream as the caller may see it.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use yaniv_domain::game::{Event as GameEvent, Viewer, visible_events};
use yaniv_domain::table::Table;
use yaniv_domain::table::entropy::EntropyEvent;

use super::{load, with_etag};
use crate::app_state::AppState;
use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::routes::paging::EventsQuery;
use crate::tournaments::fairness::table_access;

/// One event as the caller may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VisibleEvent {
    /// Its version in the table's stream.
    pub version: u64,
    /// `table_created.v1`, `seat_taken.v1`, ..., `round_dealt.v1`, `turn_played.v1`, ...
    #[serde(rename = "type")]
    #[schema(example = "turn_played.v1")]
    pub event_type: String,
    /// The event's JSON, with what the caller may not see replaced by `null`: until
    /// a round is over, its deal's `seed` and the server's seed committed to for it
    /// (players see the `commitment`), and the card another player drew from the
    /// stock (`"draw": {"stock": null}`).
    #[schema(value_type = yaniv_domain::table::StreamEvent)]
    pub payload: Value,
}

/// A page of a table's events.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TableEventsPage {
    /// The table's version now.
    pub version: u64,
    pub events: Vec<VisibleEvent>,
    /// Pass as `after` for the next page.
    pub next_after: u64,
    /// More events follow this page.
    pub has_more: bool,
}

/// The events of a table after version `after`, redacted for the caller: a player
/// sees what their seat may see, an account without a seat what is face up, a
/// referee, organizer or admin who does not play here everything.
#[utoipa::path(
    get,
    path = "/v1/tables/{id}/events",
    tag = "tables",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Table id"), EventsQuery),
    responses(
        (status = 200, description = "A page of events", body = TableEventsPage),
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`limit` out of range (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn events(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
    query: web::Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let (after, limit) = query.bounds()?;
    let table = &load(&state, path.into_inner()).await?;
    let viewer = table_access(&state, table, &auth.account).await?.viewer();
    let (page, next_after) = visible_page(table, viewer, after, limit as usize);
    if viewer == Viewer::Referee {
        // Staff see the events as stored: a fold cached before a change behind the
        // server's back must not hide that the stored chain no longer holds.
        state.tables.check_chain_upto(table.id, next_after).await?;
    }
    Ok(with_etag(
        HttpResponse::Ok().json(TableEventsPage {
            version: table.version,
            has_more: next_after < table.version,
            next_after,
            events: page,
        }),
        table.version,
    ))
}

/// Up to `limit` events after version `after`, as `viewer` may see them, and the
/// version of the last one (`after`, capped at the table's version, when none): what
/// `/events` and `/stream` send.
pub fn visible_page(
    table: &Table,
    viewer: Viewer,
    after: u64,
    limit: usize,
) -> (Vec<VisibleEvent>, u64) {
    let mut page: Vec<VisibleEvent> = Vec::new();
    for (version, event) in (1u64..).zip(&table.table_events) {
        if version > after && page.len() < limit {
            page.push(VisibleEvent {
                version,
                event_type: event.type_name().to_owned(),
                payload: serde_json::to_value(event).unwrap_or_default(),
            });
        }
    }
    let first = table.game_index_after(after);
    if first < table.game_events.len() {
        // Redaction depends on whether a round has ended, which a later event says:
        // redact from the deal of the first round asked for to the end.
        let from = table.game_events[..=first]
            .iter()
            .rposition(|e| matches!(e, GameEvent::RoundDealt(_)))
            .unwrap_or(0);
        let visible = visible_events(&table.game_events[from..], viewer);
        for ((event, payload), version) in table.game_events[from..]
            .iter()
            .zip(visible)
            .zip(&table.game_versions[from..])
            .skip(first - from)
            .take(limit)
        {
            page.push(VisibleEvent {
                version: *version,
                event_type: event.type_name().to_owned(),
                payload,
            });
        }
    }
    // The clock's events are public.
    let first_clock = table.clock_index_after(after);
    for (event, version) in table.clock_events[first_clock..]
        .iter()
        .zip(&table.clock_versions[first_clock..])
        .take(limit)
    {
        page.push(VisibleEvent {
            version: *version,
            event_type: event.type_name().to_owned(),
            payload: serde_json::to_value(event).unwrap_or_default(),
        });
    }
    // Player entropy's events are public, but for the server's seed until its round
    // is over.
    let first_entropy = table.entropy_index_after(after);
    for (event, version) in table.entropy_events[first_entropy..]
        .iter()
        .zip(&table.entropy_versions[first_entropy..])
        .take(limit)
    {
        let mut payload = serde_json::to_value(event).unwrap_or_default();
        if let EntropyEvent::SeedCommitted(committed) = event
            && viewer != Viewer::Referee
            && !table.entropy.seed_revealed(committed.round)
            && let Some(seed) = payload.get_mut("seed")
        {
            *seed = Value::Null;
        }
        page.push(VisibleEvent {
            version: *version,
            event_type: event.type_name().to_owned(),
            payload,
        });
    }
    page.sort_by_key(|e| e.version);
    page.truncate(limit);
    let next_after = page.last().map_or(after.min(table.version), |e| e.version);
    (page, next_after)
}
