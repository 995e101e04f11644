//! End-to-end tests: the real server, in-process, each test on a fresh database.
//! Run them with `./deploy/test.sh` (it provides DATABASE_URL).
//!
//! One test binary with one module per area (compiling and linking one binary is
//! much faster than one per file).

mod abuse;
mod accounts;
mod archive;
mod archive_completeness;
mod championship;
mod clocks;
mod contract;
mod database_link;
mod errors;
mod generated_client;
mod generated_ts_client;
mod hardening;
mod health;
mod http_limits;
mod idempotency;
mod least_privilege;
mod live_announcements;
mod live_streams;
mod load_smoke;
mod metrics;
mod one_statement_writes;
mod openapi_lint;
mod operations;
mod pages_day;
mod pages_desk;
mod pages_languages;
mod pages_play;
mod pages_play_join;
mod pages_print;
mod pages_public;
mod pages_ratings;
mod pages_record;
mod pages_replay;
mod pages_venue;
mod player_entropy;
mod pruning;
mod ratings;
mod readme;
mod records;
mod records_steps;
mod replica_reads;
mod rules_random;
mod session_revocation;
mod store;
mod stored_streams;
mod tables_audit;
mod tables_audit_referee;
mod tables_concurrency;
mod tables_errors;
mod tables_games;
mod tables_hidden;
mod tables_lifecycle;
mod tournaments;
mod tournaments_door;
mod tournaments_online;
mod tournaments_players;
mod tournaments_read;
mod tournaments_views;
mod trust;
mod trust_property;
mod verification;
mod verification_vectors;
