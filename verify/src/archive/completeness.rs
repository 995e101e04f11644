//! An archive proves where each of its streams ended when it was exported: some
//! checkpoint in it records the stream at its last exported version
//! (`docs/verification.md` 1.3 and 20.3). Without one, a stream's deleted tail, the
//! tournament's last event among them, would leave nothing to tell.

use super::failure::ArchiveFailure;

/// What the check needs of one archived stream.
pub(crate) struct ExportedStream<'a> {
    pub stream_id: &'a str,
    /// The stream's last exported version (0: no event).
    pub last_version: u64,
    /// The versions the archive's checkpoints record it at, their paths checked.
    pub checkpointed: &'a mut dyn Iterator<Item = u64>,
    /// A stream cut before a round in play holds back its head (1.3): it proves
    /// nothing about its tail until the round is over.
    pub sealed: bool,
}

/// `archive_head_not_checkpointed` at the stream's last version when no checkpoint
/// records it there or later (a later one is `truncated_since_checkpoint`'s to name).
pub(crate) fn check(stream: ExportedStream<'_>) -> Option<ArchiveFailure> {
    if stream.sealed || stream.last_version == 0 {
        return None;
    }
    let highest = stream.checkpointed.max().unwrap_or(0);
    (highest < stream.last_version).then(|| ArchiveFailure {
        stream_id: stream.stream_id.to_owned(),
        version: stream.last_version,
        check: "checkpoints",
        code: "archive_head_not_checkpointed".into(),
        reason: if highest == 0 {
            "no checkpoint in the archive records this stream: nothing shows that it \
             ended here when it was exported"
                .into()
        } else {
            format!(
                "the archive's checkpoints record this stream up to version {highest} \
                 only: nothing shows that it ended here when it was exported"
            )
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(last_version: u64, at: &[u64], sealed: bool) -> Option<ArchiveFailure> {
        check(ExportedStream {
            stream_id: "tournament-1",
            last_version,
            checkpointed: &mut at.iter().copied(),
            sealed,
        })
    }

    /// verification.md 1.3: "Some checkpoint in `checkpoints` must record each
    /// stream at its last version".
    #[test]
    fn a_stream_recorded_at_its_last_version_passes_and_one_recorded_earlier_fails() {
        assert_eq!(checked(22, &[9, 22], false), None);
        let short = checked(22, &[9, 21], false).expect("a finding");
        assert_eq!(
            (short.version, short.code.as_str(), short.check),
            (22, "archive_head_not_checkpointed", "checkpoints")
        );
        let none = checked(22, &[], false).expect("a finding");
        assert_eq!(none.version, 22);
    }

    /// verification.md 1.3: "a stream recorded past its last version is
    /// `truncated_since_checkpoint`'s (20.3), not this finding's"; "A stream with
    /// `sealed_from`, or with no event, is exempt".
    #[test]
    fn a_later_head_a_sealed_stream_and_an_empty_one_are_left_to_other_checks() {
        assert_eq!(checked(22, &[23], false), None);
        assert_eq!(checked(22, &[], true), None);
        assert_eq!(checked(0, &[], false), None);
    }
}
