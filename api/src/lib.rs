//! The Yaniv championship server.
//!
//! # A tour of the crate
//!
//! The modules are layers: each imports only from the layers below it (a test,
//! `tests/tests/imports.rs`, fails on any import that points back up). From the top:
//!
//! - [`startup`]: connects to PostgreSQL, applies `migrations/`, creates the
//!   bootstrap admin, and builds the actix-web app: middleware, limits, extractor
//!   error handlers, routes, docs. [`startup::Application`] is what `main` and the
//!   end-to-end tests run. [`config`] reads [`config::Settings`] once from environment
//!   variables (the table of variables is there); [`telemetry`] sets up the logs.
//!   [`memory`] fixes glibc's allocator threshold before the server starts.
//!   [`shutdown`] is the graceful stop SIGTERM runs: drain, close the door, answer
//!   every accepted request, then stop every worker together.
//! - [`http`]: the edge, and the only layer that speaks HTTP. Its middleware (request
//!   ids, CORS, security headers, body deadlines, request metrics), the extractors that
//!   authenticate a caller, the JSON API ([`http::routes`], one module per resource and
//!   one file per action, registered with their OpenAPI operations from one list), the
//!   HTML pages for people ([`http::pages`]), the OpenAPI document ([`http::openapi`]),
//!   the live streams ([`http::push`]) and the `Idempotency-Key` header.
//! - [`background`]: what each instance does beside answering requests: the turn
//!   clocks, the checkpoint task, pruning.
//! - [`audit`]: verification on the server: reads what is stored and hands it to the
//!   checks of `yaniv-verify`; the championship archive.
//! - [`visibility`]: every read of a table goes through it: the caller's relation to
//!   the table (seat, referee, official who plays, operator, anyone else) decided by
//!   the domain's one policy, and stored streams cut before their secrets in play.
//! - [`app_state`]: [`app_state::AppState`], what every handler and task shares: the
//!   pool, the event store, the password service, the record replayer, and one
//!   repository per kind of stream.
//! - [`tables`] and [`tournaments`]: the two kinds of stream, each a
//!   [`streams::StreamKind`] with its listing row, and their writes: a table's command
//!   ([`tables::write`]), a tournament's command, door list, draw, no-show and online
//!   game (one file each in [`tournaments`]), all decided by the rules engine's
//!   `Aggregate::execute` inside the repository's transaction, with what they answer.
//!   [`tournaments::game_end`] records an online game's result in its tournament.
//! - [`ratings`]: the rating list across rated tournaments, folded from their events
//!   by the rules engine's `ratings` and refolded when a result lands.
//! - [`checkpoints`], [`replayer`] (game records replayed through the rules off the
//!   executor, bounded), [`auth`] (accounts, argon2id passwords, opaque bearer tokens
//!   stored as SHA-256, roles, set-up codes, the session cache), [`live`] (the hub
//!   that wakes subscribers when a stream moves, on every instance), [`metrics`]
//!   (what the server counts), [`replica`] (the public reads that tolerate lag, sent
//!   to a streaming replica while it is within its bound, and that lag measured).
//! - [`streams`]: one repository for every kind of stream
//!   ([`streams::Repository`]): load (through a per-process fold cache that is never
//!   the truth), decide, append with optimistic concurrency and bounded retries,
//!   `Idempotency-Key`, `If-Match`. A write answers with [`streams::Written`]: its
//!   answer and what it did, never an HTTP response. `docs/architecture.md` walks a
//!   move through it.
//! - [`store`]: the event store. Append-only `events` table with per-stream
//!   versions (optimistic concurrency), a per-stream SHA-256 hash chain (its encoding
//!   and its check are `yaniv-verify`'s), reading a stream or following the global log
//!   behind the xid8 read fence, and idempotency records. It is generic (stream id,
//!   event type, JSON payload): the rules engine (`yaniv-domain`) decides what to
//!   append.
//! - [`error`]: [`error::ApiError`], the one error type, and how every error becomes
//!   an RFC 9457 problem document with a stable `code`. A refusal says why in
//!   [`error::Reason`]; the status follows from it at the edge.
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
pub mod memory;
pub mod metrics;
pub mod problem_codes;
pub mod ratings;
pub mod replayer;
pub mod replica;
pub mod seasons;
pub mod shutdown;
pub mod startup;
pub mod store;
pub mod streams;
pub mod tables;
pub mod telemetry;
pub mod tournaments;
pub mod visibility;
