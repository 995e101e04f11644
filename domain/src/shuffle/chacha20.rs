//! The ChaCha20 block function of RFC 8439, section 2.3, used as a keystream of
//! 32-bit words.
//!
//! This is a small, self-contained implementation written from the RFC. It exists
//! so that the deal of a Yaniv round depends only on code in this repository and on
//! a published standard, never on the version of a third-party crate.
//!
//! The state is the 4x4 matrix of 32-bit words from RFC 8439 §2.3:
//!
//! ```text
//! cccccccc  cccccccc  cccccccc  cccccccc      c = constants "expand 32-byte k"
//! kkkkkkkk  kkkkkkkk  kkkkkkkk  kkkkkkkk      k = key, 8 little-endian words
//! kkkkkkkk  kkkkkkkk  kkkkkkkk  kkkkkkkk
//! bbbbbbbb  nnnnnnnn  nnnnnnnn  nnnnnnnn      b = block counter, n = nonce (3 LE words)
//! ```
//!
//! A block is 20 rounds (10 column rounds alternating with 10 diagonal rounds) applied
//! to a copy of the state, after which the original state is added word by word.
//! The RFC serialises the 16 resulting words little-endian into 64 bytes; reading
//! those bytes back as little-endian `u32`s yields the words themselves, so
//! [`ChaCha20Stream::next_u32`] simply returns the output words in order.
//!
//! This is *not* a general-purpose cipher API: there is no encryption, no seeking,
//! and the stream is limited to 2^32 blocks (256 GiB) per key and nonce, far beyond
//! what a card game ever draws.

/// The four constant words: the ASCII string "expand 32-byte k" read little-endian.
const CONSTANTS: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// Number of 32-bit words in one ChaCha20 block.
const BLOCK_WORDS: usize = 16;

/// The ChaCha quarter round (RFC 8439 §2.1) on four words of the state.
#[inline(always)]
fn quarter_round(state: &mut [u32; BLOCK_WORDS], a: usize, b: usize, c: usize, d: usize) {
    state[a] = state[a].wrapping_add(state[b]);
    state[d] ^= state[a];
    state[d] = state[d].rotate_left(16);

    state[c] = state[c].wrapping_add(state[d]);
    state[b] ^= state[c];
    state[b] = state[b].rotate_left(12);

    state[a] = state[a].wrapping_add(state[b]);
    state[d] ^= state[a];
    state[d] = state[d].rotate_left(8);

    state[c] = state[c].wrapping_add(state[d]);
    state[b] ^= state[c];
    state[b] = state[b].rotate_left(7);
}

/// The ChaCha20 block function (RFC 8439 §2.3): 20 rounds over a copy of `input`,
/// then the input added back word by word.
fn block(input: &[u32; BLOCK_WORDS]) -> [u32; BLOCK_WORDS] {
    let mut working = *input;
    for _ in 0..10 {
        // Column round.
        quarter_round(&mut working, 0, 4, 8, 12);
        quarter_round(&mut working, 1, 5, 9, 13);
        quarter_round(&mut working, 2, 6, 10, 14);
        quarter_round(&mut working, 3, 7, 11, 15);
        // Diagonal round.
        quarter_round(&mut working, 0, 5, 10, 15);
        quarter_round(&mut working, 1, 6, 11, 12);
        quarter_round(&mut working, 2, 7, 8, 13);
        quarter_round(&mut working, 3, 4, 9, 14);
    }
    for (out, inp) in working.iter_mut().zip(input.iter()) {
        *out = out.wrapping_add(*inp);
    }
    working
}

/// Reads four bytes as a little-endian word.
#[inline]
fn le_word(bytes: &[u8], offset: usize) -> u32 {
    u32::from_le_bytes([
        bytes[offset],
        bytes[offset + 1],
        bytes[offset + 2],
        bytes[offset + 3],
    ])
}

/// The ChaCha20 keystream for one key and nonce, as consecutive 32-bit words:
/// words 0..16 of block 0, then words 0..16 of block 1, and so on.
///
/// A whole block is computed at a time and buffered; no allocation takes place.
/// Deliberately not `Debug`, `Clone` or `Copy`: it holds the secret key.
pub(crate) struct ChaCha20Stream {
    /// Constants, key, block counter (word 12) and nonce of the *next* block.
    input: [u32; BLOCK_WORDS],
    /// Output words of the current block.
    buffer: [u32; BLOCK_WORDS],
    /// Index of the next unread word in `buffer`; `BLOCK_WORDS` means "exhausted".
    position: usize,
}

impl ChaCha20Stream {
    /// A keystream starting at block counter 0, as used by the shuffle.
    pub(crate) fn new(key: &[u8; 32], nonce: &[u8; 12]) -> Self {
        Self::with_counter(key, nonce, 0)
    }

