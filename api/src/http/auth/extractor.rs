//! The `Authenticated` extractor and its role guard.
//!
//! A handler that takes an [`Authenticated`] argument runs only for a request with
//! a valid `Authorization: Bearer <token>` header; otherwise the extractor answers
//! 401 (`unauthenticated` when no token was sent, `invalid_token` when it is
//! unknown, expired or revoked). Role checks are explicit in the handler:
//! `auth.require(Role::Admin)?` answers 403 `forbidden`.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, web};

use crate::app_state::AppState;
use crate::auth::accounts::{self, Account};
use crate::auth::role::Role;
use crate::auth::token;
use crate::error::ApiError;

/// The account behind the request's bearer token.
#[derive(Debug, Clone)]
pub struct Authenticated {
    pub account: Account,
    /// SHA-256 of the presented token: identifies the session (log out).
    token_hash: [u8; 32],
}

impl Authenticated {
    /// 403 unless the account has `role` (admins have every role).
    pub fn require(&self, role: Role) -> Result<(), ApiError> {
        if self.account.has_role(role) {
            Ok(())
        } else {
            Err(ApiError::Forbidden {
                required: role.as_str(),
            })
        }
    }

    pub fn token_hash(&self) -> &[u8; 32] {
        &self.token_hash
    }

    /// The session's account as it is now (`None` once the session is revoked or
    /// expired): what a long-lived answer, such as a live stream, asks before each
    /// message, so that a role taken away takes its sight away at once.
    pub async fn current(&self, state: &AppState) -> Result<Option<Account>, ApiError> {
        session_account(state, &self.token_hash).await
    }
}

/// The account of session `token_hash`: from this instance's session cache, else from
/// the database (and then cached).
async fn session_account(
    state: &AppState,
    token_hash: &[u8; 32],
) -> Result<Option<Account>, ApiError> {
    if let Some(account) = state.sessions.get(token_hash) {
        return Ok(Some(account));
    }
    let generation = state.sessions.generation();
    let Some((account, expires_at)) = accounts::session(&state.db, token_hash).await? else {
        return Ok(None);
    };
    state
        .sessions
        .put(*token_hash, account.clone(), expires_at, generation);
    Ok(Some(account))
}

/// The token of an `Authorization: Bearer <token>` header (scheme in any case).
fn bearer_token(req: &HttpRequest) -> Result<String, ApiError> {
    let value = req
        .headers()
        .get(header::AUTHORIZATION)
        .ok_or(ApiError::MissingToken)?;
    let value = value.to_str().map_err(|_| ApiError::InvalidToken)?;
    let (scheme, token) = value.split_once(' ').ok_or(ApiError::MissingToken)?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(ApiError::MissingToken);
    }
    let token = token.trim();
    if !token::looks_valid(token) {
        return Err(ApiError::InvalidToken);
    }
    Ok(token.to_owned())
}

impl FromRequest for Authenticated {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let token = bearer_token(req);
        let state = req.app_data::<web::Data<AppState>>().cloned();
        Box::pin(async move {
            let token = token?;
            let state = state.ok_or(ApiError::Unexpected {
                context: "AppState is not registered",
                source: None,
            })?;
            let token_hash = token::hash(&token);
            let account = session_account(&state, &token_hash)
                .await?
                .ok_or(ApiError::InvalidToken)?;
            tracing::Span::current().record("account_id", account.id);
            Ok(Self {
                account,
                token_hash,
            })
        })
    }
}
