//! Shuffles that can be proven fair.
//!
//! Before a round is dealt the server picks a secret 32-byte [`Seed`] and publishes
//! its [`Commitment`], the SHA-256 of the seed. The deck order of the round follows
//! from the seed alone. After the round the seed is revealed; anyone can check that
//! it hashes to the commitment and recompute every shuffle of the round.
//!
//! # Algorithm `chacha20-fisher-yates/1`
//!
//! This is the exact specification; [`SHUFFLE_ALGORITHM`] names it and it must never
//! change. A different algorithm gets a new name.
//!
//! 1. **Keystream.** ChaCha20 as in RFC 8439 §2.3 (20 rounds, 32-bit block counter,
//!    96-bit nonce) with
//!    - key: the 32 seed bytes, as they are;
//!    - nonce (12 bytes): the stream id as 4 bytes little-endian, then 8 zero bytes;
//!    - the block counter starting at 0 and increasing by 1 per 64-byte block.
//!
//!    The keystream bytes (block 0, then block 1, …) are read as consecutive
//!    little-endian unsigned 32-bit words `w0, w1, w2, …`: `w0` is bytes 0..4 of
//!    block 0, `w16` is bytes 0..4 of block 1. Equivalently: the 16 output words of
//!    each block, in state order. Every word is used at most once, in order.
//! 2. **Uniform index in `[0, n)`** for `n >= 1`: let `L = 2^32 - (2^32 mod n)`, the
//!    largest multiple of `n` not above `2^32`. Take the next word `x`; if `x >= L`,
//!    discard it and take the next one; otherwise the result is `x mod n`. (For `n`
//!    a power of two, including 1, nothing is ever discarded, but a word is still
//!    consumed.) Every one of the `n` results then comes from exactly `L / n` word
//!    values, so there is no modulo bias.
//! 3. **Fisher-Yates, from the end.** For a list of length `len`, for `i` from
//!    `len - 1` down to `1` (inclusive): draw `j` uniform in `[0, i + 1)` as above,
//!    then swap the elements at positions `i` and `j` (nothing happens when `i == j`,
//!    but the draw still took place). Lists of length 0 or 1 draw nothing.
//!
//! # Stream ids
//!
//! One seed serves a whole round. Stream id `0` shuffles the deck for the deal of the
//! round; stream id `k` (for `k >= 1`) shuffles the stock the `k`-th time it is
//! rebuilt from the discard pile within that round. Each shuffle starts a fresh
//! [`ShuffleStream`] at word `w0` of its own stream.
//!
//! What list is shuffled (the canonical unshuffled deck order, and which cards go back
//! into the stock on a reshuffle) and how the shuffled list is dealt is defined by the
//! engine's deck module, `domain/src/cards/deck.rs`.

mod chacha20;
pub mod entropy;
#[cfg(feature = "openapi")]
mod schema;

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use sha2::{Digest, Sha256};

use self::chacha20::ChaCha20Stream;

/// Name and version of the shuffle algorithm described in the [module docs](self).
/// Recorded alongside each commitment so a replay knows how the deck was shuffled.
pub const SHUFFLE_ALGORITHM: &str = "chacha20-fisher-yates/1";

/// Number of hexadecimal characters in the text form of a [`Seed`] or [`Commitment`].
const HEX_LEN: usize = 64;

/// Error parsing the 64-character hex form of a [`Seed`] or a [`Commitment`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeedParseError {
    /// The text is not exactly 64 characters long.
    #[error("expected exactly 64 hexadecimal characters (32 bytes), got {len} characters")]
    WrongLength {
        /// Number of characters in the rejected text.
        len: usize,
    },
    /// The text contains something other than `0-9`, `a-f`, `A-F`.
    #[error(
        "invalid character {character:?} at position {position}: \
         expected a hexadecimal digit (0-9, a-f, A-F)"
    )]
    InvalidCharacter {
        /// The offending character.
        character: char,
        /// Its position, counted in characters from 0.
        position: usize,
    },
}

