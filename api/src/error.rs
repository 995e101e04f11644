//! The one error type of the HTTP API, and how it becomes a problem document.
//!
//! # Which error to use when
//!
//! - **Handlers and extractors return [`ApiError`]** (`Result<T, ApiError>`). It is
//!   the only error that becomes an HTTP response, and every response it makes is an
//!   RFC 9457 problem document (`application/problem+json`, see [`Problem`]) with a
//!   stable machine-readable `code`. Clients branch on `code`, never on `title` or
//!   `detail`.
//! - **Lower layers keep their own typed errors** ([`crate::store::AppendError`],
//!   [`crate::auth::password::PasswordError`], ...) and convert into `ApiError`
//!   with `From`. That conversion is where we decide what was the client's fault.
//! - **The client's faults** (validation, conflicts, authentication, ...) carry a
//!   `detail` that is safe to show. Validation errors name the field.
//! - **Our faults** ([`ApiError::Database`], [`ApiError::Unexpected`]) are logged
//!   with their whole source chain and answered with an opaque 500: no internal text
//!   ever reaches the client.
//! - **Errors actix raises before a handler runs** (unreadable JSON, wrong content
//!   type, oversized body, bad path or query, unknown route, wrong method) are turned
//!   into `ApiError` by the functions at the bottom of this module, which
//!   [`crate::startup`] registers. [`problem_fallback`] is the last safety net: any
//!   other error response is rewritten into a problem document.
//!
//! Nothing a client can send should produce a 500; a 500 is a bug to fix.

use std::fmt::Write as _;

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::ServiceResponse;
use actix_web::error::{JsonPayloadError, PathError, PayloadError, QueryPayloadError};
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::ErrorHandlerResponse;
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Media type of every error response.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// Prefix of the `type` member: `urn:yaniv:problem:<code>`.
pub const PROBLEM_TYPE_PREFIX: &str = "urn:yaniv:problem:";

