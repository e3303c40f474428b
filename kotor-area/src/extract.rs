//! Which members of a module archive to extract (`walkmesh area extract`): every member, or
//! every member answering one of the names asked for, refused when two would go to one file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use walkmesh_core::printable;

use crate::erf::{Archive, Member, split_file_name};

/// Why the members asked for cannot be extracted; nothing is written then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChooseError {
    /// No member answers `name`.
    NoMember { archive: PathBuf, name: String },
    /// Two members chosen have the same name (ignoring ASCII case, as the games and
    /// case-insensitive file systems do): the second would silently replace the first.
    Repeated {
        archive: PathBuf,
        name: String,
        first: usize,
        second: usize,
    },
}

impl std::fmt::Display for ChooseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChooseError::NoMember { archive, name } => {
                write!(f, "{} has no member {name}", archive.display())
            }
            ChooseError::Repeated {
                archive,
                name,
                first,
                second,
            } => write!(
                f,
                "{} holds two members named \"{}\" (entries {first} and {second}); extracting both would write one over the other, so nothing was written",
                printable::escape(&archive.to_string_lossy()),
                printable::escape(name),
            ),
        }
    }
}

impl std::error::Error for ChooseError {}

/// The members of `archive` (read from `path`, named in errors) to extract, in archive order:
/// all of them when `names` is empty, else every member answering one of `names`
/// (`name.ext` or `name.<type id>`, as [`Archive::find`] matches, but every match; a member
/// asked for twice counts once). Two members that would go to one file are refused.
pub fn chosen_members<'a>(
    archive: &'a Archive,
    names: &[String],
    path: &Path,
) -> Result<Vec<&'a Member>, ChooseError> {
    let chosen = matching(archive, names, path)?;
    refuse_repeated_names(&chosen, path)?;
    Ok(chosen.into_iter().map(|(_, member)| member).collect())
}

/// The members answering `names`, with their entry numbers.
fn matching<'a>(
    archive: &'a Archive,
    names: &[String],
    path: &Path,
) -> Result<Vec<(usize, &'a Member)>, ChooseError> {
    if names.is_empty() {
        return Ok(archive.members.iter().enumerate().collect());
    }
    let mut chosen = Vec::new();
    for name in names {
        let wanted = split_file_name(name);
        let matching: Vec<_> = archive
            .members
            .iter()
            .enumerate()
            .filter(|(_, m)| {
                wanted.is_some_and(|(n, type_id)| {
                    m.type_id == type_id && m.name.eq_ignore_ascii_case(n)
                })
            })
            .collect();
        if matching.is_empty() {
            return Err(ChooseError::NoMember {
                archive: path.to_path_buf(),
                name: name.clone(),
            });
        }
        chosen.extend(matching);
    }
    chosen.sort_by_key(|(entry, _)| *entry);
    chosen.dedup_by_key(|(entry, _)| *entry);
    Ok(chosen)
}

fn refuse_repeated_names(chosen: &[(usize, &Member)], path: &Path) -> Result<(), ChooseError> {
    let mut first_entry: HashMap<String, usize> = HashMap::new();
    for (entry, member) in chosen {
        let name = member.file_name();
        if let Some(first) = first_entry.insert(name.to_ascii_lowercase(), *entry) {
            return Err(ChooseError::Repeated {
                archive: path.to_path_buf(),
                name,
                first,
                second: *entry,
            });
        }
    }
    Ok(())
}

impl walkmesh_core::Kinded for ChooseError {
    /// A member name the caller gave that the archive does not hold once.
    fn kind(&self) -> walkmesh_core::ErrorKind {
        walkmesh_core::ErrorKind::Parameter
    }
}
