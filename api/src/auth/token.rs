//! Opaque bearer tokens.
//!
//! A token is 32 bytes from the OS random generator, encoded as unpadded base64url
//! (43 characters). The client keeps it; the server stores only its SHA-256, so a
//! leaked `sessions` table gives no usable token. Tokens carry no data: revoking
//! one is deleting its row.

use base64ct::{Base64UrlUnpadded, Encoding};
use secrecy::{ExposeSecret, SecretString};
use sha2::{Digest, Sha256};

/// Length of an encoded token.
pub const TOKEN_LEN: usize = 43;

/// A freshly issued token. `Debug` does not show it.
#[derive(Debug)]
pub struct IssuedToken {
    /// What the client sends back as `Authorization: Bearer <token>`.
    pub token: SecretString,
    /// What the server stores.
    pub hash: [u8; 32],
}

/// Makes a new token.
pub fn issue() -> Result<IssuedToken, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    let token = Base64UrlUnpadded::encode_string(&bytes);
    let hash = hash(&token);
    Ok(IssuedToken {
        token: SecretString::from(token),
        hash,
    })
}

/// The stored form of a presented token.
pub fn hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Whether `token` has the shape of one we issue (checked before any lookup).
pub fn looks_valid(token: &str) -> bool {
    token.len() == TOKEN_LEN
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl IssuedToken {
    pub fn expose(&self) -> &str {
        self.token.expose_secret()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issued_tokens_are_random_base64url_and_hidden_in_debug() {
        let a = issue().unwrap();
        let b = issue().unwrap();
        assert!(looks_valid(a.expose()), "{}", a.expose());
        assert_ne!(a.expose(), b.expose());
        assert_eq!(hash(a.expose()), a.hash);
        assert!(!format!("{a:?}").contains(a.expose()));
    }

    #[test]
    fn malformed_tokens_are_rejected_early() {
        assert!(!looks_valid(""));
        assert!(!looks_valid(&"a".repeat(44)));
        assert!(!looks_valid(&format!("{}=", "a".repeat(42))));
        assert!(looks_valid(&"a".repeat(43)));
    }
}
