//! The error of the engine-table functions ([`RouteError`]): its variant says what kind of
//! failure it is, its text is the sentence the CLI prints.

use walkmesh_core::ReadError;

/// Why the engine's stored tables gave no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RouteError {
    /// The mesh was not read from a file that stores the tables, or changed since
    /// (`tables`: "path", "PATH"; `file`: "TRX", "PATH").
    #[error("the stored {tables} tables are not available (not a {file} file as read)")]
    TablesNotStored {
        tables: &'static str,
        file: &'static str,
    },
    /// The stored tables did not parse.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The tables contradict themselves or the mesh (stale or broken tables); `reason` says
    /// where.
    #[error("{reason}")]
    InconsistentTables { reason: String },
    /// A route end that no region holds and no region centroid is near (`which`: the
    /// option naming the point, `--from` or `--to`).
    #[error("{which}: no region holds the point and no region centroid is within {within} units")]
    NoRegion { which: String, within: f64 },
}

impl From<RouteError> for String {
    fn from(error: RouteError) -> String {
        error.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_the_sentences_the_cli_printed() {
        let far = RouteError::NoRegion {
            which: "--from".into(),
            within: 10.0,
        };
        assert_eq!(
            far.to_string(),
            "--from: no region holds the point and no region centroid is within 10 units"
        );
        let missing = RouteError::TablesNotStored {
            tables: "PATH",
            file: "PATH",
        };
        assert_eq!(
            String::from(missing),
            "the stored PATH tables are not available (not a PATH file as read)"
        );
    }
}