/// Every way a request can fail. Each variant documents its status and `code`.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 422 `validation_failed`: the body parsed but some fields are invalid.
    #[error("validation failed")]
    Validation(Vec<FieldError>),
    /// 400 `malformed_json`: the body is not JSON (syntax error, truncated).
    #[error("malformed JSON body: {0}")]
    MalformedJson(String),
    /// 400 `invalid_path`: a path segment has the wrong form (e.g. a non-numeric id).
    #[error("invalid path: {0}")]
    InvalidPath(String),
    /// 400 `invalid_query`: the query string does not fit the endpoint.
    #[error("invalid query: {0}")]
    InvalidQuery(String),
    /// 400 `bad_request`: the body could not be read.
    #[error("bad request: {0}")]
    BadRequest(String),
    /// 413 `payload_too_large`: the body is larger than the configured limit.
    #[error("payload larger than {limit} bytes")]
    PayloadTooLarge { limit: usize },
    /// 408 `body_timeout`: the body did not arrive within the server's limit.
    #[error("request body too slow")]
    BodyTimeout,
    /// 415 `unsupported_media_type`: the body is not `application/json`.
    #[error("unsupported media type")]
    UnsupportedMediaType,
    /// 401 `unauthenticated`: no bearer token was sent.
    #[error("missing bearer token")]
    MissingToken,
    /// 401 `invalid_token`: the token is unknown, expired or revoked.
    #[error("invalid or expired token")]
    InvalidToken,
    /// 401 `invalid_credentials`: wrong username or password (never says which).
    #[error("invalid credentials")]
    InvalidCredentials,
    /// 403 `forbidden`: authenticated, but the account lacks the role.
    #[error("requires role {required}")]
    Forbidden { required: &'static str },
    /// 404 `not_found`: no such resource or route.
    #[error("not found: {0}")]
    NotFound(String),
    /// 405 `method_not_allowed`: the route exists with other methods (`allow`).
    #[error("method not allowed")]
    MethodNotAllowed { allow: &'static str },
    /// 409 `username_taken`: another account has this username (any case).
    #[error("username taken")]
    UsernameTaken,
    /// 409 `version_conflict`: another writer appended to the stream first.
    #[error("stream {stream} is at version {actual}, expected {expected}")]
    VersionConflict {
        stream: String,
        expected: u64,
        actual: u64,
    },
    /// 409 `idempotency_in_progress`: a request with this key has not finished.
    #[error("a request with this idempotency key is still in progress")]
    IdempotencyInProgress,
    /// 422 `idempotency_key_reused`: the key was used for a different request.
    #[error("idempotency key reused for a different request")]
    IdempotencyKeyReused,
    /// 403, 409, 412 or 422 with a code of its own: a command refused by the rules
    /// engine (`code` is `GameError::code()`, e.g. `not_your_turn`, `illegal_throw`)
    /// or by a game table (`not_seated`, `table_full`, ...). `detail` is safe to show.
    #[error("{code}: {detail}")]
    Refused {
        reason: Reason,
        code: &'static str,
        title: &'static str,
        detail: String,
    },
    /// 429 `too_many_attempts` (with `Retry-After`): too many wrong passwords for this
    /// account or from this address; wait before trying again.
    #[error("too many failed log-in attempts")]
    TooManyAttempts { retry_after_secs: u32 },
    /// 429 with `Retry-After` and a code of its own: a client went beyond a limit of
    /// how much or how fast it may ask (`too_many_registrations`, `too_many_streams`).
    #[error("rate limited: {code}")]
    RateLimited {
        code: &'static str,
        title: &'static str,
        detail: String,
        retry_after_secs: u32,
    },
    /// 503 `server_busy` (with `Retry-After`): too many password hashes at once.
    #[error("server busy")]
    Busy { retry_after_secs: u32 },
    /// 503 `shutting_down`: this instance is stopping (readiness only: requests are
    /// still served until the door closes).
    #[error("shutting down")]
    ShuttingDown,
    /// 503 `database_unavailable` (with `Retry-After`): the database cannot be reached.
    #[error("database unavailable")]
    DatabaseUnavailable(#[source] Option<sqlx::Error>),
    /// 500 `stream_corrupt`: a stored stream does not read back as it was written (an
    /// event is missing, changed behind the server's back, or unreadable). The data is
    /// at fault, not the request: `detail` names the stream and the version, which
    /// `POST .../verify` examines. Logged once per stream and version, not per request.
    #[error("stream {stream} is corrupt at version {version}: {reason}")]
    StreamCorrupt {
        stream: String,
        version: u64,
        reason: &'static str,
    },
    /// 500 `internal_error`: a database error we did not expect. Logged, opaque.
    #[error("database error")]
    Database(#[source] sqlx::Error),
    /// 500 `internal_error`: any other bug or failure of ours. Logged, opaque.
    #[error("unexpected error: {context}")]
    Unexpected {
        context: &'static str,
        #[source]
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
}

/// Why a request was refused, in the terms of what was asked, not of HTTP: the
/// response's status follows from it (see [`Reason::status`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The caller's roles or place do not allow it (403).
    Forbidden,
    /// Not now: the stream's state does not allow it (409).
    NotNow,
    /// Never: the command itself breaks a rule (422).
    Invalid,
    /// The caller based the request on a version the stream has moved past (412).
    Stale,
    /// The body is in a form this request does not take (415).
    UnsupportedForm,
}

impl Reason {
    pub fn status(self) -> StatusCode {
        match self {
            Reason::Forbidden => StatusCode::FORBIDDEN,
            Reason::NotNow => StatusCode::CONFLICT,
            Reason::Invalid => StatusCode::UNPROCESSABLE_ENTITY,
            Reason::Stale => StatusCode::PRECONDITION_FAILED,
            Reason::UnsupportedForm => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        }
    }
}

/// One invalid field of a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FieldError {
    /// Name (or JSON path) of the field, e.g. `username` or `roles[1]`.
    pub field: String,
    /// What is wrong with it, in English.
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// An RFC 9457 problem document, the body of every error response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:yaniv:problem:validation_failed",
    "title": "Validation failed",
    "status": 422,
    "detail": "username: must be 3 to 32 characters",
    "code": "validation_failed",
    "errors": [{"field": "username", "message": "must be 3 to 32 characters"}]
}))]
pub struct Problem {
    /// URI naming the kind of problem: `urn:yaniv:problem:<code>`.
    #[serde(rename = "type")]
    pub problem_type: String,
    /// Short summary of the kind of problem; the same for every occurrence.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// Explanation of this occurrence.
    pub detail: String,
    /// Stable machine-readable code (snake_case); what clients should match on.
    pub code: String,
    /// The invalid fields, for `validation_failed`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
}

