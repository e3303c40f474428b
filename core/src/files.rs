//! Reading files, and knowing which files the running command read.
//!
//! An output must never replace a file the command reads (docs/robustness.md, "Outputs never
//! replace an input"). The files a command reads are not only those its arguments name: a
//! reader opens files beside them (a glTF's `.bin` buffers, a model's `.mdx`, an area's rooms
//! and layout, a material profile, a template). Listing them per command was forgotten where
//! a reader opened a file the command did not know of, so the list is kept here instead:
//! every library crate opens files through [`read`], [`read_to_string`] or [`open`], which
//! record the device and inode of the file opened, and the writer of outputs
//! (`walkmesh_pipeline::output`) refuses to replace a file that [`was_read`]. Device and
//! inode name the file itself, so a symbolic link, a hard link or another spelling of its
//! path (`sub/../room.mdx`) is the same file.
//!
//! The files are recorded in the running command's [`Scope`]. The command line runs each
//! command inside [`Scope::run`]; threads a command starts carry its scope ([`carried`]), so
//! a file read by one batch worker is not replaced by another. A thread outside any scope
//! records nothing: a library call outside a command has no output to protect, and a long
//! running process (the Python module) keeps no list growing.
//!
//! Why per command rather than one list per process: commands run side by side in one
//! process (the in-process tests, Python threads). With one list, one command would see the
//! reads of another, and an inode freed by one (a deleted temporary file) is soon given to a
//! file another creates, which would then be refused as "read"; nor could a command clear the
//! list without clearing the others'.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Device and inode of a file.
pub type FileId = (u64, u64);

/// The files one command read (see the module comment). Cloning gives another handle to the
/// same record, for a thread the command starts.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    read: Arc<Mutex<HashSet<FileId>>>,
}

thread_local! {
    /// The scope of the command running on this thread, if any.
    static CURRENT: RefCell<Option<Scope>> = const { RefCell::new(None) };
}

impl Scope {
    /// A new scope that has recorded nothing.
    pub fn new() -> Scope {
        Scope::default()
    }

    /// The scope of the command running on this thread (to hand to a thread it starts).
    pub fn current() -> Option<Scope> {
        CURRENT.with(|current| current.borrow().clone())
    }

    /// Runs `work` with this scope as the thread's own; the previous one is restored
    /// afterwards, also when `work` panics.
    pub fn run<R>(&self, work: impl FnOnce() -> R) -> R {
        within(Some(self.clone()), work)
    }

    fn ids(&self) -> MutexGuard<'_, HashSet<FileId>> {
        // A thread that panicked while recording leaves a usable set.
        self.read.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Runs `work` with `scope` (or none) as the thread's scope, restoring the previous one
/// afterwards, also when `work` panics: for work handed to a pool's threads with the
/// [`Scope::current`] of the thread that hands it over.
pub fn within<R>(scope: Option<Scope>, work: impl FnOnce() -> R) -> R {
    struct Restore(Option<Scope>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|current| *current.borrow_mut() = previous);
        }
    }
    let _restore = Restore(CURRENT.with(|current| current.replace(scope)));
    work()
}

/// `work`, made to run in the scope of the command running on this thread: for the closure of
/// a thread the command starts (`scope.spawn(files::carried(move || …))`), so that what the
/// thread reads counts for the command, and what it writes is checked against the command's
/// reads.
pub fn carried<R>(work: impl FnOnce() -> R) -> impl FnOnce() -> R {
    let scope = Scope::current();
    move || within(scope, work)
}

/// Runs `work` without recording what it reads: for reading back an output this command has
/// just staged, which is not an input (its files become the outputs themselves).
pub fn unrecorded<R>(work: impl FnOnce() -> R) -> R {
    within(None, work)
}