/// Lowercase hex of 32 bytes, as ASCII, without allocating.
fn encode_hex(bytes: &[u8; 32]) -> [u8; HEX_LEN] {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = [0u8; HEX_LEN];
    for (i, byte) in bytes.iter().enumerate() {
        out[2 * i] = DIGITS[usize::from(byte >> 4)];
        out[2 * i + 1] = DIGITS[usize::from(byte & 0x0f)];
    }
    out
}

/// The ASCII hex as `&str`. `encode_hex` only produces ASCII digits.
fn hex_str(ascii: &[u8; HEX_LEN]) -> &str {
    std::str::from_utf8(ascii).unwrap_or_else(|_| unreachable!("hex digits are ASCII"))
}

/// Parses exactly 64 hex digits, either case.
fn decode_hex(text: &str) -> Result<[u8; 32], SeedParseError> {
    if text.len() != HEX_LEN {
        return Err(SeedParseError::WrongLength {
            len: text.chars().count(),
        });
    }
    let mut bytes = [0u8; 32];
    // Exactly 64 bytes; if every character is a hex digit they are 64 ASCII characters.
    for (position, character) in text.chars().enumerate() {
        let nibble = character
            .to_digit(16)
            .ok_or(SeedParseError::InvalidCharacter {
                character,
                position,
            })?;
        // to_digit(16) is below 16, so the cast is lossless.
        bytes[position / 2] |= (nibble as u8) << if position % 2 == 0 { 4 } else { 0 };
    }
    Ok(bytes)
}

/// Serde visitor for the 64-character hex form.
struct HexVisitor(&'static str);

impl Visitor<'_> for HexVisitor {
    type Value = [u8; 32];

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "a {} as 64 hexadecimal characters", self.0)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Self::Value, E> {
        decode_hex(value).map_err(E::custom)
    }
}

/// The hex form shared by the 32-byte values ([`Seed`], [`Commitment`],
/// [`Contribution`]): `to_hex` (64 lowercase digits), `from_hex` (64 digits, either
/// case, nothing else: no prefix, no whitespace) and serde as that string. `$what`
/// names the value in a deserialization error.
macro_rules! hex32 {
    ($type:ident, $what:literal) => {
        impl $type {
            /// The value as 64 lowercase hexadecimal characters.
            #[must_use]
            pub fn to_hex(&self) -> String {
                hex_str(&encode_hex(&self.0)).to_owned()
            }

            /// Parses 64 hexadecimal characters (upper or lower case, nothing else).
            ///
            /// # Errors
            /// [`SeedParseError`] if the text is not exactly 64 hexadecimal digits.
            pub fn from_hex(text: &str) -> Result<Self, SeedParseError> {
                decode_hex(text).map(Self)
            }
        }

        impl Serialize for $type {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(hex_str(&encode_hex(&self.0)))
            }
        }

        impl<'de> Deserialize<'de> for $type {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer.deserialize_str(HexVisitor($what)).map(Self)
            }
        }
    };
}

/// The secret from which all shuffles of one round are derived: the ChaCha20 key.
///
/// Secret until the round is over, so `Debug` prints `Seed(..)` and there is no
/// `Display`; use [`Seed::to_hex`] deliberately when revealing it. Serialises as a
/// lowercase hex string of 64 characters.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

hex32!(Seed, "seed");

impl Seed {
    /// The public commitment to this seed: SHA-256 of its 32 raw bytes.
    #[must_use]
    pub fn commitment(&self) -> Commitment {
        Commitment(Sha256::digest(self.0).into())
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(..)")
    }
}

impl FromStr for Seed {
    type Err = SeedParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::from_hex(text)
    }
}

/// SHA-256 of a [`Seed`], published before the deal. Not secret: `Debug` and
/// `Display` show the hex. Serialises as a lowercase hex string of 64 characters.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Commitment(pub [u8; 32]);

hex32!(Commitment, "commitment");

impl Commitment {
    /// Whether `seed` is the seed this commitment was made to, i.e. whether
    /// SHA-256 of the seed's bytes equals this commitment.
    #[must_use]
    pub fn matches(&self, seed: &Seed) -> bool {
        seed.commitment() == *self
    }
}

impl fmt::Debug for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Commitment({})", hex_str(&encode_hex(&self.0)))
    }
}