impl Problem {
    pub fn new(status: StatusCode, code: &str, title: &str, detail: impl Into<String>) -> Self {
        // The OpenAPI document enumerates the codes: a debug build (every test) refuses
        // to send one it does not list.
        debug_assert!(
            crate::problem_codes::is_documented(code),
            "problem code `{code}` is missing from crate::problem_codes"
        );
        Self {
            problem_type: format!("{PROBLEM_TYPE_PREFIX}{code}"),
            title: title.to_owned(),
            status: status.as_u16(),
            detail: detail.into(),
            code: code.to_owned(),
            errors: Vec::new(),
        }
    }

    /// A generic problem for a bare status (used by [`problem_fallback`]).
    pub fn for_status(status: StatusCode) -> Self {
        let (code, title) = match status.as_u16() {
            400 => ("bad_request", "Bad request"),
            401 => ("unauthenticated", "Authentication required"),
            403 => ("forbidden", "Forbidden"),
            404 => ("not_found", "Not found"),
            405 => ("method_not_allowed", "Method not allowed"),
            406 => ("not_acceptable", "Not acceptable"),
            408 => ("request_timeout", "Request timeout"),
            411 => ("length_required", "Length required"),
            413 => ("payload_too_large", "Payload too large"),
            414 => ("uri_too_long", "URI too long"),
            415 => ("unsupported_media_type", "Unsupported media type"),
            431 => ("headers_too_large", "Request header fields too large"),
            503 => ("service_unavailable", "Service unavailable"),
            s if s >= 500 => ("internal_error", "Internal server error"),
            _ => ("bad_request", "Bad request"),
        };
        let detail = status
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_owned();
        Self::new(status, code, title, detail)
    }

    /// The response carrying this document.
    pub fn into_response(self) -> HttpResponse {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = serde_json::to_vec(&self).unwrap_or_default();
        HttpResponse::build(status)
            .insert_header((header::CONTENT_TYPE, PROBLEM_JSON))
            .body(body)
    }
}

impl ApiError {
    /// 403 `forbidden` for something the caller's roles or place do not allow.
    pub fn forbidden(detail: impl Into<String>) -> Self {
        Self::Refused {
            reason: Reason::Forbidden,
            code: "forbidden",
            title: "Forbidden",
            detail: detail.into(),
        }
    }

