//! End-to-end tests: the real server, in-process, each test on a fresh database.
//! Run them with `./deploy/test.sh` (it provides DATABASE_URL).
//!
//! One test binary with one module per area (compiling and linking one binary is
//! much faster than one per file).

mod accounts;
mod errors;
mod health;
mod idempotency;
mod store;