impl fmt::Display for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(hex_str(&encode_hex(&self.0)))
    }
}

impl FromStr for Commitment {
    type Err = SeedParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::from_hex(text)
    }
}

/// A player's contribution to a deal's seed at a table with player entropy: 32 bytes
/// the player chose (a client draws them from its own generator). Public once sent.
/// Serialises as 64 lowercase hexadecimal characters.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Contribution(pub [u8; 32]);

hex32!(Contribution, "contribution");

impl fmt::Debug for Contribution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Contribution({})", hex_str(&encode_hex(&self.0)))
    }
}

/// The source of randomness for one shuffle: the ChaCha20 keystream keyed by a
/// [`Seed`] with the nonce derived from a stream id (see the [module docs](self)).
pub struct ShuffleStream {
    keystream: ChaCha20Stream,
    stream_id: u32,
}

impl ShuffleStream {
    /// The stream `stream_id` of `seed`: `0` for the deal of a round, `k` for the
    /// `k`-th reshuffle of the stock within that round.
    #[must_use]
    pub fn new(seed: &Seed, stream_id: u32) -> Self {
        let mut nonce = [0u8; 12];
        nonce[..4].copy_from_slice(&stream_id.to_le_bytes());
        Self {
            keystream: ChaCha20Stream::new(&seed.0, &nonce),
            stream_id,
        }
    }

    /// The stream id this stream was created with.
    #[must_use]
    pub fn stream_id(&self) -> u32 {
        self.stream_id
    }

    /// A uniformly distributed integer in `[0, n)`, by rejection sampling.
    ///
    /// With `L = 2^32 - (2^32 mod n)` (the largest multiple of `n` that is at most
    /// `2^32`), keystream words `x >= L` are discarded and the first word `x < L`
    /// gives `x mod n`. At least one word is always consumed, even for `n == 1`.
    ///
    /// `n == 0` is a caller bug: it fails a debug assertion, and in release builds
    /// returns 0 without consuming a word.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n != 0, "ShuffleStream::below(0): the range [0, 0) is empty");
        if n == 0 {
            return 0;
        }
        let n = u64::from(n);
        const RANGE: u64 = 1 << 32;
        let limit = RANGE - RANGE % n;
        loop {
            let x = u64::from(self.keystream.next_u32());
            if x < limit {
                // x % n < n <= u32::MAX, so the cast is lossless.
                return (x % n) as u32;
            }
        }
    }
}

impl fmt::Debug for ShuffleStream {
    /// Shows the stream id only; the keystream state would reveal the seed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ShuffleStream")
            .field("stream_id", &self.stream_id)
            .finish_non_exhaustive()
    }
}

