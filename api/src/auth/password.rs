//! Password hashing with argon2id, kept from starving the server.
//!
//! Argon2id (default parameters: 19 MiB, 2 passes, 1 lane; the PHC string records
//! them, so they can be raised later without invalidating stored hashes) costs tens
//! of milliseconds of CPU per call by design. Run on the async executor, a burst of
//! log ins would stall every other request of that worker; so each computation
//! runs on tokio's blocking pool ([`spawn_blocking_with_tracing`], keeping the
//! request's span), and a semaphore bounds how many run at once. A request that
//! cannot get a slot within the configured wait gets [`PasswordError::Busy`] (503
//! with `Retry-After`) instead of queueing without bound.
//!
//! Verifying against an unknown username still computes a hash (against a dummy
//! hash made once at first use), so response times do not reveal which usernames
//! exist.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use argon2::{Argon2, PasswordHasher, PasswordVerifier};
use secrecy::{ExposeSecret, SecretString};
use tokio::sync::Semaphore;

use crate::error::ApiError;
use crate::telemetry::spawn_blocking_with_tracing;

/// Seconds a refused client is told to wait.
const RETRY_AFTER_SECS: u32 = 1;

/// Hashes and verifies passwords; cheap to clone (shared semaphore).
#[derive(Debug, Clone)]
pub struct PasswordService {
    /// One permit per argon2 computation allowed at once.
    permits: Arc<Semaphore>,
    /// How long to wait for a permit before refusing.
    max_wait: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    /// Every hashing slot stayed taken for the whole wait.
    #[error("all password hashing slots are busy")]
    Busy,
    /// The stored hash is unreadable, or argon2 failed.
    #[error("password hashing failed: {0}")]
    Hashing(argon2::password_hash::Error),
    /// The blocking task panicked or was cancelled.
    #[error("password hashing task failed")]
    Task(#[from] tokio::task::JoinError),
}

impl From<PasswordError> for ApiError {
    fn from(err: PasswordError) -> Self {
        match err {
            PasswordError::Busy => ApiError::Busy {
                retry_after_secs: RETRY_AFTER_SECS,
            },
            other => ApiError::unexpected("password hashing", other),
        }
    }
}

impl PasswordService {
    pub fn new(concurrency: usize, max_wait: Duration) -> Self {
        Self {
            permits: Arc::new(Semaphore::new(concurrency.max(1))),
            max_wait,
        }
    }

    /// A PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`) for `password`.
    pub async fn hash(&self, password: SecretString) -> Result<String, PasswordError> {
        self.run(move || hash_blocking(password.expose_secret().as_bytes()))
            .await?
    }

    /// Whether `password` matches `stored` (a PHC string). With `stored = None`
    /// (unknown account) a dummy hash is checked anyway, and the answer is `false`.
    pub async fn verify(
        &self,
        password: SecretString,
        stored: Option<String>,
    ) -> Result<bool, PasswordError> {
        self.run(move || verify_blocking(password.expose_secret().as_bytes(), stored.as_deref()))
            .await?
    }

    /// Runs `f` on the blocking pool once a permit is free, holding the permit until
    /// `f` returns (even if the request is dropped meanwhile).
    async fn run<R: Send + 'static>(
        &self,
        f: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, PasswordError> {
        let permit = tokio::time::timeout(self.max_wait, Arc::clone(&self.permits).acquire_owned())
            .await
            .map_err(|_| PasswordError::Busy)?
            // Only fails if the semaphore is closed, which we never do.
            .map_err(|_| PasswordError::Busy)?;
        let result = spawn_blocking_with_tracing(move || {
            let _permit = permit;
            f()
        })
        .await?;
        Ok(result)
    }
}

fn hash_blocking(password: &[u8]) -> Result<String, PasswordError> {
    Argon2::default()
        .hash_password(password)
        .map(|hash| hash.to_string())
        .map_err(PasswordError::Hashing)
}

fn verify_blocking(password: &[u8], stored: Option<&str>) -> Result<bool, PasswordError> {
    // An account waiting for its player's first password (`setup_code.rs`) takes as
    // long to refuse as an unknown one.
    let (stored, known) = match stored {
        Some(stored) if stored != super::setup_code::PENDING_SETUP => (stored, true),
        _ => (dummy_hash()?, false),
    };
    match Argon2::default().verify_password(password, stored) {
        Ok(()) => Ok(known),
        Err(argon2::password_hash::Error::PasswordInvalid) => Ok(false),
        Err(e) => Err(PasswordError::Hashing(e)),
    }
}

/// A hash of a random password, with the same parameters as real ones.
fn dummy_hash() -> Result<&'static str, PasswordError> {
    static DUMMY: OnceLock<String> = OnceLock::new();
    if let Some(hash) = DUMMY.get() {
        return Ok(hash);
    }
    let mut random = [0u8; 32];
    getrandom::fill(&mut random)
        .map_err(|_| PasswordError::Hashing(argon2::password_hash::Error::Crypto))?;
    let hash = hash_blocking(&random)?;
    Ok(DUMMY.get_or_init(|| hash))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(s: &str) -> SecretString {
        SecretString::from(s)
    }

    #[tokio::test]
    async fn a_hash_verifies_its_password_only() {
        let service = PasswordService::new(2, Duration::from_secs(5));
        let hash = service.hash(secret("correct horse")).await.unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(
            service
                .verify(secret("correct horse"), Some(hash.clone()))
                .await
                .unwrap()
        );
        assert!(!service.verify(secret("wrong"), Some(hash)).await.unwrap());
        assert!(!service.verify(secret("anything"), None).await.unwrap());
    }

    #[tokio::test]
    async fn a_saturated_service_answers_busy() {
        let service = PasswordService::new(1, Duration::from_millis(20));
        // Hold the only permit, as a long-running hash would.
        let held = Arc::clone(&service.permits).acquire_owned().await.unwrap();
        let err = service.hash(secret("pw")).await.unwrap_err();
        assert!(matches!(err, PasswordError::Busy));
        let api: ApiError = err.into();
        assert!(matches!(
            api,
            ApiError::Busy {
                retry_after_secs: 1
            }
        ));
        drop(held);
        assert!(service.hash(secret("pw")).await.is_ok());
    }

    #[tokio::test]
    async fn an_unreadable_stored_hash_is_an_error_not_a_match() {
        let service = PasswordService::new(1, Duration::from_secs(5));
        let err = service
            .verify(secret("pw"), Some("not a phc string".into()))
            .await
            .unwrap_err();
        assert!(matches!(err, PasswordError::Hashing(_)));
    }
}
