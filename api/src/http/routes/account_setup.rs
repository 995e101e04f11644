//! `POST /v1/accounts/setup`: a player whose account an organizer created (bulk
//! registration, `tournaments::registrations`) chooses their password with the
//! one-time code they were given (`auth::setup_code`).
//!
//! Wrong codes are throttled like wrong passwords, on a count of their own
//! (`auth::throttle`, `Secret::SetupCode`): a guesser of codes is slowed down per
//! account and address, and cannot spend the account's log-in budget.

use std::time::Instant;

use actix_web::{HttpRequest, HttpResponse, web};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use utoipa::ToSchema;

use super::accounts::AccountView;
use crate::app_state::AppState;
use crate::auth::accounts::{self, validate_password, validate_username};
use crate::auth::setup_code;
use crate::auth::throttle::{Attempt, Client, Secret};
use crate::error::{ApiError, FieldError, Problem, Reason};

/// The code and the password the player chooses.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AccountSetupRequest {
    #[schema(example = "alice")]
    pub username: String,
    /// As printed (`K7QM-3XWP-9ZTR`); case, dashes and spaces do not matter.
    #[schema(value_type = String, example = "K7QM-3XWP-9ZTR")]
    pub code: SecretString,
    /// 8 to 128 characters.
    #[schema(
        value_type = String,
        format = Password,
        example = "correct horse battery",
        min_length = 8,
        max_length = 128
    )]
    pub password: SecretString,
}

fn invalid_code() -> ApiError {
    ApiError::Refused {
        reason: Reason::Forbidden,
        code: "invalid_setup_code",
        title: "Invalid set-up code",
        detail: "no unused, unexpired set-up code of this account matches: ask the \
                 organizer for a new one"
            .into(),
    }
}

/// Sets the password of an account created by an organizer, with its one-time code;
/// the code is used up. Log in afterwards with `POST /v1/sessions`.
#[utoipa::path(
    post,
    path = "/v1/accounts/setup",
    tag = "accounts",
    security(()),
    request_body = AccountSetupRequest,
    responses(
        (status = 200, description = "The password is set; the code is used up", body = AccountView),
        (status = 403, description = "No unused, unexpired code of this account matches \
                                      (`invalid_setup_code`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A password that is too short or too long \
                                      (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many wrong codes for this account from this \
                                      address, or from this address on any account \
                                      (`too_many_attempts`); `Retry-After` says when to try \
                                      again",
         body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Too many password hashes at once (`server_busy`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn setup(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<AccountSetupRequest>,
) -> Result<HttpResponse, ApiError> {
    let AccountSetupRequest {
        username,
        code,
        password,
    } = body.into_inner();
    if let Err(msg) = validate_password(password.expose_secret(), &username) {
        return Err(ApiError::Validation(vec![FieldError::new("password", msg)]));
    }
    let address = req.peer_addr().map(|peer| peer.ip());
    let attempt = Attempt {
        secret: Secret::SetupCode,
        username: &username,
        client: address.map_or(Client::Unknown, Client::Address),
        address,
    };
    if let Err(wait) = state.login_throttle.check(&attempt, Instant::now()) {
        let retry_after_secs = u32::try_from(wait.as_secs() + 1).unwrap_or(u32::MAX);
        return Err(ApiError::TooManyAttempts { retry_after_secs });
    }
    let symbols = setup_code::normalize(code.expose_secret());
    let redeemed = match (validate_username(&username), symbols) {
        (Ok(()), Some(symbols)) => {
            let passwords = &state.passwords;
            setup_code::redeem(
                &state.db,
                &username,
                &setup_code::hash(&symbols),
                || async { passwords.hash(password).await.map_err(ApiError::from) },
            )
            .await?
        }
        _ => None,
    };
    let Some(account_id) = redeemed else {
        state.login_throttle.failed(&attempt, Instant::now());
        tracing::info!("account set-up refused");
        return Err(invalid_code());
    };
    state.login_throttle.succeeded(&attempt);
    let account = accounts::by_id(&state.db, account_id)
        .await?
        .ok_or_else(invalid_code)?;
    tracing::info!(account_id, "account set up by its player");
    Ok(HttpResponse::Ok().json(AccountView::from(account)))
}