/// Shuffles `items` with the Fisher-Yates algorithm, from the end: for `i` from
/// `len - 1` down to 1, swap `items[i]` with `items[stream.below(i + 1)]`.
///
/// Slices longer than `u32::MAX` elements are not supported (and panic).
pub fn shuffle_in_place<T>(items: &mut [T], stream: &mut ShuffleStream) {
    for i in (1..items.len()).rev() {
        let bound = u32::try_from(i + 1).expect("shuffle_in_place: slice too long");
        let j = stream.below(bound) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counting_seed() -> Seed {
        let mut bytes = [0u8; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = i as u8;
        }
        Seed(bytes)
    }

    fn seed_from(tag: u8) -> Seed {
        let mut bytes = [0u8; 32];
        bytes[0] = tag;
        bytes[31] = tag.wrapping_mul(31);
        Seed(bytes)
    }

    const COUNTING_HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    #[test]
    fn seed_hex_round_trip() {
        let seed = counting_seed();
        assert_eq!(seed.to_hex(), COUNTING_HEX);
        assert_eq!(Seed::from_hex(COUNTING_HEX), Ok(seed));
        assert_eq!(COUNTING_HEX.parse::<Seed>(), Ok(seed));
        assert_eq!(Seed::from_hex(&COUNTING_HEX.to_uppercase()), Ok(seed));
        let mixed = "000102030405060708090A0B0C0D0E0F101112131415161718191a1b1c1d1e1f";
        assert_eq!(Seed::from_hex(mixed), Ok(seed));

        let all_ff = Seed([0xff; 32]);
        assert_eq!(all_ff.to_hex(), "f".repeat(64));
        assert_eq!(Seed::from_hex(&"F".repeat(64)), Ok(all_ff));
    }

    #[test]
    fn seed_and_commitment_serde_as_lowercase_hex() {
        let seed = counting_seed();
        let json = serde_json::to_string(&seed).unwrap();
        assert_eq!(json, format!("\"{COUNTING_HEX}\""));
        assert_eq!(serde_json::from_str::<Seed>(&json).unwrap(), seed);
        let upper = format!("\"{}\"", COUNTING_HEX.to_uppercase());
        assert_eq!(serde_json::from_str::<Seed>(&upper).unwrap(), seed);

        let commitment = seed.commitment();
        let json = serde_json::to_string(&commitment).unwrap();
        assert_eq!(json, format!("\"{}\"", commitment.to_hex()));
        assert_eq!(
            serde_json::from_str::<Commitment>(&json).unwrap(),
            commitment
        );

        assert!(serde_json::from_str::<Seed>("\"abc\"").is_err());
        assert!(serde_json::from_str::<Seed>("42").is_err());
        let err = serde_json::from_str::<Commitment>(&format!("\"{}\"", "z".repeat(64)))
            .unwrap_err()
            .to_string();
        assert!(err.contains("invalid character 'z' at position 0"), "{err}");
    }

    #[test]
    fn bad_hex_is_rejected() {
        assert_eq!(
            Seed::from_hex(""),
            Err(SeedParseError::WrongLength { len: 0 })
        );
        assert_eq!(
            Seed::from_hex(&COUNTING_HEX[..63]),
            Err(SeedParseError::WrongLength { len: 63 })
        );
        assert_eq!(
            Seed::from_hex(&format!("{COUNTING_HEX}0")),
            Err(SeedParseError::WrongLength { len: 65 })
        );
        assert_eq!(
            Seed::from_hex(&format!("0x{}", &COUNTING_HEX[2..])),
            Err(SeedParseError::InvalidCharacter {
                character: 'x',
                position: 1
            })
        );
        assert_eq!(
            Seed::from_hex(&format!(" {}", &COUNTING_HEX[1..])),
            Err(SeedParseError::InvalidCharacter {
                character: ' ',
                position: 0
            })
        );
        let mut with_g = COUNTING_HEX.to_owned();
        with_g.replace_range(40..41, "g");
        assert_eq!(
            Commitment::from_hex(&with_g),
            Err(SeedParseError::InvalidCharacter {
                character: 'g',
                position: 40
            })
        );
        // 62 ASCII characters and one two-byte character: 64 bytes, 63 characters.
        let multibyte = format!("{}é", &COUNTING_HEX[..62]);
        assert_eq!(multibyte.len(), 64);
        assert_eq!(
            Seed::from_hex(&multibyte),
            Err(SeedParseError::InvalidCharacter {
                character: 'é',
                position: 62
            })
        );

        let message = Seed::from_hex("abc").unwrap_err().to_string();
        assert_eq!(
            message,
            "expected exactly 64 hexadecimal characters (32 bytes), got 3 characters"
        );
    }

    #[test]
    fn seed_debug_does_not_reveal_the_bytes() {
        let seed = counting_seed();
        let debug = format!("{seed:?}");
        assert_eq!(debug, "Seed(..)");
        assert!(!debug.contains(&seed.to_hex()));
        let stream = ShuffleStream::new(&seed, 3);
        assert_eq!(format!("{stream:?}"), "ShuffleStream { stream_id: 3, .. }");
    }

    #[test]
    fn commitment_is_sha256_of_the_seed_bytes() {
        let zero = Seed([0; 32]);
        let commitment = zero.commitment();
        assert_eq!(
            commitment.to_hex(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        assert_eq!(commitment.to_string(), commitment.to_hex());
        assert_eq!(
            format!("{commitment:?}"),
            format!("Commitment({})", commitment.to_hex())
        );
        assert!(commitment.matches(&zero));
        assert!(!commitment.matches(&Seed([1; 32])));
        assert!(counting_seed().commitment().matches(&counting_seed()));
        assert_eq!(commitment.to_hex().parse::<Commitment>(), Ok(commitment));
    }

    #[test]
    fn stream_nonce_is_little_endian_stream_id_then_zeros() {
        let seed = counting_seed();
        let mut stream = ShuffleStream::new(&seed, 0x0403_0201);
        let mut raw =
            ChaCha20Stream::new(&seed.0, &[0x01, 0x02, 0x03, 0x04, 0, 0, 0, 0, 0, 0, 0, 0]);
        for _ in 0..40 {
            // below(2^31) never rejects, so it exposes the low 31 bits of each word.
            assert_eq!(stream.below(1 << 31), raw.next_u32() % (1 << 31));
        }
        assert_eq!(stream.stream_id(), 0x0403_0201);
    }

    #[test]
    fn below_is_always_in_range() {
        let mut stream = ShuffleStream::new(&seed_from(1), 0);
        for n in 1..=200u32 {
            for _ in 0..2_000 {
                assert!(stream.below(n) < n);
            }
        }
        for n in [u32::MAX, u32::MAX - 1, (1 << 31) + 1, 3_000_000_019] {
            for _ in 0..1_000 {
                assert!(stream.below(n) < n);
            }
        }
    }

    #[test]
    fn below_rejects_exactly_the_words_at_or_above_the_limit() {
        // For n = 2^31 + 1, L = 2^32 - (2^32 mod n) = 2^31 + 1: about half of all words
        // are rejected. Compare with a hand-rolled filter over the raw keystream.
        let n: u32 = (1 << 31) + 1;
        let seed = seed_from(9);
        let mut stream = ShuffleStream::new(&seed, 0);
        let mut raw = ChaCha20Stream::new(&seed.0, &[0; 12]);
        let mut rejected = 0;
        for _ in 0..1_000 {
            let expected = loop {
                let x = raw.next_u32();
                if x < n {
                    break x;
                }
                rejected += 1;
            };
            assert_eq!(stream.below(n), expected);
        }
        assert!(rejected > 500, "rejection path not exercised: {rejected}");
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "below(0)")]
    fn below_zero_is_a_debug_assertion() {
        ShuffleStream::new(&seed_from(2), 0).below(0);
    }

    /// Pearson's chi-square statistic of `counts` against a uniform distribution.
    fn chi_square(counts: &[u64]) -> f64 {
        let total: u64 = counts.iter().sum();
        let expected = total as f64 / counts.len() as f64;
        counts
            .iter()
            .map(|&c| {
                let d = c as f64 - expected;
                d * d / expected
            })
            .sum()
    }

    /// For 53 degrees of freedom the statistic has mean 53 and standard deviation
    /// about 10.3; exceeding 150 has probability far below 1e-12 for a uniform
    /// sampler. The inputs are deterministic, so the test cannot flake anyway.
    const CHI_SQUARE_BOUND_54: f64 = 150.0;

    fn counts_54(mut draw: impl FnMut() -> u32) -> Vec<u64> {
        let mut counts = vec![0u64; 54];
        for _ in 0..540_000 {
            counts[draw() as usize] += 1;
        }
        counts
    }

    #[test]
    fn below_54_is_uniform() {
        let mut stream = ShuffleStream::new(&seed_from(3), 0);
        let statistic = chi_square(&counts_54(|| stream.below(54)));
        assert!(
            statistic < CHI_SQUARE_BOUND_54,
            "chi-square {statistic} for below(54)"
        );

        // The same check rejects biased samplers fed by the same keystream.
        let seed = seed_from(3);
        let mut raw = ChaCha20Stream::new(&seed.0, &[0; 12]);
        let always_mod_7 = chi_square(&counts_54(|| raw.next_u32() % 7));
        assert!(always_mod_7 > CHI_SQUARE_BOUND_54, "{always_mod_7}");
        // Six random bits reduced mod 54: values 0..10 are twice as likely.
        let mut raw = ChaCha20Stream::new(&seed.0, &[0; 12]);
        let six_bits_mod_54 = chi_square(&counts_54(|| (raw.next_u32() >> 26) % 54));
        assert!(six_bits_mod_54 > CHI_SQUARE_BOUND_54, "{six_bits_mod_54}");
    }

    #[test]
    fn shuffle_is_a_permutation() {
        for tag in 0..20u8 {
            for stream_id in 0..5 {
                let mut deck: Vec<u32> = (0..54).collect();
                shuffle_in_place(
                    &mut deck,
                    &mut ShuffleStream::new(&seed_from(tag), stream_id),
                );
                let mut sorted = deck.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..54).collect::<Vec<_>>());
            }
        }
        let mut empty: [u8; 0] = [];
        shuffle_in_place(&mut empty, &mut ShuffleStream::new(&seed_from(0), 0));
        let mut single = [7u8];
        shuffle_in_place(&mut single, &mut ShuffleStream::new(&seed_from(0), 0));
        assert_eq!(single, [7]);
    }

    #[test]
    fn shuffle_depends_on_seed_and_stream_only() {
        let shuffled = |seed: &Seed, stream_id: u32| {
            let mut deck: Vec<u8> = (0..54).collect();
            shuffle_in_place(&mut deck, &mut ShuffleStream::new(seed, stream_id));
            deck
        };
        let seed = seed_from(4);
        assert_eq!(shuffled(&seed, 0), shuffled(&seed, 0));
        assert_eq!(shuffled(&seed, 7), shuffled(&seed, 7));
        assert_ne!(shuffled(&seed, 0), shuffled(&seed, 1));
        assert_ne!(shuffled(&seed, 1), shuffled(&seed, 2));
        assert_ne!(shuffled(&seed, 0), shuffled(&seed_from(5), 0));
    }

    /// Known-answer test: pins algorithm version 1 (`chacha20-fisher-yates/1`).
    /// This output must never change. If it does, deals recorded under version 1
    /// can no longer be verified or replayed: fix the code, or introduce a new
    /// algorithm name instead of editing this vector.
    ///
    /// The vectors were produced by this implementation and checked independently
    /// against a separate script (pyca/cryptography's ChaCha20 plus the rejection
    /// rule and loop of the module docs). Seed bytes 0x00, 0x01, ..., 0x1f; the list
    /// shuffled is `0u8..54`.
    #[test]
    fn pinned_shuffle_chacha20_fisher_yates_v1() {
        assert_eq!(SHUFFLE_ALGORITHM, "chacha20-fisher-yates/1");
        let shuffled = |stream_id: u32| {
            let mut deck: Vec<u8> = (0..54).collect();
            shuffle_in_place(
                &mut deck,
                &mut ShuffleStream::new(&counting_seed(), stream_id),
            );
            deck
        };
        assert_eq!(shuffled(0), PINNED_V1_SEED_00_1F_STREAM_0);
        assert_eq!(shuffled(1), PINNED_V1_SEED_00_1F_STREAM_1);
    }

    /// Algorithm version 1, seed 00..1f, stream 0. Must never change.
    #[rustfmt::skip]
    const PINNED_V1_SEED_00_1F_STREAM_0: [u8; 54] = [
        53, 40, 4, 27, 38, 21, 47, 22, 42, 24, 35, 19, 49, 30, 46, 39, 15, 0,
        3, 43, 25, 20, 10, 13, 5, 9, 18, 17, 50, 14, 2, 48, 32, 12, 29, 23,
        52, 16, 6, 26, 28, 1, 11, 31, 44, 51, 7, 34, 36, 8, 41, 33, 45, 37,
    ];

    /// Algorithm version 1, seed 00..1f, stream 1. Must never change.
    #[rustfmt::skip]
    const PINNED_V1_SEED_00_1F_STREAM_1: [u8; 54] = [
        50, 8, 5, 26, 41, 52, 28, 48, 35, 13, 46, 0, 30, 53, 25, 37, 12, 47,
        9, 42, 17, 1, 38, 24, 33, 2, 15, 23, 16, 49, 6, 21, 14, 27, 44, 36,
        7, 32, 45, 19, 51, 29, 18, 4, 39, 34, 31, 3, 40, 11, 43, 20, 22, 10,
    ];
}
