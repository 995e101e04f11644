//! `POST /v1/tournaments/{id}/players/{account}/setup-code`: a new set-up code for an
//! account a door list created, whose player has not chosen a password yet (the code
//! was lost, or expired).
//!
//! A code is the key to an account that has no password, so it belongs to whoever
//! created the account: the organizer of the tournament whose door list created it,
//! while they hold the organizer role, or an admin. Registering the same name in
//! another tournament gives that tournament's organizer no code (`registrations`).
//! Every code handed out is recorded with who, for which account and in which
//! tournament (`account_setup_code_issues`), and logged; the old code stops working.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::app_state::AppState;
use crate::auth::accounts::roles_of;
use crate::auth::{accounts, setup_code};
use crate::error::{ApiError, Problem, Reason};
use crate::http::auth::Authenticated;
use crate::tournaments::{self, repo};

/// A new set-up code, shown only here.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SetupCodeIssued {
    pub account: i64,
    pub username: String,
    /// The one-time code with which the player chooses a password
    /// (`POST /v1/accounts/setup`); the code handed out before stops working.
    #[schema(example = "K7QM-3XWP-9ZTR")]
    pub setup_code: String,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub setup_code_expires_at: OffsetDateTime,
}

fn forbidden(detail: &str) -> ApiError {
    ApiError::forbidden(detail)
}

/// Hands out a new set-up code for an account tournament `id`'s door list created and
/// whose player has not chosen a password yet; the old code stops working. For that
/// tournament's organizer (while they hold the organizer role) and for admins. The
/// answer is never cached; the code is recorded as reissued, with who asked.
#[utoipa::path(
    post,
    path = "/v1/tournaments/{id}/players/{account}/setup-code",
    operation_id = "reissue_setup_code",
    tag = "tournaments",
    security(("bearer" = [])),
    params(
        ("id" = i64, Path, description = "Tournament id"),
        ("account" = i64, Path, description = "The account's id"),
    ),
    responses(
        (status = 200, description = "A new code; the old one no longer works",
         body = SetupCodeIssued,
         headers(("Cache-Control" = String, description = "`no-store`"))),
        (status = 403, description = "Neither this tournament's organizer holding the \
         organizer role nor an admin, or an account another tournament's list created \
         (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament or account (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The player has chosen a password already: they log \
         in with it (`account_active`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn reissue(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<(i64, i64)>,
) -> Result<HttpResponse, ApiError> {
    let (id, account) = path.into_inner();
    let admin = roles_of(Some(&auth.account)).admin;
    let tournament = state.tournaments.read(id).await?;
    let ctx = tournaments::context(&auth.account, repo::now());
    // Decided before any account is looked up: an outsider learns nothing of accounts.
    if !admin && !tournament.state().acts_as_organizer(&ctx) {
        return Err(forbidden(
            "only this tournament's organizer (holding the organizer role) or an admin \
             hands out set-up codes for the accounts its door list created",
        ));
    }
    let mut tx = state.db.begin().await?;
    let found = accounts::listed_by_id(&mut tx, account)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("account {account}")))?;
    if !admin && found.created_for_tournament != Some(id) {
        return Err(forbidden(
            "this account was not created by this tournament's door list: only the \
             organizer of the tournament that created it, or an admin, hands out its code",
        ));
    }
    if !found.pending_setup {
        return Err(ApiError::Refused {
            reason: Reason::NotNow,
            code: "account_active",
            title: "Account already set up",
            detail: "the player has chosen a password: they log in with it".into(),
        });
    }
    let code = setup_code::issue().map_err(|e| ApiError::unexpected("reading the OS RNG", e))?;
    let issue = setup_code::Issue {
        by: auth.account.id,
        tournament: Some(id),
        reissue: true,
    };
    let expires = setup_code::store(&mut tx, account, &code, issue).await?;
    tx.commit().await?;
    tracing::info!(
        tournament = id,
        account,
        issued_by = auth.account.id,
        "set-up code reissued"
    );
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static("no-store")))
        .json(SetupCodeIssued {
            account,
            username: found.username,
            setup_code: code.expose().to_owned(),
            setup_code_expires_at: expires,
        }))
}