    /// A keystream starting at the given block counter (the RFC's test vectors
    /// start at 1).
    pub(crate) fn with_counter(key: &[u8; 32], nonce: &[u8; 12], counter: u32) -> Self {
        let mut input = [0u32; BLOCK_WORDS];
        input[..4].copy_from_slice(&CONSTANTS);
        for i in 0..8 {
            input[4 + i] = le_word(key, 4 * i);
        }
        input[12] = counter;
        for i in 0..3 {
            input[13 + i] = le_word(nonce, 4 * i);
        }
        Self {
            input,
            buffer: [0; BLOCK_WORDS],
            position: BLOCK_WORDS,
        }
    }

    /// The next 32-bit word of the keystream.
    #[inline]
    pub(crate) fn next_u32(&mut self) -> u32 {
        if self.position == BLOCK_WORDS {
            self.refill();
        }
        let word = self.buffer[self.position];
        self.position += 1;
        word
    }

    /// Computes the next block and advances the block counter.
    fn refill(&mut self) {
        self.buffer = block(&self.input);
        // RFC 8439 uses a 32-bit counter. Wrapping would repeat the keystream after
        // 2^32 blocks; no caller comes anywhere near that.
        debug_assert!(
            self.input[12] != u32::MAX,
            "ChaCha20 block counter exhausted"
        );
        self.input[12] = self.input[12].wrapping_add(1);
        self.position = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rfc_key() -> [u8; 32] {
        let mut key = [0u8; 32];
        for (i, byte) in key.iter_mut().enumerate() {
            *byte = i as u8;
        }
        key
    }

    fn keystream_bytes(stream: &mut ChaCha20Stream, len: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(len + 4);
        while out.len() < len {
            out.extend_from_slice(&stream.next_u32().to_le_bytes());
        }
        out.truncate(len);
        out
    }

    fn hex(s: &str) -> Vec<u8> {
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// RFC 8439 §2.1.1: test vector for the quarter round.
    #[test]
    fn quarter_round_rfc8439_2_1_1() {
        let mut state = [0u32; BLOCK_WORDS];
        state[0] = 0x1111_1111;
        state[1] = 0x0102_0304;
        state[2] = 0x9b8d_6f43;
        state[3] = 0x0123_4567;
        quarter_round(&mut state, 0, 1, 2, 3);
        assert_eq!(
            state[..4],
            [0xea2a_92f4, 0xcb1c_f8ce, 0x4581_472e, 0x5881_c4bb]
        );
    }

    /// RFC 8439 §2.3.2: test vector for the block function (key 00..1f,
    /// nonce 00:00:00:09:00:00:00:4a:00:00:00:00, block counter 1).
    #[test]
    fn block_function_rfc8439_2_3_2() {
        let nonce = [0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0];

        let mut stream = ChaCha20Stream::with_counter(&rfc_key(), &nonce, 1);
        // The state after the block function, as printed in the RFC.
        #[rustfmt::skip]
        const EXPECTED_WORDS: [u32; 16] = [
            0xe4e7_f110, 0x1559_3bd1, 0x1fdd_0f50, 0xc471_20a3,
            0xc7f4_d1c7, 0x0368_c033, 0x9aaa_2204, 0x4e6c_d4c3,
            0x4664_82d2, 0x09aa_9f07, 0x05d7_c214, 0xa202_8bd9,
            0xd19c_12b5, 0xb94e_16de, 0xe883_d0cb, 0x4e3c_50a2,
        ];
        let words: Vec<u32> = (0..16).map(|_| stream.next_u32()).collect();
        assert_eq!(words, EXPECTED_WORDS);

        let mut stream = ChaCha20Stream::with_counter(&rfc_key(), &nonce, 1);
        let expected = hex("10 f1 e7 e4 d1 3b 59 15 50 0f dd 1f a3 20 71 c4
                            c7 d1 f4 c7 33 c0 68 03 04 22 aa 9a c3 d4 6c 4e
                            d2 82 64 46 07 9f aa 09 14 c2 d7 05 d9 8b 02 a2
                            b5 12 9c d1 de 16 4e b9 cb d0 83 e8 a2 50 3c 4e");
        assert_eq!(keystream_bytes(&mut stream, 64), expected);
    }

    /// RFC 8439 §2.4.2: the keystream for 114 bytes starting at block counter 1
    /// (key 00..1f, nonce 00:00:00:00:00:00:00:4a:00:00:00:00) is ciphertext XOR
    /// plaintext; this spans two blocks, so it also checks the counter increment.
    #[test]
    fn keystream_rfc8439_2_4_2() {
        let nonce = [0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0];
        let plaintext = b"Ladies and Gentlemen of the class of '99: If I could offer you \
                          only one tip for the future, sunscreen would be it.";
        assert_eq!(plaintext.len(), 114);
        let ciphertext = hex("6e 2e 35 9a 25 68 f9 80 41 ba 07 28 dd 0d 69 81
                              e9 7e 7a ec 1d 43 60 c2 0a 27 af cc fd 9f ae 0b
                              f9 1b 65 c5 52 47 33 ab 8f 59 3d ab cd 62 b3 57
                              16 39 d6 24 e6 51 52 ab 8f 53 0c 35 9f 08 61 d8
                              07 ca 0d bf 50 0d 6a 61 56 a3 8e 08 8a 22 b6 5e
                              52 bc 51 4d 16 cc f8 06 81 8c e9 1a b7 79 37 36
                              5a f9 0b bf 74 a3 5b e6 b4 0b 8e ed f2 78 5e 42
                              87 4d");
        let expected_keystream: Vec<u8> = plaintext
            .iter()
            .zip(&ciphertext)
            .map(|(p, c)| p ^ c)
            .collect();

        let mut stream = ChaCha20Stream::with_counter(&rfc_key(), &nonce, 1);
        assert_eq!(keystream_bytes(&mut stream, 114), expected_keystream);
    }

    /// The keystream equals RustCrypto's `chacha20::ChaCha20` over 3,000 random keys,
    /// nonces and starting block counters, from one to five blocks long and often ending
    /// mid-block, with counters near 0, anywhere, and at the last blocks before the 32-bit
    /// counter runs out.
    ///
    /// `ChaCha20` is the crate's RFC 8439 (IETF) variant: 96-bit nonce, 32-bit block
    /// counter in word 12, the layout this implementation uses. The crate's other
    /// variant, `ChaCha20Legacy` (original Bernstein: 64-bit counter in words 12-13,
    /// 64-bit nonce), puts its counter's high word where this stream has the nonce's
    /// first four bytes, which the shuffle fills with the stream id: it would agree for
    /// the deal (stream 0) and for no reshuffle. Every fifth case uses the shuffle's own
    /// nonce shape (stream id, then eight zero bytes).
    ///
    /// The crate stops before block 2^32 - 1 and this stream asserts it never reaches it
    /// (see `refill`), so the last block compared is 2^32 - 2.
    ///
    /// The cases come from a fixed seed: a failure names its case and reproduces.
    #[test]
    fn keystream_matches_rustcrypto_chacha20() {
        use chacha20::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};

        const BLOCK_BYTES: u64 = 64;
        let mut rng = SmallRng::seed_from_u64(0x6368_6163_6861_3230);
        for case in 0..3_000 {
            let mut key = [0u8; 32];
            let mut nonce = [0u8; 12];
            rng.fill(&mut key[..]);
            if case % 5 == 4 {
                nonce[..4].copy_from_slice(&rng.random_range(0u32..8).to_le_bytes());
            } else {
                rng.fill(&mut nonce[..]);
            }
            let blocks: u32 = rng.random_range(1..=5);
            let words = (blocks as usize - 1) * BLOCK_WORDS + rng.random_range(1..=BLOCK_WORDS);
            // The last counter both streams still produce: 2^32 - 2.
            let last_start = u32::MAX - blocks;
            let counter = match case % 4 {
                0 => rng.random_range(0..16),
                1 | 2 => rng.random_range(0..=last_start),
                _ => last_start - rng.random_range(0..4),
            };

            let mut ours = ChaCha20Stream::with_counter(&key, &nonce, counter);
            let ours: Vec<u8> = (0..words)
                .flat_map(|_| ours.next_u32().to_le_bytes())
                .collect();

            let mut theirs = chacha20::ChaCha20::new(&key.into(), &nonce.into());
            theirs.seek(u64::from(counter) * BLOCK_BYTES);
            let mut expected = vec![0u8; words * 4];
            theirs.apply_keystream(&mut expected);

            assert!(
                ours == expected,
                "case {case}: key {key:02x?}, nonce {nonce:02x?}, counter {counter}, \
                 {words} words: the keystreams differ"
            );
        }
    }

    /// `new` starts at block 0: its second block is the block at counter 1.
    #[test]
    fn new_starts_at_counter_zero() {
        let nonce = [0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0];
        let mut from_zero = ChaCha20Stream::new(&rfc_key(), &nonce);
        let mut from_one = ChaCha20Stream::with_counter(&rfc_key(), &nonce, 1);
        for _ in 0..16 {
            from_zero.next_u32();
        }
        for _ in 0..64 {
            assert_eq!(from_zero.next_u32(), from_one.next_u32());
        }
    }
}
