//! One-time set-up codes: how a player whose account an organizer created (the bulk
//! registration of a club's list) chooses their own password.
//!
//! - A code is 12 symbols of Crockford's base32 (60 random bits), shown as three groups
//!   of four (`K7QM-3XWP-9ZTR`) so it can be read out or printed at the door. Reading
//!   it back forgives case, dashes, spaces and the look-alikes Crockford allows
//!   (`O` for `0`, `I` and `L` for `1`).
//! - It is shown once, in the answer that issued it; only its SHA-256 is stored, with
//!   an expiry ([`CODE_TTL`]). A new code for the same account replaces the old one.
//! - Until the code is used the account cannot log in: its password hash is
//!   [`PENDING_SETUP`], which no password matches (`password.rs`).
//! - Using it sets the password and deletes the code, in one transaction.

use secrecy::{ExposeSecret, SecretString};
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgPool};
use time::{Duration, OffsetDateTime};

/// The stored password hash of an account whose player has not chosen a password yet.
/// Not a PHC string, so it can never verify.
pub const PENDING_SETUP: &str = "!pending-setup";

/// How long a code stays usable.
pub const CODE_TTL: Duration = Duration::days(30);

const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const SYMBOLS: usize = 12;

/// A freshly issued code. `Debug` does not show it.
#[derive(Debug)]
pub struct SetupCode {
    /// As shown to the player: `XXXX-XXXX-XXXX`.
    pub code: SecretString,
    /// What the server stores.
    pub hash: [u8; 32],
}

/// Makes a new code from the OS random generator.
pub fn issue() -> Result<SetupCode, getrandom::Error> {
    let mut bytes = [0u8; SYMBOLS];
    getrandom::fill(&mut bytes)?;
    // 256 is a multiple of 32: taking each byte modulo 32 is uniform.
    let symbols: String = bytes
        .iter()
        .map(|b| ALPHABET[usize::from(b % 32)] as char)
        .collect();
    let shown = format!("{}-{}-{}", &symbols[0..4], &symbols[4..8], &symbols[8..12]);
    Ok(SetupCode {
        hash: hash(&symbols),
        code: SecretString::from(shown),
    })
}

/// The canonical symbols of a code as a person typed it, or `None` when it cannot be
/// one of ours.
pub fn normalize(typed: &str) -> Option<String> {
    let mut symbols = String::with_capacity(SYMBOLS);
    for c in typed.chars() {
        let c = match c.to_ascii_uppercase() {
            '-' | ' ' => continue,
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        };
        if !c.is_ascii() || !ALPHABET.contains(&(c as u8)) || symbols.len() == SYMBOLS {
            return None;
        }
        symbols.push(c);
    }
    (symbols.len() == SYMBOLS).then_some(symbols)
}

/// The stored form of a code's canonical symbols.
pub fn hash(symbols: &str) -> [u8; 32] {
    Sha256::digest(symbols.as_bytes()).into()
}

impl SetupCode {
    pub fn expose(&self) -> &str {
        self.code.expose_secret()
    }
}

/// Who hands out a code, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Issue {
    /// The account handing it out.
    pub by: i64,
    /// The tournament whose organizer hands it out (an admin may name none).
    pub tournament: Option<i64>,
    /// A new code for an account that had one: the old one stops working.
    pub reissue: bool,
}

/// Stores `code` for `account` (replacing any earlier one) in the caller's
/// transaction, and records who handed it out (`account_setup_code_issues`); returns
/// when it expires.
pub async fn store(
    conn: &mut PgConnection,
    account: i64,
    code: &SetupCode,
    issue: Issue,
) -> Result<OffsetDateTime, sqlx::Error> {
    sqlx::query(
        "INSERT INTO account_setup_code_issues (account_id, issued_by, tournament_id, reissue) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(account)
    .bind(issue.by)
    .bind(issue.tournament)
    .bind(issue.reissue)
    .execute(&mut *conn)
    .await?;
    let issued_by = issue.by;
    let expires_at = OffsetDateTime::now_utc() + CODE_TTL;
    sqlx::query(
        "INSERT INTO account_setup_codes (account_id, code_hash, issued_by, expires_at) \
         VALUES ($1, $2, $3, $4) \
         ON CONFLICT (account_id) DO UPDATE SET code_hash = EXCLUDED.code_hash, \
         issued_by = EXCLUDED.issued_by, issued_at = now(), expires_at = EXCLUDED.expires_at",
    )
    .bind(account)
    .bind(&code.hash[..])
    .bind(issued_by)
    .bind(expires_at)
    .execute(conn)
    .await?;
    Ok(expires_at)
}

/// Uses the code whose hash is `code_hash` on the account named `username` (any
/// case): sets the password hash `make_hash` gives and deletes the code. `None` when
/// no such unexpired code exists for that name (nothing changes then).
pub async fn redeem<F, Fut, E>(
    pool: &PgPool,
    username: &str,
    code_hash: &[u8; 32],
    make_hash: F,
) -> Result<Option<i64>, E>
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = Result<String, E>>,
    E: From<sqlx::Error>,
{
    let mut tx = pool.begin().await?;
    let account: Option<i64> = sqlx::query_scalar(
        "SELECT c.account_id FROM account_setup_codes c JOIN accounts a ON a.id = c.account_id \
         WHERE lower(a.username) = lower($1) AND c.code_hash = $2 AND c.expires_at > now() \
         FOR UPDATE OF c",
    )
    .bind(username)
    .bind(&code_hash[..])
    .fetch_optional(&mut *tx)
    .await?;
    let Some(account) = account else {
        return Ok(None);
    };
    let password_hash = make_hash().await?;
    sqlx::query("UPDATE accounts SET password_hash = $2 WHERE id = $1")
        .bind(account)
        .bind(password_hash)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM account_setup_codes WHERE account_id = $1")
        .bind(account)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Some(account))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_three_groups_of_four_and_read_back_forgivingly() {
        let issued = issue().expect("OS random");
        let shown = issued.expose();
        assert_eq!(shown.len(), 14);
        assert_eq!(shown.matches('-').count(), 2);
        let symbols = normalize(shown).expect("our own code");
        assert_eq!(hash(&symbols), issued.hash);
        let typed = shown.to_lowercase().replace('-', " ");
        assert_eq!(normalize(&typed).as_deref(), Some(symbols.as_str()));
        assert!(!format!("{issued:?}").contains(shown));
    }

    #[test]
    fn look_alikes_read_as_crockford_says_and_anything_else_is_refused() {
        assert_eq!(normalize("o0il-1111-2222").as_deref(), Some("001111112222"));
        assert_eq!(normalize("ABCD-EFGH-JKMU"), None, "U is not a symbol");
        assert_eq!(normalize("ABCD-EFGH-JKM"), None, "too short");
        assert_eq!(normalize("ABCD-EFGH-JKMNP"), None, "too long");
        assert_eq!(normalize("ABCD-EFGH-JKMÑ"), None);
    }

    #[test]
    fn two_codes_differ() {
        let a = issue().expect("OS random");
        let b = issue().expect("OS random");
        assert_ne!(a.hash, b.hash);
    }
}