    /// A validation error on a single field.
    pub fn invalid_field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Validation(vec![FieldError::new(field, message)])
    }

    /// A 500 for something that should not happen, with its cause for the logs.
    pub fn unexpected(
        context: &'static str,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        Self::Unexpected {
            context,
            source: Some(source.into()),
        }
    }

    /// The stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Validation(_) => "validation_failed",
            Self::MalformedJson(_) => "malformed_json",
            Self::InvalidPath(_) => "invalid_path",
            Self::InvalidQuery(_) => "invalid_query",
            Self::BadRequest(_) => "bad_request",
            Self::PayloadTooLarge { .. } => "payload_too_large",
            Self::BodyTimeout => "body_timeout",
            Self::UnsupportedMediaType => "unsupported_media_type",
            Self::MissingToken => "unauthenticated",
            Self::InvalidToken => "invalid_token",
            Self::InvalidCredentials => "invalid_credentials",
            Self::Forbidden { .. } => "forbidden",
            Self::NotFound(_) => "not_found",
            Self::MethodNotAllowed { .. } => "method_not_allowed",
            Self::UsernameTaken => "username_taken",
            Self::VersionConflict { .. } => "version_conflict",
            Self::IdempotencyInProgress => "idempotency_in_progress",
            Self::IdempotencyKeyReused => "idempotency_key_reused",
            Self::Refused { code, .. } => code,
            Self::TooManyAttempts { .. } => "too_many_attempts",
            Self::RateLimited { code, .. } => code,
            Self::Busy { .. } => "server_busy",
            Self::ShuttingDown => "shutting_down",
            Self::DatabaseUnavailable(_) => "database_unavailable",
            Self::StreamCorrupt { .. } => "stream_corrupt",
            Self::Database(_) | Self::Unexpected { .. } => "internal_error",
        }
    }

    fn title(&self) -> &'static str {
        match self {
            Self::Validation(_) => "Validation failed",
            Self::MalformedJson(_) => "Malformed JSON",
            Self::InvalidPath(_) => "Invalid path parameter",
            Self::InvalidQuery(_) => "Invalid query string",
            Self::BadRequest(_) => "Bad request",
            Self::PayloadTooLarge { .. } => "Payload too large",
            Self::BodyTimeout => "Request body too slow",
            Self::UnsupportedMediaType => "Unsupported media type",
            Self::MissingToken => "Authentication required",
            Self::InvalidToken => "Invalid token",
            Self::InvalidCredentials => "Invalid credentials",
            Self::Forbidden { .. } => "Forbidden",
            Self::NotFound(_) => "Not found",
            Self::MethodNotAllowed { .. } => "Method not allowed",
            Self::UsernameTaken => "Username taken",
            Self::VersionConflict { .. } => "Version conflict",
            Self::IdempotencyInProgress => "Request in progress",
            Self::IdempotencyKeyReused => "Idempotency key reused",
            Self::Refused { title, .. } => title,
            Self::TooManyAttempts { .. } => "Too many attempts",
            Self::RateLimited { title, .. } => title,
            Self::Busy { .. } => "Server busy",
            Self::ShuttingDown => "Shutting down",
            Self::DatabaseUnavailable(_) => "Database unavailable",
            Self::StreamCorrupt { .. } => "Stored stream corrupt",
            Self::Database(_) | Self::Unexpected { .. } => "Internal server error",
        }
    }

    /// The `detail` member: safe to show, never internal error text.
    fn detail(&self) -> String {
        match self {
            Self::Validation(errors) => errors
                .iter()
                .map(|e| format!("{}: {}", e.field, e.message))
                .collect::<Vec<_>>()
                .join("; "),
            Self::MalformedJson(msg) => format!("the request body is not valid JSON: {msg}"),
            Self::InvalidPath(msg) => format!("a path parameter is invalid: {msg}"),
            Self::InvalidQuery(msg) => format!("the query string is invalid: {msg}"),
            Self::BadRequest(msg) => msg.clone(),
            Self::PayloadTooLarge { limit } => {
                format!("the request body is larger than the limit of {limit} bytes")
            }
            Self::BodyTimeout => {
                "the request body did not arrive in time: send it again, faster".into()
            }
            Self::UnsupportedMediaType => {
                "the request body must be JSON, sent with Content-Type: application/json".into()
            }
            Self::MissingToken => {
                "this endpoint needs an `Authorization: Bearer <token>` header".into()
            }
            Self::InvalidToken => "the bearer token is unknown, expired or revoked".into(),
            Self::InvalidCredentials => "the username or the password is wrong".into(),
            Self::Forbidden { required } => format!("this action needs the role `{required}`"),
            Self::NotFound(what) => what.clone(),
            Self::MethodNotAllowed { allow } => {
                format!("this resource supports only: {allow}")
            }
            Self::UsernameTaken => "an account with this username already exists".into(),
            Self::VersionConflict {
                stream,
                expected,
                actual,
            } => format!(
                "stream `{stream}` is at version {actual}, but the request expected version \
                 {expected}: reload the state and decide again"
            ),
            Self::IdempotencyInProgress => {
                "a request with this Idempotency-Key is still being processed: retry later".into()
            }
            Self::IdempotencyKeyReused => {
                "this Idempotency-Key was already used for a different request".into()
            }
            Self::Refused { detail, .. } => detail.clone(),
            Self::TooManyAttempts { retry_after_secs } => format!(
                "too many wrong passwords or codes from this client: retry after \
                 {retry_after_secs} s"
            ),
            Self::RateLimited { detail, .. } => detail.clone(),
            Self::Busy { retry_after_secs } => {
                format!("too many concurrent requests: retry after {retry_after_secs} s")
            }
            Self::ShuttingDown => {
                "this instance is stopping: send new requests to another one".into()
            }
            Self::DatabaseUnavailable(_) => "the database cannot be reached right now".into(),
            Self::StreamCorrupt {
                stream,
                version,
                reason,
            } => format!(
                "the stored stream `{stream}` does not read back as written at version \
                 {version}: {reason}. Nothing is served from it until an operator restores \
                 it; its verification names what differs"
            ),
            Self::Database(_) | Self::Unexpected { .. } => {
                "an internal error occurred; it has been logged".into()
            }
        }
    }

    /// The problem document for this error.
    pub fn problem(&self) -> Problem {
        let mut problem =
            Problem::new(self.status_code(), self.code(), self.title(), self.detail());
        if let Self::Validation(errors) = self {
            problem.errors.clone_from(errors);
        }
        problem
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::Validation(_) | Self::IdempotencyKeyReused => StatusCode::UNPROCESSABLE_ENTITY,
            Self::MalformedJson(_)
            | Self::InvalidPath(_)
            | Self::InvalidQuery(_)
            | Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Self::BodyTimeout => StatusCode::REQUEST_TIMEOUT,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::MissingToken | Self::InvalidToken | Self::InvalidCredentials => {
                StatusCode::UNAUTHORIZED
            }
            Self::Forbidden { .. } => StatusCode::FORBIDDEN,
            Self::Refused { reason, .. } => reason.status(),
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            Self::UsernameTaken | Self::VersionConflict { .. } | Self::IdempotencyInProgress => {
                StatusCode::CONFLICT
            }
            Self::TooManyAttempts { .. } | Self::RateLimited { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            Self::Busy { .. } | Self::ShuttingDown | Self::DatabaseUnavailable(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            Self::Database(_) | Self::Unexpected { .. } | Self::StreamCorrupt { .. } => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
        }
    }

    fn error_response(&self) -> HttpResponse<BoxBody> {
        match self {
            Self::Database(_) | Self::Unexpected { .. } | Self::DatabaseUnavailable(_) => {
                tracing::error!(error = %error_chain(self), "request failed");
            }
            _ => {}
        }
        let mut response = self.problem().into_response();
        let headers = response.headers_mut();
        match self {
            Self::MissingToken => {
                headers.insert(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static("Bearer realm=\"yaniv\""),
                );
            }
            Self::InvalidToken => {
                headers.insert(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static("Bearer realm=\"yaniv\", error=\"invalid_token\""),
                );
            }
            Self::MethodNotAllowed { allow } => {
                headers.insert(header::ALLOW, HeaderValue::from_static(allow));
            }
            Self::Busy { retry_after_secs } | Self::TooManyAttempts { retry_after_secs } => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after_secs));
            }
            Self::RateLimited {
                retry_after_secs, ..
            } => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after_secs));
                // A client beyond a cap gives its connection back at once, rather than
                // holding it idle until keep-alive runs out: the connections are what
                // the caps protect.
                response
                    .head_mut()
                    .set_connection_type(actix_web::http::ConnectionType::Close);
            }
            Self::DatabaseUnavailable(_) => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(5u32));
            }
            _ => {}
        }
        response
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> Self {
        match err {
            // Every connection is busy or the server is gone: tell the client to
            // come back rather than blaming a bug.
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::WorkerCrashed
            | sqlx::Error::Io(_)
            // A link cut in the middle of the protocol: through a balancer with no
            // primary behind it (a failover), the connection is accepted and closed,
            // and the TLS request gets a zero byte instead of an answer.
            | sqlx::Error::Protocol(_) => Self::DatabaseUnavailable(Some(err)),
            sqlx::Error::Database(ref db) if db.code().is_some_and(|c| unavailable(&c)) => {
                Self::DatabaseUnavailable(Some(err))
            }
            other => Self::Database(other),
        }
    }
}

