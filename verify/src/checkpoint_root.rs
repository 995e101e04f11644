//! A checkpoint's root recomputed from the heads stored with it, and what a root that
//! no longer comes out says about one stream.
//!
//! The root is what gets published; the heads are rows of the database. Someone who
//! deletes a stream's row from `checkpoint_heads` takes that checkpoint's word about
//! the stream away: [`crate::checkpoint::check_stream`] then finds nothing to compare.
//! The root still remembers the row. Recomputed from the heads left, it no longer
//! comes out; with the head the stream had then put back, it does again, which names
//! the stream and the version removed (`checkpoint_head_removed`, reported for that
//! stream only: the other streams of the checkpoint are proven by the same root). A
//! head row changed in place, or more than one removed, gives a root that no single
//! head puts right: the checkpoint can no longer say which of its streams it vouches
//! for (`checkpoint_root_mismatch`, for every stream it lists); compare its root with
//! the one published outside the database.

use crate::chain::Hash;
use crate::checkpoint::{Checkpoint, Head};
use crate::merkle::{self, HeadLeaf};
use crate::report::{VerifyFailure, failure};
use crate::row::Row;

/// What a checkpoint's stored heads say of its root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootCheck {
    /// They give the root.
    Holds,
    /// They give it once this head is put back: its row was deleted.
    Removed(Head),
    /// No head tried puts it right.
    Unexplained,
}

fn leaf_of(head: &Head) -> Hash {
    merkle::leaf(&HeadLeaf {
        stream_id: &head.stream_id,
        version: head.version,
        hash: &head.head_hash,
    })
}

/// Recomputes `checkpoint`'s root from its heads; when it does not come out, tries
/// each of `candidates` (heads of streams it does not list) put back in its place.
pub fn check_root(checkpoint: &Checkpoint, candidates: &[Head]) -> RootCheck {
    let leaves: Vec<Hash> = checkpoint.heads.iter().map(leaf_of).collect();
    if merkle::root_of_leaves(leaves.clone()) == checkpoint.root {
        return RootCheck::Holds;
    }
    for candidate in candidates {
        let id = candidate.stream_id.as_bytes();
        let at = checkpoint
            .heads
            .partition_point(|h| h.stream_id.as_bytes() < id);
        if checkpoint
            .heads
            .get(at)
            .is_some_and(|h| h.stream_id == candidate.stream_id)
        {
            continue;
        }
        let mut restored = leaves.clone();
        restored.insert(at, leaf_of(candidate));
        if merkle::root_of_leaves(restored) == checkpoint.root {
            return RootCheck::Removed(candidate.clone());
        }
    }
    RootCheck::Unexplained
}

/// `checkpoint` with `removed` put back among its heads, in byte order of ids.
pub fn restore(checkpoint: &mut Checkpoint, removed: Head) {
    let id = removed.stream_id.as_bytes().to_vec();
    let at = checkpoint
        .heads
        .partition_point(|h| h.stream_id.as_bytes() < id.as_slice());
    checkpoint.heads.insert(at, removed);
}

/// Every head `events` (of `stream_id`) ever had, the latest first: what a checkpoint
/// may have recorded of the stream.
pub fn heads_of<R: Row>(stream_id: &str, events: &[R]) -> Vec<Head> {
    events
        .iter()
        .rev()
        .map(|event| Head {
            stream_id: stream_id.to_owned(),
            version: event.version(),
            head_hash: *event.hash(),
        })
        .collect()
}

/// What `check` (of `checkpoint`, with the heads of `stream_id` among the candidates)
/// says against that stream: `None` when the root holds, or when it names another
/// stream's removed head, or when the checkpoint does not list this stream and cannot
/// say it did.
pub fn finding(
    stream_id: &str,
    checkpoint: &Checkpoint,
    check: &RootCheck,
) -> Option<VerifyFailure> {
    match check {
        RootCheck::Holds => None,
        RootCheck::Removed(head) if head.stream_id == stream_id => Some(failure(
            head.version,
            "checkpoint_head_removed",
            format!(
                "checkpoint {} of {} recorded version {} of this stream (its root comes out \
                 only with that head), but the head's row was deleted from checkpoint_heads",
                checkpoint.id, checkpoint.created_at, head.version
            ),
        )),
        RootCheck::Removed(_) => None,
        RootCheck::Unexplained => {
            let listed = checkpoint.heads.iter().find(|h| h.stream_id == stream_id)?;
            Some(failure(
                listed.version,
                "checkpoint_root_mismatch",
                format!(
                    "checkpoint {} of {} lists version {} of this stream, but its stored heads \
                     do not give its root: a head row was changed or removed; compare the root \
                     with the one published",
                    checkpoint.id, checkpoint.created_at, listed.version
                ),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use time::OffsetDateTime;

    use super::*;
    use crate::checkpoint::root_of;

    fn head(stream_id: &str, version: u64, byte: u8) -> Head {
        Head {
            stream_id: stream_id.into(),
            version,
            head_hash: [byte; 32],
        }
    }

    fn checkpoint(heads: Vec<Head>) -> Checkpoint {
        Checkpoint {
            id: 4,
            created_at: OffsetDateTime::UNIX_EPOCH,
            format: crate::checkpoint::FORMAT.into(),
            root: root_of(&heads),
            heads,
        }
    }

    fn three() -> Checkpoint {
        checkpoint(vec![
            head("table-1", 9, 1),
            head("table-2", 4, 2),
            head("tournament-1", 30, 3),
        ])
    }

    #[test]
    fn the_stored_heads_give_the_root() {
        assert_eq!(check_root(&three(), &[]), RootCheck::Holds);
        assert_eq!(finding("table-2", &three(), &RootCheck::Holds), None);
    }

    #[test]
    fn a_deleted_head_row_is_named_by_putting_it_back() {
        // docs/verification.md 20.5: "put back the head the stream had then: when the
        // root comes out, that stream's row was deleted (`checkpoint_head_removed`".
        // "The other streams of that checkpoint are proven by the same root and are not
        // blamed."
        let mut cut = three();
        cut.heads.remove(1);
        let table_two = [
            head("table-2", 5, 7),
            head("table-2", 4, 2),
            head("table-2", 3, 9),
        ];
        let check = check_root(&cut, &table_two);
        assert_eq!(check, RootCheck::Removed(head("table-2", 4, 2)));
        let named = finding("table-2", &cut, &check).expect("table-2 is named");
        assert_eq!(
            (named.version, named.code.as_str()),
            (4, "checkpoint_head_removed")
        );
        // The streams still listed are proven by the same root: none of them is blamed.
        assert_eq!(finding("tournament-1", &cut, &check), None);
        assert_eq!(finding("table-1", &cut, &check), None);
        restore(&mut cut, head("table-2", 4, 2));
        assert_eq!(cut, three());
    }

    #[test]
    fn a_head_changed_in_place_is_unexplained_for_every_stream_listed() {
        let mut changed = three();
        changed.heads[0].head_hash = [8; 32];
        let check = check_root(&changed, &[head("table-9", 1, 1)]);
        assert_eq!(check, RootCheck::Unexplained);
        let blamed = finding("tournament-1", &changed, &check).expect("listed");
        assert_eq!(
            (blamed.version, blamed.code.as_str()),
            (30, "checkpoint_root_mismatch")
        );
        assert_eq!(finding("table-9", &changed, &check), None, "not listed");
    }
}
