//! Memory budgets of the steps whose memory grows faster than their input, or is large per
//! input element (PATH cooking, NWN2 island path tables, rendered pictures): each estimates
//! its need before allocating and refuses above a limit, so that a hostile or oversized input
//! fails with a message instead of exhausting the machine.
//!
//! The limit is the write parameter [`PARAM_MAX_MEMORY`] (MiB), which the CLI's
//! `--max-memory MIB` sets; without it, [`default_max_memory_mib`]: [`DEFAULT_MAX_MEMORY_MIB`],
//! or less where the process may not have that much.

use std::sync::OnceLock;

use crate::{WriteError, WriteOptions};

/// Default limit: room for a 4M-triangle PATH cook (3.24 GiB measured for the whole process) on a machine
/// that has other work to do.
pub const DEFAULT_MAX_MEMORY_MIB: u64 = 4096;
/// Write parameter holding the limit in MiB (a positive integer).
pub const PARAM_MAX_MEMORY: &str = "max_memory_mib";
/// The option that raises the limit, named in refusals.
pub const OPTION: &str = "--max-memory MIB";

const MIB: u64 = 1024 * 1024;

/// The limit in MiB from `options` (or the default); an unreadable or zero value is an error
/// naming the parameter.
pub fn limit_mib(options: &WriteOptions) -> Result<u64, WriteError> {
    match options.params.get(PARAM_MAX_MEMORY) {
        None => Ok(default_max_memory_mib()),
        Some(text) => match text.trim().parse::<u64>() {
            Ok(mib) if mib > 0 => Ok(mib),
            _ => Err(WriteError::new(
                PARAM_MAX_MEMORY,
                format!("'{text}' is not a memory limit: give a whole number of MiB above 0"),
            )
            .with_kind(crate::ErrorKind::Parameter)),
        },
    }
}

/// The limit when none is given: [`DEFAULT_MAX_MEMORY_MIB`], lowered to what this process may
/// have, so that a step refuses by its estimate instead of aborting on an allocation the
/// system denies (issue #51: a `ulimit -v` of 2 GiB made a 4 GiB default useless).
///
/// Half the address-space limit (`ulimit -v`: it counts the program, thread stacks and the
/// allocator's reserved arenas too, and a growing vector briefly holds its old and new
/// buffers), three quarters of the control group's memory limit (a container's), and three
/// quarters of the machine's physical memory. Read once per process from Linux's `/proc` and
/// `/sys`; elsewhere, or when they cannot be read, [`DEFAULT_MAX_MEMORY_MIB`].
pub fn default_max_memory_mib() -> u64 {
    static DEFAULT: OnceLock<u64> = OnceLock::new();
    *DEFAULT.get_or_init(|| default_for(&system_limits()))
}

/// What limits the memory of this process, in bytes (`None`: no such limit found).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SystemLimits {
    /// The soft address-space limit (`RLIMIT_AS`).
    pub address_space: Option<u64>,
    /// The control group's memory limit (cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`).
    pub control_group: Option<u64>,
    /// The machine's physical memory (`MemTotal`).
    pub physical: Option<u64>,
}

/// [`default_max_memory_mib`] for the given limits: at least 64 MiB, so that a small job still
/// runs under a tight limit (and a refusal names an estimate, not a limit of zero).
pub fn default_for(limits: &SystemLimits) -> u64 {
    let shares = [
        limits.address_space.map(|bytes| bytes / 2),
        limits.control_group.map(|bytes| bytes / 4 * 3),
        limits.physical.map(|bytes| bytes / 4 * 3),
    ];
    shares
        .into_iter()
        .flatten()
        .map(|bytes| bytes / MIB)
        .fold(DEFAULT_MAX_MEMORY_MIB, u64::min)
        .max(64)
}

/// The limits of this process as Linux reports them; none elsewhere.
fn system_limits() -> SystemLimits {
    // Not read through `crate::files`: these describe the machine, they are not inputs.
    let text = |path: &str| std::fs::read_to_string(path).ok();
    SystemLimits {
        address_space: text("/proc/self/limits").and_then(|limits| address_space_limit(&limits)),
        control_group: text("/sys/fs/cgroup/memory.max")
            .or_else(|| text("/sys/fs/cgroup/memory/memory.limit_in_bytes"))
            .and_then(|limit| limit.trim().parse::<u64>().ok())
            // cgroup v1 writes "no limit" as a number near 2^63.
            .filter(|&bytes| bytes < 1 << 60),
        physical: text("/proc/meminfo").and_then(|meminfo| physical_memory(&meminfo)),
    }
}

