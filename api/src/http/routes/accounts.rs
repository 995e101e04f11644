//! `/v1/accounts`: register, look at oneself, find players (officials), grant roles.

use std::time::Instant;

use actix_web::{HttpRequest, HttpResponse, web};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::app_state::AppState;
use crate::auth::Role;
use crate::auth::accounts::{self, Account, validate_password, validate_username};
use crate::error::{ApiError, FieldError, Problem};
use crate::http::auth::Authenticated;

/// An account (never with its password).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccountView {
    #[schema(example = 42)]
    pub id: i64,
    #[schema(example = "alice")]
    pub username: String,
    /// Sorted roles; `admin` passes every role check.
    pub roles: Vec<Role>,
    /// RFC 3339 time of registration.
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
}

impl From<Account> for AccountView {
    fn from(a: Account) -> Self {
        Self {
            id: a.id,
            username: a.username,
            roles: a.roles,
            created_at: a.created_at,
        }
    }
}

/// Registration form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegisterRequest {
    /// 3 to 32 ASCII letters, digits, `_`, `.` or `-`; unique regardless of case.
    #[schema(
        example = "alice",
        min_length = 3,
        max_length = 32,
        pattern = "^[A-Za-z0-9_.-]+$"
    )]
    pub username: String,
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

/// Creates an account with the role `player`.
#[utoipa::path(
    post,
    path = "/v1/accounts",
    tag = "accounts",
    security(()),
    request_body = RegisterRequest,
    responses(
        (status = 201, description = "Account created", body = AccountView),
        (status = 409, description = "Username taken (`username_taken`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid username or password (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many accounts created from this address \
         (`too_many_registrations`); `Retry-After` says when one more is possible",
         body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Too many password hashes at once (`server_busy`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn register(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<RegisterRequest>,
) -> Result<HttpResponse, ApiError> {
    let RegisterRequest { username, password } = body.into_inner();
    // Counted before anything else, refused forms included: every attempt costs the
    // server a look-up, and a valid one a password hash.
    let address = req.peer_addr().map(|peer| peer.ip());
    if let Err(wait) = state.registrations.take(address, Instant::now()) {
        tracing::info!("registration refused: too many from this address");
        return Err(ApiError::RateLimited {
            code: "too_many_registrations",
            title: "Too many registrations",
            detail: format!(
                "too many accounts were created from this address: one more is possible in \
                 {} s",
                wait.as_secs() + 1
            ),
            retry_after_secs: u32::try_from(wait.as_secs() + 1).unwrap_or(u32::MAX),
        });
    }
    let mut errors = Vec::new();
    if let Err(msg) = validate_username(&username) {
        errors.push(FieldError::new("username", msg));
    }
    if let Err(msg) = validate_password(password.expose_secret(), &username) {
        errors.push(FieldError::new("password", msg));
    }
    if !errors.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    let hash = state.passwords.hash(password).await?;
    let account = accounts::create(&state.db, &username, &hash, &[Role::Player], None).await?;
    tracing::info!(account_id = account.id, "account registered");
    Ok(HttpResponse::Created().json(AccountView::from(account)))
}

/// The account of the bearer token.
#[utoipa::path(
    get,
    path = "/v1/accounts/me",
    tag = "accounts",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The authenticated account", body = AccountView),
    )
)]
pub async fn me(auth: Authenticated) -> HttpResponse {
    HttpResponse::Ok().json(AccountView::from(auth.account))
}

/// How officials find an account: by its whole username, or by how it starts.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AccountSearch {
    /// The whole username, in any case.
    #[param(example = "alice")]
    pub username: Option<String>,
    /// The start of the username, in any case (1 to 32 characters).
    #[param(example = "al")]
    pub prefix: Option<String>,
    /// Most accounts to list for a prefix (1 to 100, default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

/// Accounts found, in alphabetical order.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AccountList {
    pub accounts: Vec<AccountView>,
}

