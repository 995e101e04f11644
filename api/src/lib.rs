//! The Yaniv championship server.
//!
//! # A tour of the crate
//!
//! A request goes through these modules, roughly in this order:
//!
//! - [`config`]: [`config::Settings`], read once from environment variables
//!   (the table of variables is there).
//! - [`startup`]: connects to PostgreSQL, applies `migrations/`, creates the
//!   bootstrap admin, and builds the actix-web app: middleware, limits, extractor
//!   error handlers, routes, docs. [`startup::Application`] is what `main` and the
//!   end-to-end tests run.
//! - [`request_id`]: the outermost middleware; one id per request (taken from
//!   `X-Request-Id` or made up), one tracing span per request, one log line when it
//!   finishes. [`telemetry`] sets up the logs (text or JSON).
//! - [`routes`]: one module per resource (`health`, `accounts`, `sessions`,
//!   `tables` with one file per action, `tournaments`, ...), each with a `configure`
//!   function; the app is built from a list of them.
//!   `records` replays a game record (`POST /v1/records/replay`) through the rules
//!   engine on the blocking pool, stateless and without authentication.
//! - [`auth`]: passwords (argon2id off the executor, bounded), opaque bearer
//!   tokens stored as SHA-256, the [`auth::Authenticated`] extractor and role
//!   checks, and the account tables.
//! - [`store`]: the event store. Append-only `events` table with per-stream
//!   versions (optimistic concurrency), a per-stream SHA-256 hash chain and its
//!   verification, reading a stream or following the global log behind the xid8
//!   read fence, and idempotency records. It is generic (stream id, event type,
//!   JSON payload): the rules engine (`yaniv-domain`) decides what to append.
//! - [`tables`]: online game tables. Each table is one event stream (its
//!   lifecycle, then the rules engine's game events), folded on every request;
//!   deals from fresh secret seeds, bot seats, redaction per viewer, audits and
//!   verification (hash chain + replay through the rules).
//! - [`tournaments`]: championship tournaments. Each tournament is one event
//!   stream of the rules engine's tournament events, folded on every request;
//!   commands are the domain's JSON, decided with the caller as actor, and its
//!   refusals become problem documents (403 / 409 / 422) with the domain's codes.
//! - [`idempotency`]: the HTTP side of `Idempotency-Key` on top of
//!   [`store::idempotency`].
//! - [`error`]: [`error::ApiError`], the one error type handlers return, and how
//!   every error becomes an RFC 9457 problem document with a stable `code`.
//! - [`openapi`]: the OpenAPI 3.1 document (served at `/openapi.json`, Swagger UI
//!   at `/docs/`), checked in as `openapi/openapi.json`.
//!
//! The binary (`src/main.rs`, `yaniv-server`) only parses its command line
//! (`serve`, `create-admin`, `openapi`) and calls into these modules.

#![deny(clippy::unwrap_used)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod app_state;
pub mod auth;
pub mod config;
pub mod error;
pub mod fold_cache;
pub mod idempotency;
pub mod openapi;
pub mod request_id;
pub mod routes;
pub mod startup;
pub mod store;
pub mod stream_command;
pub mod streams;
pub mod tables;
pub mod telemetry;
pub mod tournaments;
