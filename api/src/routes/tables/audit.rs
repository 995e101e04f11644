//! `GET /v1/tables/{id}/audit?as_of=N`: the whole table after its first N events.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use yaniv_domain::game::{Deal, Event as GameEvent};

use super::dto::TableView;
use super::{load, with_etag};
use crate::app_state::AppState;
use crate::auth::Authenticated;
use crate::auth::accounts::Account;
use crate::error::{ApiError, Problem};
use yaniv_domain::table::{Access, Table};

use crate::tables::{self, is_staff};
use crate::tournaments::fairness::table_access;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    /// Fold only the first `as_of` events (1 to the table's version; all by default).
    pub as_of: Option<u64>,
}

/// The full state of a table at some version: every hand, the stock size, totals,
/// stage, and the seed of the round in play.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AuditView {
    /// Events folded.
    pub as_of: u64,
    /// The table's version now.
    pub version: u64,
    /// Type of the last event folded.
    pub last_event: String,
    /// The table as staff see it at `as_of` (`hands` holds every hand).
    pub view: TableView,
    /// Every seat's hand total at `as_of` (once started).
    pub hand_totals: Option<Vec<u32>>,
    /// Hex seed of the round in play at `as_of` (a round dealt from a seed).
    pub seed: Option<String>,
}

/// 403 unless `account` is staff and does not play at `table` while its game runs.
pub(super) fn require_staff(table: &Table, account: &Account) -> Result<(), ApiError> {
    if !is_staff(account) {
        return Err(ApiError::forbidden(
            "only referees, organizers and admins may audit a table",
        ));
    }
    if table.access(account.id, is_staff(account)) != Access::Staff {
        return Err(ApiError::forbidden(
            "you play at this table: you may audit it once its game is over",
        ));
    }
    Ok(())
}

/// 403 unless `account` may see every event of `table`: staff who do not play at it
/// while its game runs, nor in its tournament (see `tournaments::fairness`). Audits and
/// verification answer with what only such an account may see (every hand, the hash
/// of a head that covers hidden cards).
pub(super) async fn require_auditor(
    state: &AppState,
    table: &Table,
    account: &Account,
) -> Result<(), ApiError> {
    require_staff(table, account)?;
    if table_access(state, table, account).await? != Access::Staff {
        return Err(ApiError::forbidden(
            "you play in this table's tournament: you may audit it once its game is over",
        ));
    }
    Ok(())
}

/// The table after its first `as_of` events, every hand shown (referees,
/// organizers and admins who do not play at this table while its game runs).
#[utoipa::path(
    get,
    path = "/v1/tables/{id}/audit",
    operation_id = "table_as_of",
    tag = "audit",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Table id"), AuditQuery),
    responses(
        (status = 200, description = "The table at `as_of`", body = AuditView),
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not staff, or playing at this table or in its tournament while its game runs (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`as_of` out of range (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn audit(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
    query: web::Query<AuditQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let now = load(&state, id).await?;
    require_auditor(&state, &now, &auth.account).await?;
    let as_of = query.as_of.unwrap_or(now.version);
    if as_of == 0 || as_of > now.version {
        return Err(ApiError::invalid_field(
            "as_of",
            format!("must be 1 to {} (the table's version)", now.version),
        ));
    }
    // From the database, not the cache: an audit looks at what is stored.
    let table = state
        .tables
        .load_fresh(id, Some(as_of))
        .await?
        .ok_or_else(|| tables::not_found(id))?;
    let last_event = match (table.game_events.last(), table.table_events.last()) {
        (Some(e), _) => e.type_name(),
        (None, Some(e)) => e.type_name(),
        (None, None) => "",
    };
    let seed = table
        .game_events
        .iter()
        .rev()
        .find_map(|e| match e {
            GameEvent::RoundDealt(dealt) => Some(match &dealt.deal {
                Deal::Shuffled { seed, .. } => Some(seed.to_hex()),
                Deal::Explicit { .. } => None,
            }),
            _ => None,
        })
        .flatten();
    let hand_totals = table.started.then(|| {
        (0..table.seats.len())
            .map(|s| {
                let hand = table.game.hand(u8::try_from(s).unwrap_or(u8::MAX));
                table.rules().hand_total(hand.as_slice())
            })
            .collect()
    });
    let answer = AuditView {
        as_of: table.version,
        version: now.version,
        last_event: last_event.to_owned(),
        view: TableView::of(&table, Access::Staff),
        hand_totals,
        seed,
    };
    tracing::info!(
        table = id,
        as_of,
        account_id = auth.account.id,
        "table audited"
    );
    Ok(with_etag(HttpResponse::Ok().json(answer), now.version))
}
