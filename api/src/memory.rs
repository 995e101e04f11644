//! The allocator's one setting the server cannot do without.
//!
//! glibc serves a request of 128 KiB or more with a mapping of its own, returned to
//! the system when freed, but it raises that threshold to the size of each such block
//! freed (up to 32 MiB). After the first argon2 hash (a 19 MiB block) every later one
//! comes from the heap, where the small allocations around it keep it from ever being
//! given back: 21 registrations and 21 log-ins at once took a release server from 56 MB
//! resident to 741 MB, for good, and 20 tables played with a spectator each held it at
//! 231 MB. With the threshold fixed at 128 KiB the same burst leaves it at 58 MB and
//! the same tables at 75 MB (BENCHMARKS.md, "Memory under load").
//!
//! The threshold is read from the environment when the process starts, so the server
//! sets `MALLOC_MMAP_THRESHOLD_` and starts itself again, once, before doing anything
//! else. An operator who sets the variable (or `GLIBC_TUNABLES`) keeps their value.

/// The environment variable glibc reads the threshold from, and the value set.
pub const MMAP_THRESHOLD_VARIABLE: &str = "MALLOC_MMAP_THRESHOLD_";
pub const MMAP_THRESHOLD_BYTES: &str = "131072";

/// Whether the process must start again to fix the threshold, given the value of
/// `MALLOC_MMAP_THRESHOLD_` and of `GLIBC_TUNABLES` it started with.
pub fn needs_restart(threshold: Option<&str>, tunables: Option<&str>) -> bool {
    let tuned_elsewhere = tunables.is_some_and(|t| t.contains("glibc.malloc.mmap_threshold"));
    cfg!(all(target_os = "linux", target_env = "gnu")) && threshold.is_none() && !tuned_elsewhere
}

/// Starts this program again with the threshold fixed, when it is not; returns only
/// when it need not (or the new start failed, which is logged by the caller's
/// fallback: the server then runs on glibc's defaults).
#[cfg(unix)]
pub fn fix_threshold_or_restart() -> Result<(), std::io::Error> {
    use std::os::unix::process::CommandExt;
    let threshold = std::env::var(MMAP_THRESHOLD_VARIABLE).ok();
    let tunables = std::env::var("GLIBC_TUNABLES").ok();
    if !needs_restart(threshold.as_deref(), tunables.as_deref()) {
        return Ok(());
    }
    let program = std::env::current_exe()?;
    // `exec` replaces this process (same id, same open files); it returns only on
    // failure.
    Err(std::process::Command::new(program)
        .args(std::env::args_os().skip(1))
        .env(MMAP_THRESHOLD_VARIABLE, MMAP_THRESHOLD_BYTES)
        .exec())
}

#[cfg(not(unix))]
pub fn fix_threshold_or_restart() -> Result<(), std::io::Error> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_starts_again_only_when_nobody_set_the_threshold() {
        let on_glibc = cfg!(all(target_os = "linux", target_env = "gnu"));
        assert_eq!(needs_restart(None, None), on_glibc);
        assert!(!needs_restart(Some("131072"), None));
        assert!(
            !needs_restart(Some(""), None),
            "an operator's value is kept"
        );
        assert!(!needs_restart(
            None,
            Some("glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=262144")
        ));
        assert_eq!(
            needs_restart(None, Some("glibc.malloc.arena_max=2")),
            on_glibc
        );
    }
}
