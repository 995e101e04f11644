//! The Merkle root of a checkpoint, as documented in `docs/checkpoints.md`:
//!
//! ```text
//! leaf  = SHA-256( "yaniv/checkpoint/leaf/v1\0" ‖ u64be(len(stream_id)) ‖ stream_id
//!                  ‖ u64be(version) ‖ head_hash )
//! node  = SHA-256( "yaniv/checkpoint/node/v1\0" ‖ left ‖ right )
//! empty = SHA-256( "yaniv/checkpoint/empty/v1\0" )
//! ```
//!
//! Leaves are in the byte order of the stream ids. Each level pairs its nodes left to
//! right; an odd last node goes up unchanged. The tags keep a leaf from ever being
//! read as a node (or a node of another structure), so no two different lists of
//! heads share a root.

use sha2::{Digest, Sha256};

use crate::chain::Hash;

const LEAF_TAG: &[u8] = b"yaniv/checkpoint/leaf/v1\0";
const NODE_TAG: &[u8] = b"yaniv/checkpoint/node/v1\0";
const EMPTY_TAG: &[u8] = b"yaniv/checkpoint/empty/v1\0";

/// One stream's head, as a checkpoint records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadLeaf<'a> {
    pub stream_id: &'a str,
    pub version: u64,
    pub hash: &'a Hash,
}

/// The leaf hash of one head.
pub fn leaf(head: &HeadLeaf<'_>) -> Hash {
    let mut h = Sha256::new();
    h.update(LEAF_TAG);
    h.update((head.stream_id.len() as u64).to_be_bytes());
    h.update(head.stream_id.as_bytes());
    h.update(head.version.to_be_bytes());
    h.update(head.hash);
    h.finalize().into()
}

fn node(left: &Hash, right: &Hash) -> Hash {
    let mut h = Sha256::new();
    h.update(NODE_TAG);
    h.update(left);
    h.update(right);
    h.finalize().into()
}

/// The root over `heads`, which must be sorted by stream id (bytes) and unique.
pub fn root(heads: &[HeadLeaf<'_>]) -> Hash {
    let leaves: Vec<Hash> = heads.iter().map(leaf).collect();
    root_of_leaves(leaves)
}

/// The root over leaf hashes already computed (in the order of their heads).
pub fn root_of_leaves(leaves: Vec<Hash>) -> Hash {
    if leaves.is_empty() {
        return Sha256::digest(EMPTY_TAG).into();
    }
    let mut level = leaves;
    while level.len() > 1 {
        level = next_level(&level);
    }
    level.first().copied().unwrap_or_default()
}

fn next_level(level: &[Hash]) -> Vec<Hash> {
    let mut pairs = level.chunks_exact(2);
    let mut next: Vec<Hash> = pairs.by_ref().map(|p| node(&p[0], &p[1])).collect();
    next.extend_from_slice(pairs.remainder());
    next
}

/// One step from a leaf towards the root: the sibling it is hashed with, on its side.
/// A level where the path's value has no sibling (the odd last one) adds no step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofStep {
    /// `node(sibling, value)`.
    Left(Hash),
    /// `node(value, sibling)`.
    Right(Hash),
}

/// The path from leaf `index` of `heads` to their root: with it, one head shows that
/// it is in a checkpoint without the checkpoint's other heads. `None` when `index` is
/// out of range.
pub fn proof(heads: &[HeadLeaf<'_>], index: usize) -> Option<Vec<ProofStep>> {
    if index >= heads.len() {
        return None;
    }
    let mut steps = Vec::new();
    let mut level: Vec<Hash> = heads.iter().map(leaf).collect();
    let mut at = index;
    while level.len() > 1 {
        let sibling = at ^ 1;
        if let Some(hash) = level.get(sibling) {
            steps.push(if sibling < at {
                ProofStep::Left(*hash)
            } else {
                ProofStep::Right(*hash)
            });
        }
        level = next_level(&level);
        at /= 2;
    }
    Some(steps)
}

/// The root a head and its proof lead to: the checkpoint's root when the head is in it.
pub fn root_from_proof(head: &HeadLeaf<'_>, steps: &[ProofStep]) -> Hash {
    steps.iter().fold(leaf(head), |value, step| match step {
        ProofStep::Left(sibling) => node(sibling, &value),
        ProofStep::Right(sibling) => node(&value, sibling),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sha(parts: &[&[u8]]) -> Hash {
        let mut h = Sha256::new();
        for part in parts {
            h.update(part);
        }
        h.finalize().into()
    }

    /// The root written out from the documentation, step by step, for three heads.
    #[test]
    fn the_root_is_the_documented_one() {
        let (a, b, c) = ([1u8; 32], [2u8; 32], [3u8; 32]);
        let heads = [
            HeadLeaf {
                stream_id: "table-1",
                version: 9,
                hash: &a,
            },
            HeadLeaf {
                stream_id: "table-2",
                version: 4,
                hash: &b,
            },
            HeadLeaf {
                stream_id: "tournament-1",
                version: 30,
                hash: &c,
            },
        ];
        let leaf = |id: &str, version: u64, hash: &Hash| {
            sha(&[
                b"yaniv/checkpoint/leaf/v1\0",
                &(id.len() as u64).to_be_bytes(),
                id.as_bytes(),
                &version.to_be_bytes(),
                hash,
            ])
        };
        let node = |l: &Hash, r: &Hash| sha(&[b"yaniv/checkpoint/node/v1\0", l, r]);
        let expected = node(
            &node(&leaf("table-1", 9, &a), &leaf("table-2", 4, &b)),
            &leaf("tournament-1", 30, &c),
        );
        assert_eq!(root(&heads), expected);
        assert_eq!(root(&[]), sha(&[b"yaniv/checkpoint/empty/v1\0"]));
        assert_eq!(root(&heads[..1]), leaf("table-1", 9, &a));
    }

    #[test]
    fn every_head_proves_itself_into_the_root_and_no_other_head_does() {
        let hashes: Vec<Hash> = (0..7u8).map(|i| [i; 32]).collect();
        let ids: Vec<String> = (0..7).map(|i| format!("table-{i}")).collect();
        for count in 1..=7 {
            let heads: Vec<HeadLeaf<'_>> = (0..count)
                .map(|i| HeadLeaf {
                    stream_id: &ids[i],
                    version: i as u64 + 1,
                    hash: &hashes[i],
                })
                .collect();
            let expected = root(&heads);
            for (index, head) in heads.iter().enumerate() {
                let steps = proof(&heads, index).expect("in range");
                assert_eq!(
                    root_from_proof(head, &steps),
                    expected,
                    "{count} heads, {index}"
                );
                let mut later = head.clone();
                later.version += 1;
                assert_ne!(root_from_proof(&later, &steps), expected);
            }
            assert_eq!(proof(&heads, count), None);
        }
    }

    #[test]
    fn any_change_of_a_head_changes_the_root() {
        let (a, b) = ([1u8; 32], [2u8; 32]);
        let heads = [
            HeadLeaf {
                stream_id: "s1",
                version: 3,
                hash: &a,
            },
            HeadLeaf {
                stream_id: "s2",
                version: 5,
                hash: &b,
            },
        ];
        let base = root(&heads);
        let mut shorter = heads.clone();
        shorter[1].version = 4;
        assert_ne!(root(&shorter), base);
        let mut rewritten = heads.clone();
        rewritten[0].hash = &b;
        assert_ne!(root(&rewritten), base);
        assert_ne!(root(&heads[..1]), base);
    }
}
