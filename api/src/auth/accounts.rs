//! The account tables: accounts, their roles, and their sessions (bearer tokens).
//!
//! Accounts are ordinary rows, not events: they are not part of the auditable game
//! history, and role grants and session expiry are in-place updates. Events record
//! their actor as `account:<id>`, so history stays attributable.

use secrecy::SecretString;
use sqlx::PgPool;
use time::OffsetDateTime;

use super::password::{PasswordError, PasswordService};
use super::role::Role;

/// An account as the API sees it (never with its password hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: i64,
    pub username: String,
    /// Sorted, without duplicates.
    pub roles: Vec<Role>,
    pub created_at: OffsetDateTime,
}

impl Account {
    /// Whether the account has `role`; admins have every role.
    pub fn has_role(&self, role: Role) -> bool {
        self.roles.contains(&role) || self.roles.contains(&Role::Admin)
    }

    /// The actor string recorded in event metadata: `system` for the server itself.
    pub fn actor(&self) -> String {
        if self.id == Self::SYSTEM_ID {
            "system".into()
        } else {
            format!("account:{}", self.id)
        }
    }

    /// The id of [`Account::system`]; accounts in the database start at 1.
    pub const SYSTEM_ID: i64 = 0;

    /// The server itself, as the sender of its own commands (a clock's timeout). It
    /// is never stored and holds no role: it can do nothing a request could.
    pub fn system() -> Account {
        Account {
            id: Self::SYSTEM_ID,
            username: "system".into(),
            roles: Vec::new(),
            created_at: OffsetDateTime::UNIX_EPOCH,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("username taken")]
    UsernameTaken,
    #[error("unknown role `{0}` stored in account_roles")]
    UnknownRole(String),
    #[error("database error on accounts")]
    Database(#[from] sqlx::Error),
}

impl From<AccountError> for crate::error::ApiError {
    fn from(err: AccountError) -> Self {
        match err {
            AccountError::UsernameTaken => Self::UsernameTaken,
            AccountError::Database(e) => e.into(),
            other => Self::unexpected("reading an account", other),
        }
    }
}

/// Usernames: 3 to 32 ASCII letters, digits, `_`, `.` or `-`; unique in any case.
pub fn validate_username(username: &str) -> Result<(), &'static str> {
    if !(3..=32).contains(&username.len()) {
        return Err("must be 3 to 32 characters");
    }
    if !username
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
    {
        return Err("may contain only ASCII letters, digits, `_`, `.` and `-`");
    }
    Ok(())
}

/// Passwords that a guesser tries first: the most common ones of leaked password lists,
/// compared without case. Anything built from one repeated character, or equal to the
/// username, is refused by [`validate_password`] on top of these.
const COMMON_PASSWORDS: &[&str] = &[
    "password",
    "password1",
    "password12",
    "password123",
    "passw0rd",
    "p@ssw0rd",
    "p@ssword",
    "12345678",
    "123456789",
    "1234567890",
    "0123456789",
    "87654321",
    "12341234",
    "11223344",
    "12121212",
    "123123123",
    "qwertyui",
    "qwertyuiop",
    "qwerty123",
    "qwerty12",
    "1qaz2wsx",
    "1q2w3e4r",
    "1q2w3e4r5t",
    "zaq12wsx",
    "asdfghjk",
    "asdfghjkl",
    "zxcvbnm1",
    "abcd1234",
    "abc12345",
    "abcdefgh",
    "iloveyou",
    "iloveyou1",
    "letmein1",
    "letmein!",
    "welcome1",
    "welcome123",
    "sunshine",
    "princess",
    "football",
    "baseball",
    "basketball",
    "superman",
    "starwars",
    "trustno1",
    "whatever",
    "dragon12",
    "monkey12",
    "master12",
    "admin123",
    "administrator",
    "changeme",
    "default1",
    "computer",
    "internet",
    "yaniv123",
    "yanivyaniv",
    "assaf123",
];

/// Passwords: 8 to 128 characters, not a common one, not one character repeated, not
/// the username.
pub fn validate_password(password: &str, username: &str) -> Result<(), &'static str> {
    let len = password.chars().count();
    if len < 8 {
        return Err("must be at least 8 characters");
    }
    if len > 128 {
        return Err("must be at most 128 characters");
    }
    let mut chars = password.chars();
    let first = chars.next();
    if chars.all(|c| Some(c) == first) {
        return Err("must not be one character repeated");
    }
    if password.trim().eq_ignore_ascii_case(username.trim()) {
        return Err("must not be the username");
    }
    let lowered = password.trim().to_lowercase();
    if COMMON_PASSWORDS.contains(&lowered.as_str()) {
        return Err("is one of the passwords guessed first: choose another");
    }
    Ok(())
}

