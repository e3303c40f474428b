//! What a writer's *preserve* path does before it copies the bytes a mesh was read from.
//!
//! A writer re-emits the source file while the mesh's authored data is unchanged
//! ([`crate::NavMesh::fresh_provenance`]): the derived tables stored in it belong to that data.
//! They can still be wrong (a third-party tool's bugs, a damaged or forged file); copying them
//! would write a file our own validator rejects, and `convert`'s output check, which skips the
//! costly recomputation of tables its writer has just built, would not notice. So each writer
//! runs its format's validator on the stored bytes first and, when it finds errors, recomputes
//! every derived table from the mesh instead, saying so with one warning
//! (`<format>.stored_tables_rebuilt`). This module words that warning; which findings count and
//! what is recomputed stay with each format.

use crate::diag::{Diagnostic, Diagnostics, ReadError, Severity};

/// The errors a format's validator found in stored bytes, counted per code in order of first
/// appearance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredErrors {
    counted: Vec<(String, usize)>,
}

impl StoredErrors {
    /// The errors among `findings`, one per finding.
    pub fn from_findings(findings: &[Diagnostic]) -> StoredErrors {
        StoredErrors::counted(findings, |_| None)
    }

    /// The errors among `findings`, each code counted by `total(code)` where it answers:
    /// validators list only the first few findings of a code and then one line with the count,
    /// which `total` gives exactly.
    pub fn counted(findings: &[Diagnostic], total: impl Fn(&str) -> Option<usize>) -> StoredErrors {
        let mut errors = StoredErrors::default();
        let mut listed: Vec<(&str, usize)> = Vec::new();
        for finding in findings.iter().filter(|d| d.severity == Severity::Error) {
            match listed.iter_mut().find(|(code, _)| *code == finding.code) {
                Some((_, n)) => *n += 1,
                None => listed.push((&finding.code, 1)),
            }
        }
        for (code, n) in listed {
            errors.add(code, total(code).unwrap_or(n));
        }
        errors
    }

    /// Stored bytes the validator could not even parse (they were read, so this is rare): the
    /// error stands for every table.
    pub fn unreadable(error: &ReadError) -> StoredErrors {
        let mut errors = StoredErrors::default();
        errors.add(&error.to_string(), 1);
        errors
    }

    /// Counts `count` more errors of `code`.
    pub fn add(&mut self, code: &str, count: usize) {
        match self.counted.iter_mut().find(|(c, _)| c == code) {
            Some((_, n)) => *n += count,
            None => self.counted.push((code.to_string(), count)),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.counted.is_empty()
    }

    /// Errors of every code.
    pub fn total(&self) -> usize {
        self.counted.iter().map(|(_, n)| n).sum()
    }

    /// `code ×count` for each code (just `code` when it occurs once), comma-separated.
    pub fn summary(&self) -> String {
        self.counted
            .iter()
            .map(|(code, n)| {
                if *n > 1 {
                    format!("{code} ×{n}")
                } else {
                    code.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The preserve path's decision: `true` when there is no error and the stored bytes may be
    /// copied; otherwise the warning `code` (e.g. `trx.stored_tables_rebuilt`) is given, with
    /// the count and the codes, and `false` tells the writer to recompute every derived table.
    pub fn copy_or_warn(&self, diag: &mut Diagnostics, code: &str) -> bool {
        if self.is_empty() {
            return true;
        }
        diag.warn(
            code,
            format!(
                "the source's stored tables are invalid ({} error(s): {}); every derived table \
                 is recomputed from the mesh instead of copied",
                self.total(),
                self.summary()
            ),
        );
        false
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::diag::Position;

    fn findings(list: &[(Severity, &str)]) -> Vec<Diagnostic> {
        let mut diag = Diagnostics::new();
        for (severity, code) in list {
            diag.push(*severity, code, Position::None, None, "");
        }
        diag.items
    }

    #[test]
    fn no_error_allows_the_copy_without_a_word() {
        let found = findings(&[(Severity::Warning, "x.loose"), (Severity::Info, "x.note")]);
        let errors = StoredErrors::from_findings(&found);
        let mut diag = Diagnostics::new();
        assert!(errors.copy_or_warn(&mut diag, "x.stored_tables_rebuilt"));
        assert!(diag.items.is_empty());
    }

    #[test]
    fn errors_are_counted_per_code_in_order_and_warned_once() {
        let found = findings(&[
            (Severity::Error, "x.path_loop"),
            (Severity::Warning, "x.loose"),
            (Severity::Error, "x.path_next_not_adjacent"),
            (Severity::Error, "x.path_loop"),
        ]);
        let errors = StoredErrors::from_findings(&found);
        assert_eq!(errors.total(), 3);
        assert_eq!(errors.summary(), "x.path_loop ×2, x.path_next_not_adjacent");
        let mut diag = Diagnostics::new();
        assert!(!errors.copy_or_warn(&mut diag, "x.stored_tables_rebuilt"));
        assert_eq!(diag.items.len(), 1);
        let warning = &diag.items[0];
        assert_eq!(warning.severity, Severity::Warning);
        assert_eq!(warning.code, "x.stored_tables_rebuilt");
        assert!(
            warning
                .message
                .contains("(3 error(s): x.path_loop ×2, x.path_next_not_adjacent)")
        );
    }

    #[test]
    fn a_validators_own_totals_replace_the_listed_counts() {
        // 20 listed and the closing line: 21 findings of a code that occurred 500 times.
        let mut list = vec![(Severity::Error, "x.capped"); 21];
        list.push((Severity::Error, "x.other"));
        let errors =
            StoredErrors::counted(&findings(&list), |code| (code == "x.capped").then_some(500));
        assert_eq!(errors.summary(), "x.capped ×500, x.other");
        assert_eq!(errors.total(), 501);
    }

    #[test]
    fn unreadable_bytes_are_one_error_naming_the_problem() {
        let error = ReadError::at_offset(12, "header.count", "too large");
        let errors = StoredErrors::unreadable(&error);
        assert_eq!(errors.total(), 1);
        assert!(errors.summary().contains("too large"));
    }
}
