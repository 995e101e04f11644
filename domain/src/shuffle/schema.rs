//! OpenAPI schemas of seeds and commitments (feature `openapi`): both travel as 64
//! hexadecimal digits, so clients see that string instead of a 32-byte array.

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use super::{Commitment, Contribution, Seed};

/// What [`Seed::from_hex`] and [`Commitment::from_hex`] accept: exactly 64 hexadecimal
/// digits, either case (the server writes lowercase).
pub const HEX_32_PATTERN: &str = "^[0-9a-fA-F]{64}$";

fn hex_32(description: &str, example: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(HEX_32_PATTERN))
        .min_length(Some(64))
        .max_length(Some(64))
        .description(Some(description))
        .examples([serde_json::Value::from(example)])
        .into()
}

impl PartialSchema for Seed {
    fn schema() -> RefOr<Schema> {
        hex_32(
            "A shuffle or draw seed, 32 bytes as 64 hexadecimal digits; revealed once what \
             it decides is over",
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        )
    }
}

impl ToSchema for Seed {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Seed")
    }
}

impl PartialSchema for Commitment {
    fn schema() -> RefOr<Schema> {
        hex_32(
            "SHA-256 of a seed's 32 bytes, as 64 hexadecimal digits; published before the \
             seed is used",
            "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
        )
    }
}

impl ToSchema for Commitment {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Commitment")
    }
}

impl PartialSchema for Contribution {
    fn schema() -> RefOr<Schema> {
        hex_32(
            "A player's contribution to a deal's seed, 32 bytes of the player's own choosing \
             as 64 hexadecimal digits (a client draws them from its own random generator)",
            "5c1e0f2a9b7d3e4f61728394a5b6c7d8e9f00112233445566778899aabbccdde",
        )
    }
}

impl ToSchema for Contribution {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Contribution")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the pattern says (64 hex digits, either case, nothing around them) is what
    /// the parsers take.
    #[test]
    fn the_pattern_is_what_the_parsers_accept() {
        let lower = "ab".repeat(32);
        let upper = lower.to_uppercase();
        for text in [lower.as_str(), upper.as_str()] {
            assert!(Seed::from_hex(text).is_ok());
            assert!(Commitment::from_hex(text).is_ok());
        }
        for bad in [
            "ab".repeat(31),
            format!("0x{}", "ab".repeat(31)),
            "zz".repeat(32),
        ] {
            assert!(Seed::from_hex(&bad).is_err(), "{bad}");
        }
    }
}
