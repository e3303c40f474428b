//! [`MdlError`]: what went wrong, in which node, at which byte of which file, in which field.

use std::path::PathBuf;

use walkmesh_core::ReadError;
use walkmesh_core::printable::escape;

/// Which of the model's two files an offset counts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The `.mdl` file (offsets are file offsets, i.e. blob offset + 12).
    Mdl,
    /// The `.mdx` file (absolute offsets).
    Mdx,
}

/// The class of a reading failure, for callers that act on it (and tests that check it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MdlErrorKind {
    /// A structure or a counted array runs past the end of its file.
    Truncated,
    /// An offset or index points outside the data it must point into.
    OutOfRange,
    /// The node tree reaches a node twice (a child offset pointing back up the tree).
    Cycle,
    /// A coordinate or quaternion component is NaN or infinite (or a quaternion has no length).
    NonFinite,
    /// A value the reader does not support (ASCII model, Xbox model, unknown node type bits).
    Unsupported,
    /// A value that contradicts another one (sizes, counts, game of a mesh header).
    Inconsistent,
    /// The `.mdx` beside the model is missing or cannot be read.
    MissingMdx,
    /// The model has no walkmesh (AABB) node.
    NoWalkmesh,
    /// The `.mdl` itself cannot be read.
    Io,
}

/// A model that cannot be read: the file, the node (when the failure is inside one), the byte
/// offset and the field, and a sentence saying what is wrong.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub struct MdlError {
    pub kind: MdlErrorKind,
    /// The file, when known (the `read_*_file` functions fill it in).
    pub file: Option<PathBuf>,
    /// Name of the node the failure is in (`None` for the headers).
    pub node: Option<String>,
    /// Which file `offset` counts in.
    pub part: Part,
    /// Byte offset of the field in that file, when there is one.
    pub offset: Option<u64>,
    /// Field path (`mesh.faces.count`, `children[2]`).
    pub field: String,
    pub message: String,
}

impl MdlError {
    /// A failure at `offset` of the `.mdl`.
    pub fn at(
        kind: MdlErrorKind,
        offset: u64,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> MdlError {
        MdlError {
            kind,
            file: None,
            node: None,
            part: Part::Mdl,
            offset: Some(offset),
            field: field.into(),
            message: message.into(),
        }
    }

    /// A failure without a byte position (a missing file, a model without walkmesh).
    pub fn whole(kind: MdlErrorKind, field: impl Into<String>, message: impl Into<String>) -> Self {
        MdlError {
            kind,
            file: None,
            node: None,
            part: Part::Mdl,
            offset: None,
            field: field.into(),
            message: message.into(),
        }
    }

    /// The same failure, counted in the `.mdx`.
    pub fn in_mdx(mut self) -> MdlError {
        self.part = Part::Mdx;
        self
    }

    /// The same failure, inside node `name` (kept when already set: the innermost node wins).
    pub fn in_node(mut self, name: &str) -> MdlError {
        if self.node.is_none() {
            self.node = Some(name.to_string());
        }
        self
    }

    /// The same failure, in file `file`.
    pub fn in_file(mut self, file: impl Into<PathBuf>) -> MdlError {
        self.file = Some(file.into());
        self
    }

    /// The field path with the node in front, as [`ReadError`] shows it.
    fn qualified_field(&self) -> String {
        match &self.node {
            Some(node) => format!("node '{}' {}", escape(node), self.field),
            None => self.field.clone(),
        }
    }
}

impl std::fmt::Display for MdlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if let Some(file) = &self.file {
            parts.push(escape(&file.display().to_string()).into_owned());
        }
        if let Some(node) = &self.node {
            parts.push(format!("node '{}'", escape(node)));
        }
        if let Some(offset) = self.offset {
            let which = match self.part {
                Part::Mdl => "",
                Part::Mdx => ".mdx ",
            };
            parts.push(format!("{which}byte {offset:#x} ({offset})"));
        }
        if !self.field.is_empty() {
            parts.push(format!("field {}", self.field));
        }
        if parts.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", parts.join(", "), self.message)
        }
    }
}

impl From<MdlError> for ReadError {
    /// For the format registry: the node goes into the field path; an offset in the `.mdx`
    /// is named in the message, since [`ReadError`]'s offset means the file being read.
    fn from(error: MdlError) -> ReadError {
        let kind = walkmesh_core::Kinded::kind(&error);
        let field = error.qualified_field();
        let mut read_error = match (error.part, error.offset) {
            (Part::Mdl, Some(offset)) => ReadError::at_offset(offset, field, error.message),
            (Part::Mdx, Some(offset)) => ReadError::whole(
                field,
                format!("{} (.mdx byte {offset:#x} ({offset}))", error.message),
            ),
            (_, None) => ReadError::whole(field, error.message),
        };
        if let Some(file) = error.file {
            read_error = read_error.in_file(file);
        }
        read_error.with_kind(kind)
    }
}

impl walkmesh_core::Kinded for MdlError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        use walkmesh_core::ErrorKind;
        match self.kind {
            MdlErrorKind::Truncated => ErrorKind::Truncated,
            MdlErrorKind::OutOfRange
            | MdlErrorKind::Cycle
            | MdlErrorKind::NonFinite
            | MdlErrorKind::Inconsistent => ErrorKind::Invalid,
            // A model without a walkmesh node is a model, but not one a walkmesh comes from.
            MdlErrorKind::Unsupported | MdlErrorKind::NoWalkmesh => ErrorKind::Unsupported,
            MdlErrorKind::MissingMdx | MdlErrorKind::Io => ErrorKind::Io,
        }
    }
}