/// Columns for [`AccountRow`]; a macro so queries stay `&'static str`.
macro_rules! select_account {
    () => {
        "SELECT a.id, a.username, a.created_at, \
                COALESCE(array_agg(r.role) FILTER (WHERE r.role IS NOT NULL), '{}') AS roles \
         FROM accounts a LEFT JOIN account_roles r ON r.account_id = a.id "
    };
}

#[derive(sqlx::FromRow)]
struct AccountRow {
    id: i64,
    username: String,
    created_at: OffsetDateTime,
    roles: Vec<String>,
}

impl TryFrom<AccountRow> for Account {
    type Error = AccountError;
    fn try_from(row: AccountRow) -> Result<Self, AccountError> {
        let mut roles = row
            .roles
            .iter()
            .map(|r| Role::parse(r).ok_or_else(|| AccountError::UnknownRole(r.clone())))
            .collect::<Result<Vec<_>, _>>()?;
        roles.sort_unstable();
        roles.dedup();
        Ok(Account {
            id: row.id,
            username: row.username,
            roles,
            created_at: row.created_at,
        })
    }
}

/// Creates an account with `roles`. A username taken in any case is
/// [`AccountError::UsernameTaken`].
pub async fn create(
    pool: &PgPool,
    username: &str,
    password_hash: &str,
    roles: &[Role],
    granted_by: Option<i64>,
) -> Result<Account, AccountError> {
    let mut tx = pool.begin().await?;
    let inserted: Result<i64, sqlx::Error> = sqlx::query_scalar(
        "INSERT INTO accounts (username, password_hash) VALUES ($1, $2) RETURNING id",
    )
    .bind(username)
    .bind(password_hash)
    .fetch_one(&mut *tx)
    .await;
    let id = match inserted {
        Ok(id) => id,
        Err(sqlx::Error::Database(db)) if db.is_unique_violation() => {
            return Err(AccountError::UsernameTaken);
        }
        Err(e) => return Err(e.into()),
    };
    insert_roles(&mut tx, id, roles, granted_by).await?;
    tx.commit().await?;
    by_id(pool, id)
        .await?
        .ok_or(AccountError::Database(sqlx::Error::RowNotFound))
}

/// An account as a bulk registration finds it: its id, its name as stored, whether its
/// player has yet to choose a password (`setup_code.rs`), and the tournament whose door
/// list created it, if one did.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Listed {
    pub id: i64,
    pub username: String,
    pub pending_setup: bool,
    pub created_for_tournament: Option<i64>,
}

/// The account named `username` (any case), in the caller's transaction.
pub async fn listed(
    conn: &mut sqlx::PgConnection,
    username: &str,
) -> Result<Option<Listed>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, username, password_hash = $2 AS pending_setup, created_for_tournament \
         FROM accounts WHERE lower(username) = lower($1)",
    )
    .bind(username)
    .bind(super::setup_code::PENDING_SETUP)
    .fetch_optional(conn)
    .await
}

/// Account `id` as [`listed`] gives it, locked for the caller's transaction.
pub async fn listed_by_id(
    conn: &mut sqlx::PgConnection,
    id: i64,
) -> Result<Option<Listed>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, username, password_hash = $2 AS pending_setup, created_for_tournament \
         FROM accounts WHERE id = $1 FOR UPDATE",
    )
    .bind(id)
    .bind(super::setup_code::PENDING_SETUP)
    .fetch_optional(conn)
    .await
}