/// Default and largest `limit` of a prefix search.
const SEARCH_LIMIT: (i64, i64) = (20, 100);

/// Finds accounts by username, for officials (organizers, referees, admins) who register
/// players at the door: `?username=` the exact name (0 or 1 account), or `?prefix=` the
/// names that start so.
#[utoipa::path(
    get,
    path = "/v1/accounts",
    tag = "accounts",
    security(("bearer" = [])),
    params(AccountSearch),
    responses(
        (status = 200, description = "The accounts found (perhaps none)", body = AccountList),
        (status = 403, description = "The caller is not an official (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Neither or both of `username` and `prefix`, or a bad \
                                      `limit` (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn search(
    state: web::Data<AppState>,
    auth: Authenticated,
    query: web::Query<AccountSearch>,
) -> Result<HttpResponse, ApiError> {
    if !auth.account.has_role(Role::Referee) {
        auth.require(Role::Organizer)?;
    }
    let AccountSearch {
        username,
        prefix,
        limit,
    } = query.into_inner();
    let limit = limit.unwrap_or(SEARCH_LIMIT.0);
    if !(1..=SEARCH_LIMIT.1).contains(&limit) {
        return Err(ApiError::invalid_field("limit", "must be 1 to 100"));
    }
    let found = match (username, prefix) {
        (Some(username), None) => accounts::by_username(&state.db, username.trim())
            .await?
            .into_iter()
            .collect(),
        (None, Some(prefix)) => {
            let prefix = prefix.trim();
            if prefix.is_empty() || prefix.len() > 32 {
                return Err(ApiError::invalid_field(
                    "prefix",
                    "must be 1 to 32 characters",
                ));
            }
            accounts::with_prefix(&state.db, prefix, limit).await?
        }
        _ => {
            return Err(ApiError::invalid_field(
                "username",
                "give either username (the whole name) or prefix (its start)",
            ));
        }
    };
    Ok(HttpResponse::Ok().json(AccountList {
        accounts: found.into_iter().map(AccountView::from).collect(),
    }))
}

/// The complete set of roles an account should have.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetRolesRequest {
    /// Role names: `admin`, `organizer`, `referee`, `player`.
    #[schema(value_type = Vec<crate::auth::Role>, example = json!(["player", "referee"]))]
    pub roles: Vec<String>,
}

/// Replaces an account's roles (admins only). An admin cannot drop their own
/// `admin` role, so the server never loses its last way in by accident.
#[utoipa::path(
    put,
    path = "/v1/accounts/{id}/roles",
    tag = "accounts",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Account id")),
    request_body = SetRolesRequest,
    responses(
        (status = 200, description = "The account with its new roles", body = AccountView),
        (status = 403, description = "The caller is not an admin (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such account (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Unknown role, or an admin dropping their own admin role \
         (`validation_failed`, naming the field)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn set_roles(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
    body: web::Json<SetRolesRequest>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Role::Admin)?;
    let id = path.into_inner();
    let mut errors = Vec::new();
    let mut roles = Vec::new();
    for (i, name) in body.roles.iter().enumerate() {
        match Role::parse(name) {
            Some(role) => roles.push(role),
            None => errors.push(FieldError::new(
                format!("roles[{i}]"),
                "must be one of admin, organizer, referee, player",
            )),
        }
    }
    if id == auth.account.id && !roles.contains(&Role::Admin) {
        errors.push(FieldError::new(
            "roles",
            "an admin cannot remove their own admin role",
        ));
    }
    if !errors.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    roles.sort_unstable();
    roles.dedup();
    let account = accounts::set_roles(&state.db, id, &roles, auth.account.id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no account with id {id}")))?;
    state.sessions.forget_account(id);
    tracing::info!(
        account_id = id,
        ?roles,
        granted_by = auth.account.id,
        "roles set"
    );
    Ok(HttpResponse::Ok().json(AccountView::from(account)))
}