/// The identity of the file `metadata` describes (`None` where the platform has none).
#[cfg(unix)]
pub fn id(metadata: &Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some((metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
pub fn id(_metadata: &Metadata) -> Option<FileId> {
    None
}

/// The identity of what `path` names, following links.
pub fn id_of(path: &Path) -> Option<FileId> {
    std::fs::metadata(path).ok().as_ref().and_then(id)
}

fn record(metadata: &Metadata) {
    let Some(id) = id(metadata) else { return };
    CURRENT.with(|current| {
        if let Some(scope) = current.borrow().as_ref() {
            scope.ids().insert(id);
        }
    });
}

/// Opens `path` for reading, as [`File::open`], and records the file opened.
pub fn open(path: &Path) -> io::Result<File> {
    let file = File::open(path)?;
    // The identity of the open file, not of the name: a name swapped meanwhile is not what
    // was read.
    if let Ok(metadata) = file.metadata() {
        record(&metadata);
    }
    Ok(file)
}

/// The whole file at `path`, as [`std::fs::read`], recording the file read.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    let size = match file.metadata() {
        Ok(metadata) => {
            record(&metadata);
            usize::try_from(metadata.len()).unwrap_or(0)
        }
        Err(_) => 0,
    };
    let mut bytes = Vec::new();
    // The size is a hint (a file may grow or shrink while read); a size no allocation can
    // hold is an error, not an abort.
    bytes
        .try_reserve_exact(size)
        .map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e))?;
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The whole file at `path` as UTF-8 text, as [`std::fs::read_to_string`], recording the file
/// read.
pub fn read_to_string(path: &Path) -> io::Result<String> {
    String::from_utf8(read(path)?).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Records that the running command read what `path` names (following links), for a file
/// read by other means than this module.
pub fn note_read(path: &Path) {
    if let Ok(metadata) = std::fs::metadata(path) {
        record(&metadata);
    }
}

/// Forgets that the running command read what `path` names: for a command that replaces a
/// file it read on purpose (fixing files in place), just before it writes that file.
pub fn forget(path: &Path) {
    let Some(id) = id_of(path) else { return };
    if let Some(scope) = Scope::current() {
        scope.ids().remove(&id);
    }
}

/// Whether the running command read the file of identity `id`.
pub fn was_read(id: FileId) -> bool {
    Scope::current().is_some_and(|scope| scope.ids().contains(&id))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn temporary_file(name: &str, bytes: &[u8]) -> (std::path::PathBuf, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!(
            "walkmesh-files-{}-{name}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        (dir, path)
    }

    #[cfg(unix)]
    #[test]
    fn a_read_in_a_scope_is_recorded_under_every_name_of_the_file() {
        let (dir, path) = temporary_file("a.bin", b"abc");
        let link = dir.join("link.bin");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let scope = Scope::new();
        let bytes = scope.run(|| read(&path).unwrap());
        assert_eq!(bytes, b"abc");
        let by_link = id_of(&link).unwrap();
        assert!(scope.run(|| was_read(by_link)));
        assert!(
            !was_read(by_link),
            "outside the scope, nothing was read on this thread"
        );
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        scope.run(|| forget(&dir.join("sub/../a.bin")));
        assert!(!scope.run(|| was_read(by_link)));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_thread_started_with_carried_records_into_the_command_s_scope() {
        let (dir, path) = temporary_file("b.bin", b"x");
        let scope = Scope::new();
        scope.run(|| {
            std::thread::scope(|threads| {
                threads.spawn(carried(|| open(&path).map(drop).unwrap()));
                // A thread started without it records nothing for the command.
                threads.spawn(|| assert!(Scope::current().is_none()));
            });
            assert!(was_read(id_of(&path).unwrap()));
        });
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn reads_outside_a_scope_or_unrecorded_are_not_kept() {
        let (dir, path) = temporary_file("c.bin", b"x");
        read(&path).unwrap();
        let scope = Scope::new();
        scope.run(|| {
            unrecorded(|| read_to_string(&path).unwrap());
            assert!(!was_read(id_of(&path).unwrap()));
            // The scope is back after `unrecorded`.
            assert!(Scope::current().is_some());
        });
        std::fs::remove_dir_all(dir).unwrap();
    }
}