/// The soft "Max address space" of a `/proc/self/limits` text, in bytes.
fn address_space_limit(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|line| line.starts_with("Max address space"))?;
    line.trim_start_matches("Max address space")
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
fn physical_memory(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|line| line.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Refuses when `estimate` bytes exceed `limit_mib`: the error (field `field`) names the step,
/// the estimate, the limit and [`OPTION`].
pub fn check(field: &str, what: &str, estimate: u64, limit_mib: u64) -> Result<(), WriteError> {
    if estimate <= limit_mib.saturating_mul(MIB) {
        return Ok(());
    }
    Err(WriteError::new(
        field,
        format!(
            "{what} needs an estimated {} MiB of memory, more than the limit of {limit_mib} MiB; raise the limit with {OPTION} (at least {})",
            estimate.div_ceil(MIB),
            estimate.div_ceil(MIB)
        ),
    )
    .with_kind(crate::ErrorKind::Limit))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_defaults_and_parses() {
        let mut options = WriteOptions::default();
        assert_eq!(limit_mib(&options).unwrap(), default_max_memory_mib());
        assert!(default_max_memory_mib() <= DEFAULT_MAX_MEMORY_MIB);
        options
            .params
            .insert(PARAM_MAX_MEMORY.into(), " 12 ".into());
        assert_eq!(limit_mib(&options).unwrap(), 12);
        for bad in ["0", "-1", "1.5", "lots"] {
            options.params.insert(PARAM_MAX_MEMORY.into(), bad.into());
            let error = limit_mib(&options).unwrap_err();
            assert_eq!(error.field, PARAM_MAX_MEMORY);
        }
    }

    #[test]
    fn estimates_above_the_limit_are_refused_by_name() {
        // 1 MiB fits a limit of 1 MiB; one byte more does not.
        assert!(check("f", "cooking", MIB, 1).is_ok());
        let error = check("f", "cooking", MIB + 1, 1).unwrap_err();
        assert_eq!(error.field, "f");
        assert!(
            error.message.contains("cooking needs an estimated 2 MiB"),
            "{}",
            error.message
        );
        assert!(
            error.message.contains("limit of 1 MiB"),
            "{}",
            error.message
        );
        assert!(error.message.contains("--max-memory"), "{}", error.message);
    }

    #[test]
    fn the_default_limit_follows_what_the_process_may_have() {
        const GIB: u64 = 1024 * MIB;
        // Nothing found, or plenty: the fixed default.
        assert_eq!(
            default_for(&SystemLimits::default()),
            DEFAULT_MAX_MEMORY_MIB
        );
        let roomy = SystemLimits {
            address_space: None,
            control_group: None,
            physical: Some(24 * GIB),
        };
        assert_eq!(default_for(&roomy), DEFAULT_MAX_MEMORY_MIB);
        // `ulimit -v 2097152` (2 GiB): half of it.
        let capped = SystemLimits {
            address_space: Some(2 * GIB),
            ..roomy
        };
        assert_eq!(default_for(&capped), 1024);
        // A 1 GiB container on that machine: three quarters of it, the smallest share.
        let contained = SystemLimits {
            control_group: Some(GIB),
            ..capped
        };
        assert_eq!(default_for(&contained), 768);
        // A 4 GiB laptop: three quarters of its memory.
        let laptop = SystemLimits {
            physical: Some(4 * GIB),
            ..SystemLimits::default()
        };
        assert_eq!(default_for(&laptop), 3072);
        // Never below 64 MiB.
        let tiny = SystemLimits {
            address_space: Some(MIB),
            ..SystemLimits::default()
        };
        assert_eq!(default_for(&tiny), 64);
    }

    #[test]
    fn proc_texts_are_read_as_linux_writes_them() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max stack size            8388608              unlimited            bytes     \n\
                      Max address space         2147483648           unlimited            bytes     \n";
        assert_eq!(address_space_limit(limits), Some(2 * 1024 * MIB));
        let unlimited =
            "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_limit(unlimited), None);
        let meminfo = "MemTotal:       24608052 kB\nMemFree:         1000 kB\n";
        assert_eq!(physical_memory(meminfo), Some(24_608_052 * 1024));
        assert_eq!(physical_memory("MemFree: 1 kB\n"), None);
    }
}
