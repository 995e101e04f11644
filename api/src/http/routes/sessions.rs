//! `/v1/sessions`: log in (get a bearer token) and log out (revoke it).

use actix_web::http::header;
use std::time::Instant;

use actix_web::{HttpRequest, HttpResponse, web};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize, Serializer};
use time::OffsetDateTime;
use utoipa::ToSchema;

use super::accounts::AccountView;
use crate::app_state::AppState;
use crate::auth::accounts;
use crate::auth::devices;
use crate::auth::throttle::{Attempt, Client, Secret};
use crate::auth::token;
use crate::error::{ApiError, Problem};
use crate::http::auth::Authenticated;

/// Log-in form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoginRequest {
    #[schema(example = "alice")]
    pub username: String,
    #[schema(value_type = String, format = Password, example = "correct horse battery")]
    pub password: SecretString,
    /// The `device_token` an earlier log-in of this account gave this client. A known
    /// device is judged by its own wrong passwords only: someone else guessing this
    /// account's password, even on the same network, does not make it wait.
    #[serde(default)]
    #[schema(value_type = Option<String>, example = "Yx3mJ0c1m7Vb8r2T0JbQ0mJcY3y4mYc0Z2l2Xq9wV7Y")]
    pub device_token: Option<SecretString>,
}

/// A new session.
// `Debug` is safe: the token is a `SecretString`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionView {
    /// Send as `Authorization: Bearer <token>`. Shown once; only its hash is kept.
    #[serde(serialize_with = "expose")]
    #[schema(value_type = String, example = "q5J0x7c1m7Vb8r2T0JbQ0mJcY3y4mYc0Z2l2Xq9wV7Y")]
    pub token: SecretString,
    /// Always `Bearer`.
    #[schema(example = "Bearer")]
    pub token_type: String,
    /// RFC 3339 time after which the token is refused.
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: OffsetDateTime,
    pub account: AccountView,
    /// Keep it with the account's name on this device and send it with the next
    /// log-in (`device_token`): the one sent, or a new one.
    #[serde(serialize_with = "expose")]
    #[schema(value_type = String, example = "Yx3mJ0c1m7Vb8r2T0JbQ0mJcY3y4mYc0Z2l2Xq9wV7Y")]
    pub device_token: SecretString,
}

fn expose<S: Serializer>(secret: &SecretString, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(secret.expose_secret())
}

/// Exchanges a username and password for a bearer token.
#[utoipa::path(
    post,
    path = "/v1/sessions",
    tag = "sessions",
    security(()),
    request_body = LoginRequest,
    responses(
        (status = 201, description = "Logged in", body = SessionView,
         headers(("Cache-Control" = String, description = "`no-store`: the answer holds a token"))),
        (status = 401, description = "Wrong username or password (`invalid_credentials`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Malformed form (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many wrong passwords for this account from this \
         client (its device, else its address), or from this address on any account \
         (`too_many_attempts`); `Retry-After` says when to try again",
         body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Too many password hashes at once (`server_busy`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<LoginRequest>,
) -> Result<HttpResponse, ApiError> {
    let LoginRequest {
        username,
        password,
        device_token,
    } = body.into_inner();
    // The peer, not a forwarded-for header a client could choose (see docs/operations.md).
    let address = req.peer_addr().map(|peer| peer.ip());
    let presented = devices::presented(device_token.as_ref().map(|t| t.expose_secret()));
    let known_device = match presented {
        Some(hash) if devices::belongs_to(&state.db, &hash, &username).await? => Some(hash),
        _ => None,
    };
    let attempt = Attempt {
        secret: Secret::Password,
        username: &username,
        client: match (known_device, address) {
            (Some(hash), _) => Client::Device(hash),
            (None, Some(address)) => Client::Address(address),
            (None, None) => Client::Unknown,
        },
        address,
    };
    if let Err(wait) = state.login_throttle.check(&attempt, Instant::now()) {
        tracing::info!("log in refused: too many failed attempts");
        let retry_after_secs = u32::try_from(wait.as_secs() + 1).unwrap_or(u32::MAX);
        return Err(ApiError::TooManyAttempts { retry_after_secs });
    }
    // A name no account can have is looked up as nobody's (PostgreSQL refuses a NUL
    // byte outright): the same 401, after the same hashing time, as an unknown name.
    let stored = match accounts::validate_username(&username) {
        Ok(()) => accounts::credentials(&state.db, &username).await?,
        Err(_) => None,
    };
    let (account_id, hash) = match stored {
        Some((id, hash)) => (Some(id), Some(hash)),
        None => (None, None),
    };
    // Verify even for an unknown username (against a dummy hash): same timing.
    let valid = state.passwords.verify(password, hash).await?;
    let account_id = match account_id {
        Some(id) if valid => id,
        _ => {
            state.login_throttle.failed(&attempt, Instant::now());
            tracing::info!("log in refused");
            return Err(ApiError::InvalidCredentials);
        }
    };
    state.login_throttle.succeeded(&attempt);
    let device_token = match (known_device, device_token) {
        (Some(hash), Some(token)) => {
            devices::remember(&state.db, account_id, &hash).await?;
            token
        }
        _ => {
            let device =
                token::issue().map_err(|e| ApiError::unexpected("reading the OS RNG", e))?;
            devices::remember(&state.db, account_id, &device.hash).await?;
            device.token
        }
    };
    let issued = token::issue().map_err(|e| ApiError::unexpected("reading the OS RNG", e))?;
    let expires_at =
        accounts::create_session(&state.db, account_id, &issued.hash, state.token_ttl).await?;
    let account = accounts::by_id(&state.db, account_id)
        .await?
        .ok_or(ApiError::InvalidCredentials)?;
    tracing::info!(account_id, "logged in");
    // The answer carries a bearer token: no cache along the way may keep it.
    Ok(HttpResponse::Created()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(SessionView {
            token: issued.token,
            token_type: "Bearer".into(),
            expires_at,
            account: account.into(),
            device_token,
        }))
}

/// Revokes the bearer token used for this request.
#[utoipa::path(
    delete,
    path = "/v1/sessions/current",
    tag = "sessions",
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Logged out; the token is no longer accepted"),
    )
)]
pub async fn logout(
    state: web::Data<AppState>,
    auth: Authenticated,
) -> Result<HttpResponse, ApiError> {
    accounts::delete_session(&state.db, auth.token_hash()).await?;
    // The other instances hear of it from the database; this one forgets at once.
    state.sessions.forget(auth.token_hash());
    tracing::info!(account_id = auth.account.id, "logged out");
    Ok(HttpResponse::NoContent().finish())
}