/// SQLSTATEs that say the database cannot serve now, not that the request is wrong:
/// class 08 (the connection failed), 53 (out of connections, memory or disk), 57P
/// (the server was shut down or the backend terminated: a failover, `pg_ctl stop`,
/// `pg_terminate_backend`) and 57014 (the statement was cancelled: the statement
/// timeout of a frozen database).
fn unavailable(sqlstate: &str) -> bool {
    ["08", "53", "57P"]
        .iter()
        .any(|class| sqlstate.starts_with(class))
        || sqlstate == "57014"
}

/// `error: cause: cause ...`, for logs.
pub fn error_chain(err: &dyn std::error::Error) -> String {
    let mut out = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let _ = write!(out, ": {cause}");
        source = cause.source();
    }
    out
}

// ---------------------------------------------------------------------------
// Errors raised by actix before a handler runs (registered in startup.rs).
// ---------------------------------------------------------------------------

/// `web::JsonConfig` error handler: size, content type, syntax and shape errors.
pub fn json_error(err: JsonPayloadError, _req: &HttpRequest) -> actix_web::Error {
    let api = match err {
        JsonPayloadError::OverflowKnownLength { limit, .. }
        | JsonPayloadError::Overflow { limit } => ApiError::PayloadTooLarge { limit },
        JsonPayloadError::ContentType => ApiError::UnsupportedMediaType,
        JsonPayloadError::Deserialize(err) => from_serde_json(&err),
        JsonPayloadError::Payload(err) => from_payload(err, None),
        other => ApiError::BadRequest(format!("the request body could not be read: {other}")),
    };
    api.into()
}