/// Creates, in the caller's transaction, a `player` account whose player will choose
/// the password with a set-up code, for tournament `tournament`'s door list (whose
/// organizer alone may later hand out a new code). A username taken in any case is
/// [`AccountError::UsernameTaken`].
pub async fn create_pending(
    conn: &mut sqlx::PgConnection,
    username: &str,
    granted_by: i64,
    tournament: i64,
) -> Result<i64, AccountError> {
    let inserted: Result<i64, sqlx::Error> = sqlx::query_scalar(
        "INSERT INTO accounts (username, password_hash, created_for_tournament) \
         VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(username)
    .bind(super::setup_code::PENDING_SETUP)
    .bind(tournament)
    .fetch_one(&mut *conn)
    .await;
    let id = match inserted {
        Ok(id) => id,
        Err(sqlx::Error::Database(db)) if db.is_unique_violation() => {
            return Err(AccountError::UsernameTaken);
        }
        Err(e) => return Err(e.into()),
    };
    insert_roles(conn, id, &[Role::Player], Some(granted_by)).await?;
    Ok(id)
}

async fn insert_roles(
    conn: &mut sqlx::PgConnection,
    account_id: i64,
    roles: &[Role],
    granted_by: Option<i64>,
) -> Result<(), sqlx::Error> {
    let mut names: Vec<&str> = roles.iter().map(|r| r.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    sqlx::query(
        "INSERT INTO account_roles (account_id, role, granted_by) \
         SELECT $1, role, $3 FROM UNNEST($2::text[]) AS role",
    )
    .bind(account_id)
    .bind(&names)
    .bind(granted_by)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn by_id<'e>(
    executor: impl sqlx::PgExecutor<'e>,
    id: i64,
) -> Result<Option<Account>, AccountError> {
    sqlx::query_as::<_, AccountRow>(concat!(select_account!(), "WHERE a.id = $1 GROUP BY a.id"))
        .bind(id)
        .fetch_optional(executor)
        .await?
        .map(Account::try_from)
        .transpose()
}

pub async fn by_username(pool: &PgPool, username: &str) -> Result<Option<Account>, AccountError> {
    sqlx::query_as::<_, AccountRow>(concat!(
        select_account!(),
        "WHERE lower(a.username) = lower($1) GROUP BY a.id"
    ))
    .bind(username)
    .fetch_optional(pool)
    .await?
    .map(Account::try_from)
    .transpose()
}

/// Up to `limit` accounts whose username starts with `prefix` (any case), in the byte
/// order of their lowercased names (the same on every database, whatever its collation).
pub async fn with_prefix(
    pool: &PgPool,
    prefix: &str,
    limit: i64,
) -> Result<Vec<Account>, AccountError> {
    // `_` is a username character and a LIKE wildcard: escape what LIKE would read.
    let pattern = prefix
        .to_lowercase()
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    sqlx::query_as::<_, AccountRow>(concat!(
        select_account!(),
        "WHERE lower(a.username) LIKE $1 || '%' GROUP BY a.id ORDER BY lower(a.username) COLLATE \"C\" LIMIT $2"
    ))
    .bind(pattern)
    .bind(limit)
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(Account::try_from)
    .collect()
}

/// The id and password hash of the account named `username` (any case).
pub async fn credentials(
    pool: &PgPool,
    username: &str,
) -> Result<Option<(i64, String)>, sqlx::Error> {
    sqlx::query_as("SELECT id, password_hash FROM accounts WHERE lower(username) = lower($1)")
        .bind(username)
        .fetch_optional(pool)
        .await
}

/// Replaces the roles of account `id`; `None` when there is no such account.
pub async fn set_roles(
    pool: &PgPool,
    id: i64,
    roles: &[Role],
    granted_by: i64,
) -> Result<Option<Account>, AccountError> {
    let mut tx = pool.begin().await?;
    // Lock the account so concurrent grants apply one after the other.
    let exists: Option<i64> =
        sqlx::query_scalar("SELECT id FROM accounts WHERE id = $1 FOR UPDATE")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    if exists.is_none() {
        return Ok(None);
    }
    let mut names: Vec<&str> = roles.iter().map(|r| r.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    // Keep the original grant of roles the account keeps; drop the others.
    sqlx::query("DELETE FROM account_roles WHERE account_id = $1 AND NOT (role = ANY($2::text[]))")
        .bind(id)
        .bind(&names)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO account_roles (account_id, role, granted_by) \
         SELECT $1, wanted.role, $3 FROM UNNEST($2::text[]) AS wanted(role) \
         WHERE NOT EXISTS (SELECT 1 FROM account_roles held \
                           WHERE held.account_id = $1 AND held.role = wanted.role)",
    )
    .bind(id)
    .bind(&names)
    .bind(granted_by)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    by_id(pool, id).await
}

/// Records a session for `token_hash`, valid for `ttl`; returns its expiry. Expired
/// sessions of the account are deleted on the way.
pub async fn create_session(
    pool: &PgPool,
    account_id: i64,
    token_hash: &[u8; 32],
    ttl: std::time::Duration,
) -> Result<OffsetDateTime, sqlx::Error> {
    let mut tx = pool.begin().await?;
    sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND expires_at <= now()")
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
    let ttl_secs = i64::try_from(ttl.as_secs()).unwrap_or(i64::MAX);
    let expires_at: OffsetDateTime = sqlx::query_scalar(
        "INSERT INTO sessions (token_hash, account_id, expires_at) \
         VALUES ($1, $2, now() + make_interval(secs => $3)) RETURNING expires_at",
    )
    .bind(token_hash)
    .bind(account_id)
    .bind(ttl_secs as f64)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(expires_at)
}

/// Revokes the session of `token_hash`; whether there was one.
pub async fn delete_session(pool: &PgPool, token_hash: &[u8; 32]) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(pool)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// The account of an unexpired session, with the session's expiry.
pub async fn session(
    pool: &PgPool,
    token_hash: &[u8; 32],
) -> Result<Option<(Account, OffsetDateTime)>, AccountError> {
    #[derive(sqlx::FromRow)]
    struct SessionRow {
        #[sqlx(flatten)]
        account: AccountRow,
        expires_at: OffsetDateTime,
    }
    sqlx::query_as::<_, SessionRow>(
        "SELECT a.id, a.username, a.created_at, \
                COALESCE(array_agg(r.role) FILTER (WHERE r.role IS NOT NULL), '{}') AS roles, \
                s.expires_at \
         FROM sessions s JOIN accounts a ON a.id = s.account_id \
              LEFT JOIN account_roles r ON r.account_id = a.id \
         WHERE s.token_hash = $1 AND s.expires_at > now() \
         GROUP BY a.id, s.expires_at",
    )
    .bind(token_hash)
    .fetch_optional(pool)
    .await?
    .map(|row| Ok((Account::try_from(row.account)?, row.expires_at)))
    .transpose()
}

/// Result of making sure the first admin exists.
#[derive(Debug)]
pub enum BootstrapOutcome {
    Created(Account),
    AlreadyAdmin(Account),
}

#[derive(Debug, thiserror::Error)]
pub enum BootstrapError {
    #[error("invalid admin username: {0}")]
    InvalidUsername(&'static str),
    #[error("invalid admin password: {0}")]
    InvalidPassword(&'static str),
    #[error("account `{0}` already exists")]
    Exists(String),
    #[error("account `{0}` exists but is not an admin: refusing to make it one")]
    NotAdmin(String),
    #[error(transparent)]
    Password(#[from] PasswordError),
    #[error(transparent)]
    Account(#[from] AccountError),
}

/// Creates the admin `username` with `password` (from configuration or the
/// `create-admin` command). If the account exists: with `allow_existing_admin`, an
/// existing admin is left as it is (its password untouched); anything else is an
/// error — in particular an existing non-admin account is never promoted, so
/// nobody can register the configured name first and become admin.
pub async fn ensure_admin(
    pool: &PgPool,
    passwords: &PasswordService,
    username: &str,
    password: &SecretString,
    allow_existing_admin: bool,
) -> Result<BootstrapOutcome, BootstrapError> {
    use secrecy::ExposeSecret;
    validate_username(username).map_err(BootstrapError::InvalidUsername)?;
    validate_password(password.expose_secret(), username)
        .map_err(BootstrapError::InvalidPassword)?;
    if let Some(existing) = by_username(pool, username).await? {
        return match (existing.roles.contains(&Role::Admin), allow_existing_admin) {
            (true, true) => Ok(BootstrapOutcome::AlreadyAdmin(existing)),
            (true, false) => Err(BootstrapError::Exists(existing.username)),
            (false, _) => Err(BootstrapError::NotAdmin(existing.username)),
        };
    }
    let hash = passwords.hash(password.clone()).await?;
    match create(pool, username, &hash, &[Role::Admin], None).await {
        Ok(account) => Ok(BootstrapOutcome::Created(account)),
        Err(AccountError::UsernameTaken) => Err(BootstrapError::Exists(username.to_owned())),
        Err(e) => Err(e.into()),
    }
}

/// The server-wide roles of `account` as the domain weighs them (an anonymous caller
/// holds none). Each is read as held, not implied: an admin is not a referee of tables
/// outside tournaments unless it holds that role too.
pub fn roles_of(account: Option<&Account>) -> yaniv_domain::tournament::Roles {
    let holds = |role| account.is_some_and(|a| a.roles.contains(&role));
    yaniv_domain::tournament::Roles {
        admin: holds(Role::Admin),
        organizer: holds(Role::Organizer),
        referee: holds(Role::Referee),
    }
}

/// The username of each of `accounts`, in the same order, in one query: `None` for an
/// account that does not exist (any more).
pub async fn usernames(
    conn: &mut sqlx::PgConnection,
    accounts: &[i64],
) -> Result<Vec<Option<String>>, sqlx::Error> {
    let rows: Vec<(i64, String)> =
        sqlx::query_as("SELECT id, username FROM accounts WHERE id = ANY($1)")
            .bind(accounts)
            .fetch_all(&mut *conn)
            .await?;
    let names: std::collections::HashMap<i64, String> = rows.into_iter().collect();
    Ok(accounts.iter().map(|id| names.get(id).cloned()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_short_and_plain() {
        assert!(validate_username("alice").is_ok());
        assert!(validate_username("a.b-c_9").is_ok());
        assert!(validate_username("ab").is_err());
        assert!(validate_username(&"a".repeat(33)).is_err());
        assert!(validate_username("with space").is_err());
        assert!(validate_username("émile").is_err());
    }

    #[test]
    fn passwords_have_bounded_length() {
        assert!(validate_password("long enough", "ann").is_ok());
        assert!(validate_password("1234567", "ann").is_err());
        assert!(validate_password(&format!("{}è", "é".repeat(127)), "ann").is_ok());
        assert!(validate_password(&"xy".repeat(65), "ann").is_err());
        // Guessed first: common ones, in any case; one character repeated; the name.
        for weak in [
            "password",
            "PassWord1",
            "12345678",
            "        ",
            "aaaaaaaa",
            "annabelle",
        ] {
            assert!(validate_password(weak, "annabelle").is_err(), "{weak:?}");
        }
    }

    #[test]
    fn admins_pass_every_role_check() {
        let account = |roles: Vec<Role>| Account {
            id: 1,
            username: "u".into(),
            roles,
            created_at: OffsetDateTime::UNIX_EPOCH,
        };
        let admin = account(vec![Role::Admin]);
        assert!(Role::ALL.iter().all(|r| admin.has_role(*r)));
        let player = account(vec![Role::Player]);
        assert!(player.has_role(Role::Player));
        assert!(!player.has_role(Role::Referee));
        assert_eq!(player.actor(), "account:1");
    }
}
