//! Devices an account has logged in from (`login_devices`, migration 0019).
//!
//! A successful log-in hands the client a device token (an opaque token like a bearer
//! token, see [`super::token`]); the client presents it at its next log-in. A
//! presented token that belongs to the account named makes the attempt a known
//! device's, which the log-in throttle judges by that device's own failures only
//! (`super::throttle`). Only the token's SHA-256 is stored; the most recent
//! [`KEPT_PER_ACCOUNT`] per account are kept.

use sqlx::PgPool;

use super::token;

/// Devices remembered per account; logging in from one more forgets the oldest.
pub const KEPT_PER_ACCOUNT: i64 = 20;

/// The hash of a presented device token, when it has the shape of one.
pub fn presented(device_token: Option<&str>) -> Option<[u8; 32]> {
    device_token
        .filter(|t| token::looks_valid(t))
        .map(token::hash)
}

/// Whether `hash` is a device of the account named `username` (any case).
pub async fn belongs_to(
    pool: &PgPool,
    hash: &[u8; 32],
    username: &str,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM login_devices d JOIN accounts a ON a.id = d.account_id \
         WHERE d.token_hash = $1 AND lower(a.username) = lower($2))",
    )
    .bind(hash.as_slice())
    .bind(username)
    .fetch_one(pool)
    .await
}

/// Records that `account_id` logged in from the device `hash` now: a known device is
/// touched, a new one is kept and the account's oldest beyond the limit are dropped.
pub async fn remember(pool: &PgPool, account_id: i64, hash: &[u8; 32]) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    sqlx::query(
        "INSERT INTO login_devices (token_hash, account_id) VALUES ($1, $2) \
         ON CONFLICT (token_hash) DO UPDATE SET last_used_at = now() \
         WHERE login_devices.account_id = EXCLUDED.account_id",
    )
    .bind(hash.as_slice())
    .bind(account_id)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "DELETE FROM login_devices WHERE account_id = $1 AND token_hash NOT IN \
         (SELECT token_hash FROM login_devices WHERE account_id = $1 \
          ORDER BY last_used_at DESC, created_at DESC LIMIT $2)",
    )
    .bind(account_id)
    .bind(KEPT_PER_ACCOUNT)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}
