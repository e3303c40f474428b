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
    InconsistentTables { reason: TableInconsistency },
    /// A route end that no region holds and no region centroid is near (`which`: the
    /// option naming the point, `--from` or `--to`).
    #[error("{which}: no region holds the point and no region centroid is within {within} units")]
    NoRegion { which: String, within: f64 },
}

/// Where NWN2's stored path tables contradict themselves or the mesh: each is a sign of stale
/// or broken tables, reported as a warning of the engine's route.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TableInconsistency {
    #[error("triangle {triangle} belongs to no island")]
    NoIsland { triangle: u32 },
    #[error("triangle {triangle} lies in no tile")]
    NoTile { triangle: u32 },
    #[error("triangles {from} and {to} share an island but not a tile")]
    TilesDiffer { from: u32, to: u32 },
    #[error("triangle {triangle} is not a node of its tile's path table")]
    NotANode { triangle: u32 },
    #[error("the path table of tile {tile} is short")]
    ShortPathTable { tile: u32 },
    #[error("the path table of tile {tile} names node {node}")]
    UnknownNode { tile: u32, node: u8 },
    #[error("the path table loops from triangle {from} to {to}")]
    ChainLoops { from: u32, to: u32 },
    #[error(
        "the path table of triangle {from}'s tile has no path to the exit triangle {exit} its island lists"
    )]
    NoPathToExit { from: u32, exit: u32 },
    #[error("the path table has no path from triangle {from} to {to} in one island")]
    NoPathInIsland { from: u32, to: u32 },
    #[error("the island path table loops from island {from} to {to}")]
    IslandOrderLoops { from: u16, to: u16 },
    #[error("no island path entry for {from} → {to}")]
    NoIslandPathEntry { from: u16, to: u16 },
    #[error("island {island} is missing")]
    IslandMissing { island: u16 },
    #[error("island {from} lists no exit towards island {to}")]
    NoExitTowards { from: u16, to: u16 },
    #[error("exit triangle {exit} is missing")]
    ExitMissing { exit: u32 },
    #[error("exit triangle {exit} has no neighbour in island {island}")]
    ExitWithoutNeighbour { exit: u32, island: u16 },
}

impl walkmesh_core::Kinded for RouteError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        use walkmesh_core::ErrorKind;
        match self {
            RouteError::TablesNotStored { .. } => ErrorKind::Unsupported,
            RouteError::Read(error) => error.kind,
            RouteError::InconsistentTables { .. } => ErrorKind::Invalid,
            RouteError::NoRegion { .. } => ErrorKind::Parameter,
        }
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
        let stale = RouteError::InconsistentTables {
            reason: TableInconsistency::NoPathToExit { from: 4, exit: 9 },
        };
        assert_eq!(
            stale.to_string(),
            "the path table of triangle 4's tile has no path to the exit triangle 9 its island lists"
        );
        let missing = RouteError::TablesNotStored {
            tables: "PATH",
            file: "PATH",
        };
        assert_eq!(
            missing.to_string(),
            "the stored PATH tables are not available (not a PATH file as read)"
        );
    }
}
