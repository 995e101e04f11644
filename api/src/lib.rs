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
//! - [`cors`]: cross-origin calls from the browser pages of the allowed origins.
//! - [`response_headers`]: security headers on every answer, `304` on `If-None-Match`.
//! - [`body_timeout`]: a request body must arrive in time, or `408`.
//! - [`routes`]: one module per resource (`health`, `accounts`, `sessions`, `records`,
//!   `tables` and `tournaments` with one file per action). Each handler parses its
//!   request into the rules engine's command, calls a repository and builds the
//!   answer. One list (`routes/mod.rs`) registers every route and its OpenAPI
//!   operation; `routes/problems.rs` documents the refusals from the engine's catalogues.
//! - [`pages`]: the HTML pages for people (`/`, `/t/{id}/...`), reading through the
//!   same code as the API.
//! - [`app_state`]: [`app_state::AppState`], what every handler shares: the pool, the
//!   event store, the password service, the record replayer, and one repository per
//!   kind of stream.
//! - [`records`]: game records replayed through the rules off the executor, bounded.
//! - [`auth`]: passwords (argon2id off the executor, bounded), opaque bearer
//!   tokens stored as SHA-256, the [`auth::Authenticated`] extractor and role
//!   checks, and the account tables.
//! - [`store`]: the event store. Append-only `events` table with per-stream
//!   versions (optimistic concurrency), a per-stream SHA-256 hash chain (its encoding
//!   and its check are `yaniv-verify`'s), reading a stream or following the global log
//!   behind the xid8 read fence, and idempotency records. It is generic (stream id, event type,
//!   JSON payload): the rules engine (`yaniv-domain`) decides what to append.
//! - [`streams`]: one repository for every kind of stream
//!   ([`streams::Repository`]): load (through a per-process fold cache that is never
//!   the truth), decide with the rules engine's `Aggregate`, append with optimistic
//!   concurrency and bounded retries, `Idempotency-Key`, `If-Match`. What differs per
//!   kind is a [`streams::StreamKind`]. `docs/architecture.md` walks a request through it.
//! - [`tables`]: online game tables as a stream kind: the listing projection, the OS
//!   randomness the engine's table draws from, what a verification reads of a table
//!   (the checks themselves are `yaniv-verify`'s), and [`tables::GameEndHook`].
//! - [`archive`]: a tournament and its games in one file (`yaniv-archive/1`), built
//!   from the store; `yaniv verify` checks it offline with `yaniv-verify` alone.
//! - [`tournaments`]: championship tournaments as a stream kind: the row lock, the
//!   server's draw seeds and their commitments, online tables for draws, the hook that
//!   records an online game's result, verification.
//! - [`visibility`]: every read of a table goes through it: the caller's relation to
//!   the table (seat, referee, official who plays, operator, anyone else) decided by
//!   the domain's one policy, and stored streams cut before their secrets in play.
//! - [`live`]: live streams (`/stream`): the hub that wakes subscribers when the
//!   database notifies that a stream moved, on every instance, and the wire formats.
//! - [`clocks`]: the background task that fires the timeouts of tables whose clock
//!   ran out, once across every instance.
//! - [`metrics`]: `GET /metrics` in the Prometheus text format, and the middleware that
//!   counts requests by route.
//! - [`pruning`]: the background task that deletes expired sessions and old
//!   idempotency records.
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
pub mod audit;
pub mod auth;
pub mod background;
pub mod checkpoints;
pub mod config;
pub mod error;
pub mod http;
pub mod live;
pub mod metrics;
pub mod replayer;
pub mod startup;
pub mod store;
pub mod streams;
pub mod tables;
pub mod telemetry;
pub mod tournaments;
pub mod visibility;
