//! The error of the research kit's library functions ([`ResearchError`]): its variant says
//! what kind of failure it is, its text is the sentence the CLI prints.

use std::path::PathBuf;

use walkmesh_core::ReadError;
use walkmesh_core::format::DetectError;

/// Why a field diff or corpus statistics could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ResearchError {
    /// A file did not parse (the error names the file).
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A path given does not exist.
    #[error("{}: no such file or folder", path.display())]
    NotFound { path: PathBuf },
    /// A path's metadata could not be read.
    #[error("{}: {source}", path.display())]
    Metadata {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A folder could not be listed.
    #[error("{}: cannot list: {source}", path.display())]
    List {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A path given that is neither a folder nor a regular file (`kind`: "a FIFO", …).
    #[error("{}: not a regular file: {kind}", path.display())]
    NotRegularFile { path: PathBuf, kind: &'static str },
    /// The worker threads could not be started.
    #[error("cannot start {threads} worker thread(s): {reason}")]
    Threads { threads: usize, reason: String },
    /// File B has more stored fields than the limit (`--field-limit`).
    #[error(
        "{}: {fields} stored fields, more than {limit}; the field diff keeps a digest of each (about 180 bytes), so it stops at --field-limit {limit}",
        file.display()
    )]
    TooManyFields {
        file: PathBuf,
        fields: usize,
        limit: usize,
    },
    /// File A differs from B in the limit's number of fields or more.
    #[error(
        "{}: {limit} or more of its stored fields differ from {}; the field diff keeps each difference, so it stops at --field-limit {limit}",
        file.display(),
        other.display()
    )]
    TooManyDifferences {
        file: PathBuf,
        other: PathBuf,
        limit: usize,
    },
    /// A file has the limit's number of table records or more to align.
    #[error(
        "{}: {limit} or more records to align; the field diff stops at --field-limit {limit} (--by-index compares without aligning)",
        file.display()
    )]
    TooManyRecords { file: PathBuf, limit: usize },
}

/// Why one file of a corpus was not counted: the statistics list it as skipped, with this
/// text as the reason.
#[derive(Debug, thiserror::Error)]
pub enum SkipReason {
    #[error("cannot read: {0}")]
    Unreadable(#[source] std::io::Error),
    #[error("not a walkmesh: {0}")]
    NotAWalkmesh(#[source] DetectError),
    #[error("the {format} format has no field dump")]
    NoFieldDump { format: &'static str },
    #[error("cannot be dumped: {0}")]
    Undumpable(#[source] ReadError),
    /// A folder entry that is not a regular file (`kind`: "a FIFO", …).
    #[error("not a regular file: {kind}")]
    NotRegularFile { kind: &'static str },
}

impl walkmesh_core::Kinded for ResearchError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        use walkmesh_core::ErrorKind;
        match self {
            ResearchError::Read(error) => error.kind,
            ResearchError::NotFound { .. }
            | ResearchError::Metadata { .. }
            | ResearchError::List { .. }
            | ResearchError::NotRegularFile { .. }
            | ResearchError::Threads { .. } => ErrorKind::Io,
            ResearchError::TooManyFields { .. }
            | ResearchError::TooManyDifferences { .. }
            | ResearchError::TooManyRecords { .. } => ErrorKind::Limit,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_reasons_are_the_sentences_the_statistics_listed() {
        let unreadable = SkipReason::Unreadable(std::io::Error::other("disk on fire"));
        assert_eq!(unreadable.to_string(), "cannot read: disk on fire");
        let no_dump = SkipReason::NoFieldDump { format: "obj" };
        assert_eq!(no_dump.to_string(), "the obj format has no field dump");
        let fifo = SkipReason::NotRegularFile { kind: "a FIFO" };
        assert_eq!(fifo.to_string(), "not a regular file: a FIFO");
        let broken = ReadError::whole("header", "too short");
        let expected = format!("cannot be dumped: {broken}");
        assert_eq!(SkipReason::Undumpable(broken).to_string(), expected);
    }
}