/// `web::PayloadConfig` error handler (raw `Bytes`/`String` bodies).
pub fn payload_error(err: PayloadError, limit: usize) -> ApiError {
    from_payload(err, Some(limit))
}

fn from_payload(err: PayloadError, limit: Option<usize>) -> ApiError {
    match err {
        PayloadError::Overflow => ApiError::PayloadTooLarge {
            limit: limit.unwrap_or(0),
        },
        other => ApiError::BadRequest(format!("the request body could not be read: {other}")),
    }
}

/// Splits serde_json errors into the client's syntax errors (400) and shape errors
/// (422, naming the field when serde's message does).
pub fn from_serde_json(err: &serde_json::Error) -> ApiError {
    use serde_json::error::Category;
    match err.classify() {
        Category::Data => {
            let message = err.to_string();
            let field = backticked_field(&message).unwrap_or_else(|| "body".to_owned());
            // serde appends " at line L column C": keep it, it helps the client.
            ApiError::invalid_field(field, message)
        }
        Category::Syntax | Category::Eof | Category::Io => ApiError::MalformedJson(err.to_string()),
    }
}

/// Deserializes a JSON body into a typed request, naming the field that does not fit
/// as the request spells it: `throw[1]`, `draw.discard`, `seat` (for a missing or
/// unknown field, the name serde's message gives).
pub fn typed_body<T: serde::de::DeserializeOwned>(body: serde_json::Value) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(body).map_err(|err| {
        use serde_path_to_error::Segment;
        let mut field = String::new();
        for segment in err.path() {
            match segment {
                Segment::Seq { index } => field.push_str(&format!("[{index}]")),
                Segment::Map { key } | Segment::Enum { variant: key } => {
                    if !field.is_empty() {
                        field.push('.');
                    }
                    field.push_str(key);
                }
                Segment::Unknown => {}
            }
        }
        let message = err.inner().to_string();
        // A missing field's path is its parent's; an unknown one's already names it.
        let named = backticked_field(&message)
            .filter(|named| field.rsplit(['.', '[']).next() != Some(named.as_str()));
        if let Some(named) = named {
            if !field.is_empty() {
                field.push('.');
            }
            field.push_str(&named);
        }
        if field.is_empty() {
            field.push_str("body");
        }
        ApiError::invalid_field(field, message)
    })
}

/// The field name in serde's `missing field `x`` / `unknown field `x`` messages.
fn backticked_field(message: &str) -> Option<String> {
    let rest = message
        .strip_prefix("missing field `")
        .or_else(|| message.strip_prefix("unknown field `"))
        .or_else(|| message.strip_prefix("duplicate field `"))?;
    let end = rest.find('`')?;
    Some(rest[..end].to_owned())
}

/// `web::PathConfig` error handler.
pub fn path_error(err: PathError, _req: &HttpRequest) -> actix_web::Error {
    let detail = match err {
        PathError::Deserialize(inner) => inner.to_string(),
        other => other.to_string(),
    };
    ApiError::InvalidPath(detail).into()
}

/// `web::QueryConfig` error handler.
pub fn query_error(err: QueryPayloadError, _req: &HttpRequest) -> actix_web::Error {
    let detail = match err {
        QueryPayloadError::Deserialize(inner) => inner.to_string(),
        other => other.to_string(),
    };
    ApiError::InvalidQuery(detail).into()
}

/// Default service of the app: no route matches the path.
pub async fn route_not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound(format!(
        "no route for {} {}",
        req.method(),
        req.path()
    )))
}

