//! The randomness of live tables: the operating system's generator, injected into the
//! rules engine (`yaniv_domain::table::Randomness`), which draws deal seeds, round-1
//! starters and bot seeds from it.

use yaniv_domain::shuffle::Seed;
use yaniv_domain::table::Randomness;

use crate::error::ApiError;

/// The operating system's generator.
#[derive(Debug, Clone, Copy, Default)]
pub struct OsRandom;

impl Randomness for OsRandom {
    fn fill(&mut self, bytes: &mut [u8]) -> Result<(), String> {
        getrandom::fill(bytes).map_err(|e| format!("the OS random generator failed: {e}"))
    }
}

/// A fresh 32-byte seed from the OS generator (tournament draw seeds).
pub fn fresh_seed() -> Result<Seed, ApiError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::unexpected("reading the OS RNG", e))?;
    Ok(Seed(bytes))
}
