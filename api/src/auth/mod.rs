//! Accounts, passwords, bearer tokens and roles.
//!
//! - [`password`]: argon2id hashing off the async executor, bounded by a semaphore.
//! - [`token`]: opaque bearer tokens (32 random bytes, base64url); only their
//!   SHA-256 is stored.
//! - [`accounts`]: the `accounts`, `account_roles` and `sessions` tables. Accounts
//!   are ordinary rows, not events (see `migrations/0002_accounts.sql` for why).
//! - [`role`]: [`Role`], what an account may do.
//! - [`setup_code`]: one-time codes with which a player sets the password of an
//!   account an organizer created for them.
//! - [`devices`]: the devices an account logged in from, which the log-in throttle
//!   judges apart from everyone else.
//! - [`throttle`]: wrong passwords and set-up codes slow their client down; accounts
//!   are created at a bounded pace per address.
//! - [`session_cache`]: the sessions this instance has checked, dropped on every
//!   instance when a session is revoked or an account's roles change.
//!
//! The extractors that authenticate a request are `crate::http::auth`'s: this module
//! knows nothing of HTTP.

pub mod accounts;
pub mod devices;
pub mod password;
pub mod role;
pub mod session_cache;
pub mod setup_code;
pub mod throttle;
pub mod token;

pub use self::role::Role;