/// Last safety net (an `ErrorHandlers` default handler): an error response that is
/// not already a problem document (one actix made itself) is replaced by a generic
/// problem for its status, keeping its headers.
pub fn problem_fallback<B: MessageBody + 'static>(
    res: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(PROBLEM_JSON.as_bytes()));
    // Problem documents, and the pages' own error pages, say what they mean already.
    let is_page = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    if is_problem || is_page {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let (req, old) = res.into_parts();
    let mut new = Problem::for_status(status).into_response();
    for (name, value) in old.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            new.headers_mut().insert(name.clone(), value.clone());
        }
    }
    let res: ServiceResponse<EitherBody<B, BoxBody>> =
        ServiceResponse::new(req, new).map_into_right_body();
    Ok(ErrorHandlerResponse::Response(res))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seen during a failover behind HAProxy (deploy/cluster-test.sh): the balancer
    /// accepted the connection with no primary to pass it to, and sqlx's TLS request
    /// got a zero byte back. The outcome of a command is then unknown: 503, retry.
    #[test]
    fn a_link_cut_inside_the_protocol_is_an_unavailable_database() {
        let cut = sqlx::Error::Protocol("unexpected response from SSLRequest: 0x00".into());
        assert!(matches!(
            ApiError::from(cut),
            ApiError::DatabaseUnavailable(Some(_))
        ));
        let decode = sqlx::Error::ColumnNotFound("version".into());
        assert!(matches!(ApiError::from(decode), ApiError::Database(_)));
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Body {
        username: String,
    }

    fn classify(json: &str) -> ApiError {
        let err = serde_json::from_str::<Body>(json).unwrap_err();
        from_serde_json(&err)
    }

    #[test]
    fn json_syntax_errors_are_400_and_shape_errors_name_the_field() {
        assert!(matches!(
            classify("{\"username\": "),
            ApiError::MalformedJson(_)
        ));
        assert!(matches!(classify("not json"), ApiError::MalformedJson(_)));

        let ApiError::Validation(errors) = classify("{}") else {
            panic!("expected a validation error")
        };
        assert_eq!(errors[0].field, "username");

        let ApiError::Validation(errors) = classify(r#"{"username": "a", "extra": 1}"#) else {
            panic!("expected a validation error")
        };
        assert_eq!(errors[0].field, "extra");

        let ApiError::Validation(errors) = classify(r#"{"username": 5}"#) else {
            panic!("expected a validation error")
        };
        assert_eq!(errors[0].field, "body");
    }

    #[test]
    fn problems_carry_code_type_and_status() {
        let err = ApiError::invalid_field("username", "too short");
        assert_eq!(err.status_code(), StatusCode::UNPROCESSABLE_ENTITY);
        let p = err.problem();
        assert_eq!(p.code, "validation_failed");
        assert_eq!(p.problem_type, "urn:yaniv:problem:validation_failed");
        assert_eq!(p.status, 422);
        assert_eq!(p.errors, vec![FieldError::new("username", "too short")]);
    }

    #[test]
    fn internal_errors_are_opaque() {
        let err = ApiError::unexpected("testing", std::io::Error::other("secret table name"));
        let p = err.problem();
        assert_eq!(p.status, 500);
        assert_eq!(p.code, "internal_error");
        assert!(!p.detail.contains("secret"));
    }

    #[test]
    fn path_and_query_errors_are_400_problems() {
        use serde::de::Error as _;
        let req = actix_web::test::TestRequest::default().to_http_request();
        let err = path_error(
            PathError::Deserialize(serde::de::value::Error::custom("invalid digit")),
            &req,
        );
        let response = err.error_response();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        assert_eq!(
            response.headers().get(header::CONTENT_TYPE).unwrap(),
            PROBLEM_JSON
        );

        let err = query_error(
            QueryPayloadError::Deserialize(serde::de::value::Error::custom("missing field")),
            &req,
        );
        assert_eq!(err.error_response().status(), StatusCode::BAD_REQUEST);
    }

    #[test]
    fn every_status_has_a_generic_problem() {
        for s in [400, 404, 405, 413, 431, 500, 502, 503] {
            let status = StatusCode::from_u16(s).unwrap();
            let p = Problem::for_status(status);
            assert_eq!(p.status, s);
            assert!(!p.code.is_empty());
        }
    }
}
