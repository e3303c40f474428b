//! Memory budgets of the steps whose memory grows faster than their input, or is large per
//! input element (PATH cooking, NWN2 island path tables, rendered pictures): each estimates
//! its need before allocating and refuses above a limit, so that a hostile or oversized input
//! fails with a message instead of exhausting the machine.
//!
//! The limit is the write parameter [`PARAM_MAX_MEMORY`] (MiB), which the CLI's
//! `--max-memory MIB` sets; without it, [`DEFAULT_MAX_MEMORY_MIB`].

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
        None => Ok(DEFAULT_MAX_MEMORY_MIB),
        Some(text) => match text.trim().parse::<u64>() {
            Ok(mib) if mib > 0 => Ok(mib),
            _ => Err(WriteError::new(
                PARAM_MAX_MEMORY,
                format!("'{text}' is not a memory limit: give a whole number of MiB above 0"),
            )),
        },
    }
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
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_defaults_and_parses() {
        let mut options = WriteOptions::default();
        assert_eq!(limit_mib(&options).unwrap(), DEFAULT_MAX_MEMORY_MIB);
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
}
