//! Writing output files safely.
//!
//! - Everything is staged first (a temporary file beside the target, or a temporary
//!   directory when sidecars come with the main file), checked, then renamed into place with
//!   the sidecars before the main file; a failure before the renames leaves nothing new
//!   behind, and a failed rename removes the sidecars this run created.
//! - An existing target keeps its permission bits; a new file gets 0666 minus the umask.
//! - A symbolic link as OUT is written through: its final target is replaced atomically and
//!   the link stays. FIFOs, devices, sockets and directories are refused.
//! - A sidecar (`.mtl`, `.bin`) is replaced only when this project wrote it (see
//!   [`written_by_us`]) or `force` (`--force`) is given; an OUT named like its own sidecar is refused.
//! - A file the running command read (any file a reader opened: the input, its sidecars,
//!   buffers, layouts, profiles; [`walkmesh_core::files`]) is never replaced, as OUT or as a
//!   sidecar, under any name or link: identity is device and inode.
//! - Temporary files are listed in [`PENDING`] so that the signal handler of the binary
//!   ([`remove_pending`]) can delete them when SIGINT/SIGTERM/SIGHUP arrives.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{Read, Write};
#[cfg(unix)]
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once, OnceLock};

use walkmesh_core::Output;

use crate::failure::Failure;

/// Choices about replacing files, from the command line.
#[derive(Clone, Copy, Debug, Default)]
pub struct OutputSettings {
    /// Replace sidecars this project did not write.
    pub force: bool,
    /// Create OUT's directory (and its parents) when missing.
    pub create_dirs: bool,
    /// Flush every file to disk before renaming it (crash safety; costs a disk round trip
    /// per file).
    pub fsync: bool,
}

/// Temporary files and directories not yet renamed into place.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// What runs once before the first temporary file or directory is created: the binary starts
/// its signal watcher there, so that a process that never stages a file (`--version`, `info`,
/// a page to standard output) starts no thread and installs no handler for it. A thread
/// started at start-up cost every process its creation and, on a busy machine, a wait at exit
/// for that thread to be scheduled (docs/performance.md, issue 36).
static BEFORE_FIRST_STAGE: OnceLock<fn()> = OnceLock::new();
static STAGING_STARTED: Once = Once::new();

/// Sets what runs once before the first temporary file is created (see
/// [`BEFORE_FIRST_STAGE`]); false when it was already set.
pub fn before_first_stage(hook: fn()) -> bool {
    BEFORE_FIRST_STAGE.set(hook).is_ok()
}

fn staging_starts() {
    STAGING_STARTED.call_once(|| {
        if let Some(hook) = BEFORE_FIRST_STAGE.get() {
            hook();
        }
    });
}

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic elsewhere while holding the lock leaves a usable list.
    PENDING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Deletes every temporary file and directory still pending and returns with the list
/// locked, so that no rename can happen afterwards: the caller is about to end the process.
pub fn remove_pending() -> MutexGuard<'static, Vec<PathBuf>> {
    let mut list = pending();
    for path in list.drain(..) {
        let _ = fs::remove_dir_all(&path).or_else(|_| fs::remove_file(&path));
    }
    list
}

fn unregister(path: &Path) {
    pending().retain(|p| p != path);
}

/// Where a file will be written.
#[derive(Debug)]
struct Target {
    /// The path actually replaced (a symbolic link's final target).
    path: PathBuf,
    /// The existing file, if any.
    existing: Option<Metadata>,
}

fn directory_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Device and inode of a file.
type FileId = walkmesh_core::files::FileId;

/// Records that the running command read `path` (see [`walkmesh_core::files`], which every
/// reader reads through: a caller needs this only for a file it opened by other means).
pub use walkmesh_core::files::note_read;

/// What `path` names (following links), or for `archive.mod:member` the archive.
pub fn file_id(path: &Path) -> Option<FileId> {
    walkmesh_core::files::id_of(path).or_else(|| {
        let (archive, _) = path.to_str()?.rsplit_once(':')?;
        walkmesh_core::files::id_of(Path::new(archive))
    })
}

/// Refuses to replace a file the running command read ([`walkmesh_core::files::was_read`]:
/// any file a reader opened, under any name). `what` names the file as the message says it
/// (OUT, or a sidecar of OUT).
fn refuse_an_input(what: impl FnOnce() -> String, metadata: &Metadata) -> Result<(), Failure> {
    if walkmesh_core::files::id(metadata).is_some_and(walkmesh_core::files::was_read) {
        return Err(Failure::output(format!(
            "{} is a file this command read: it never writes over what it reads; nothing was written",
            what()
        )));
    }
    Ok(())
}

/// Follows symbolic links to the file that will be replaced and refuses what is not a
/// regular file, or a file the running command read.
fn resolve(out: &Path, settings: OutputSettings) -> Result<Target, Failure> {
    let mut path = out.to_path_buf();
    // The kernel's own limit on a chain of links (Linux: 40).
    for _ in 0..40 {
        let metadata = match fs::symlink_metadata(&path) {
            Ok(metadata) => metadata,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                check_directory(out, &path, settings)?;
                return Ok(Target {
                    path,
                    existing: None,
                });
            }
            Err(error) => {
                return Err(Failure::output(format!(
                    "cannot write {}: {error}",
                    out.display()
                )));
            }
        };
        let kind = metadata.file_type();
        if kind.is_symlink() {
            let link = fs::read_link(&path).map_err(|e| {
                Failure::output(format!("cannot follow the link {}: {e}", path.display()))
            })?;
            path = if link.is_absolute() {
                link
            } else {
                directory_of(&path).join(link)
            };
            continue;
        }
        if kind.is_file() {
            refuse_an_input(|| out.display().to_string(), &metadata)?;
            return Ok(Target {
                path,
                existing: Some(metadata),
            });
        }
        let what = describe(&metadata);
        return Err(Failure::output(format!(
            "cannot write {}: {} is {what}; walkmesh writes regular files only{}",
            out.display(),
            path.display(),
            if what == "a directory" {
                " (name a file, or use --out-dir for many inputs)"
            } else {
                " (use - for standard output)"
            }
        )));
    }
    Err(Failure::output(format!(
        "cannot write {}: too many levels of symbolic links",
        out.display()
    )))
}

fn describe(metadata: &Metadata) -> &'static str {
    let kind = metadata.file_type();
    if kind.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// The directory that will hold `path` must exist (or be created with `--create-dirs`).
fn check_directory(out: &Path, path: &Path, settings: OutputSettings) -> Result<(), Failure> {
    let directory = directory_of(path);
    match fs::metadata(directory) {
        Ok(metadata) if metadata.is_dir() => Ok(()),
        Ok(_) => Err(Failure::output(format!(
            "cannot write {}: {} is not a directory",
            out.display(),
            directory.display()
        ))),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            if settings.create_dirs {
                fs::create_dir_all(directory).map_err(|e| {
                    Failure::output(format!(
                        "cannot create the directory {}: {e}",
                        directory.display()
                    ))
                })
            } else {
                Err(Failure::output(format!(
                    "cannot write {}: the directory {} does not exist (create it, or pass --create-dirs)",
                    out.display(),
                    directory.display()
                )))
            }
        }
        Err(error) => Err(Failure::output(format!(
            "cannot write {}: {}: {error}",
            out.display(),
            directory.display()
        ))),
    }
}

/// Whether an existing sidecar may be replaced: it is byte-identical to what we would
/// write, it starts with the comment our text sidecars start with (`# walkmesh`, the `.mtl`),
/// or the main file being replaced was written by walkmesh (its first 64 KiB name walkmesh,
/// as our OBJ header and glTF `asset.generator` do) and refers to the sidecar by name (the
/// `.bin` of a `.gltf`).
pub fn written_by_us(sidecar: &Path, new_bytes: &[u8], main: Option<&Path>) -> bool {
    const MARKER: &[u8] = b"# walkmesh";
    let Ok(mut file) = File::open(sidecar) else {
        return false;
    };
    let mut head = Vec::new();
    if Read::by_ref(&mut file)
        .take(MARKER.len() as u64)
        .read_to_end(&mut head)
        .is_ok()
        && head == MARKER
    {
        return true;
    }
    if fs::metadata(sidecar).is_ok_and(|m| m.len() == new_bytes.len() as u64)
        && fs::read(sidecar).is_ok_and(|old| old == new_bytes)
    {
        return true;
    }
    let Some(name) = sidecar.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let Some(main) = main else {
        return false;
    };
    let Ok(file) = File::open(main) else {
        return false;
    };
    let mut head = Vec::new();
    if file.take(64 * 1024).read_to_end(&mut head).is_err() {
        return false;
    }
    contains(&head, b"walkmesh") && contains(&head, name.as_bytes())
}

/// Whether the file at `path` holds exactly `bytes`, read in 64 KiB pieces (so comparing a
/// large output does not hold a second copy of it).
fn holds_bytes(path: &Path, bytes: &[u8]) -> bool {
    let Ok(mut file) = File::open(path) else {
        return false;
    };
    let mut buffer = vec![0u8; 64 * 1024];
    let mut rest = bytes;
    loop {
        let read = match file.read(&mut buffer) {
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return false,
        };
        let Some(piece) = buffer.get(..read) else {
            return false;
        };
        if read == 0 {
            return rest.is_empty();
        }
        match rest.split_at_checked(read) {
            Some((head, tail)) if head == piece => rest = tail,
            _ => return false,
        }
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

/// A file staged for renaming.
#[derive(Debug)]
struct StagedFile {
    staged: PathBuf,
    target: PathBuf,
    existed: bool,
}

/// Everything staged, not yet in place.
#[derive(Debug)]
pub struct Staged {
    /// The temporary file or directory registered in [`PENDING`].
    temporary: PathBuf,
    /// Sidecars first, the main file last.
    files: Vec<StagedFile>,
    /// Where a reader finds the staged main file with its sidecars beside it.
    read_path: PathBuf,
    /// Every file already holds exactly these bytes: nothing was staged and nothing will be
    /// renamed, so the files keep their inode and modification time (build systems then see
    /// nothing new to rebuild downstream).
    unchanged: bool,
}

impl Staged {
    /// The path to give a reader checking the staged output: the final path when there are
    /// no sidecars (the reader then sees the bytes in memory and the real file name, which
    /// some formats take the mesh kind from), else the staged main file beside its staged
    /// sidecars.
    pub fn read_path(&self) -> &Path {
        &self.read_path
    }

    /// Whether every target already holds the bytes: [`Staged::commit`] then leaves them
    /// untouched.
    pub fn unchanged(&self) -> bool {
        self.unchanged
    }

    /// Renames everything into place, sidecars first. On a failed rename, the sidecars this
    /// run created are removed again.
    pub fn commit(self) -> Result<(), Failure> {
        if self.unchanged {
            return Ok(());
        }
        // Renames happen under the lock, so the signal handler either removes the staged
        // files before they are renamed or finds nothing left to remove.
        let mut list = pending();
        let mut done: Vec<&StagedFile> = Vec::new();
        let mut result = Ok(());
        for file in &self.files {
            if let Err(error) = fs::rename(&file.staged, &file.target) {
                result = Err(Failure::output(format!(
                    "cannot replace {}: {error}",
                    file.target.display()
                )));
                break;
            }
            done.push(file);
        }
        if result.is_err() {
            for file in done.iter().filter(|f| !f.existed) {
                let _ = fs::remove_file(&file.target);
            }
        }
        let _ = fs::remove_dir_all(&self.temporary).or_else(|_| fs::remove_file(&self.temporary));
        list.retain(|p| p != &self.temporary);
        result
    }

    /// Removes everything staged.
    pub fn discard(self) {
        if self.unchanged {
            return;
        }
        let _ = fs::remove_dir_all(&self.temporary).or_else(|_| fs::remove_file(&self.temporary));
        unregister(&self.temporary);
    }
}

/// The path a single-file output will be written to (links followed), which is also the
/// path its check reads it as ([`Staged::read_path`] without sidecars).
pub fn final_path(out: &Path, settings: OutputSettings) -> Result<PathBuf, Failure> {
    resolve(out, settings).map(|target| target.path)
}

/// Checks the targets of `output` (main file at `out`, sidecars beside it) and writes
/// everything to temporary files, without touching any target yet.
pub fn stage(out: &Path, output: &Output, settings: OutputSettings) -> Result<Staged, Failure> {
    let main = resolve(out, settings)?;
    // Sidecars go beside the file actually written; `parent` is empty for a bare name.
    let directory = main
        .path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut sidecars = Vec::with_capacity(output.sidecars.len());
    for sidecar in &output.sidecars {
        let name = Path::new(&sidecar.file_name);
        // The same rule as every name that becomes a path (`walkmesh_core::confine`).
        if walkmesh_core::confine::check(&sidecar.file_name).is_err() {
            return Err(Failure::output(format!(
                "the writer named a sidecar {:?}, which is not a plain file name",
                sidecar.file_name
            )));
        }
        let path = directory.join(name);
        let same_name = main
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.eq_ignore_ascii_case(&sidecar.file_name))
            || out
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.eq_ignore_ascii_case(&sidecar.file_name));
        if same_name {
            return Err(Failure::usage(format!(
                "{} would be overwritten by its own sidecar {}; choose another output name",
                out.display(),
                sidecar.file_name
            )));
        }
        let existing = match fs::symlink_metadata(&path) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                return Err(Failure::output(format!(
                    "cannot write the sidecar {}: it is a symbolic link",
                    path.display()
                )));
            }
            Ok(metadata) if !metadata.is_file() => {
                return Err(Failure::output(format!(
                    "cannot write the sidecar {}: it is {}",
                    path.display(),
                    describe(&metadata)
                )));
            }
            Ok(metadata) => {
                // Before `--force` is considered: nothing allows replacing an input.
                refuse_an_input(
                    || format!("{}, the sidecar of {},", path.display(), out.display()),
                    &metadata,
                )?;
                let main_existing = main.existing.as_ref().map(|_| main.path.as_path());
                if !settings.force && !written_by_us(&path, &sidecar.bytes, main_existing) {
                    return Err(Failure::output(format!(
                        "{} exists and was not written by walkmesh; pass --force to replace it",
                        path.display()
                    )));
                }
                Some(metadata)
            }
            Err(_) => None,
        };
        sidecars.push((path, existing, &sidecar.bytes));
    }

    let holds = |path: &Path, existing: Option<&Metadata>, bytes: &[u8]| {
        existing.is_some_and(|m| m.len() == bytes.len() as u64) && holds_bytes(path, bytes)
    };
    if holds(&main.path, main.existing.as_ref(), &output.main)
        && sidecars
            .iter()
            .all(|(path, existing, bytes)| holds(path, existing.as_ref(), bytes))
    {
        return Ok(Staged {
            temporary: PathBuf::new(),
            files: Vec::new(),
            read_path: main.path,
            unchanged: true,
        });
    }

    if sidecars.is_empty() {
        let (temporary, file) = temporary_file(directory_of(&main.path), out)?;
        let written = fill(file, &output.main, main.existing.as_ref(), settings.fsync);
        if let Err(error) = written {
            let _ = fs::remove_file(&temporary);
            unregister(&temporary);
            return Err(Failure::output(format!(
                "cannot write {}: {error}",
                out.display()
            )));
        }
        return Ok(Staged {
            files: vec![StagedFile {
                staged: temporary.clone(),
                existed: main.existing.is_some(),
                target: main.path.clone(),
            }],
            temporary,
            read_path: main.path,
            unchanged: false,
        });
    }

    let temporary = temporary_directory(directory_of(&main.path), out)?;
    let mut staged = Staged {
        temporary: temporary.clone(),
        files: Vec::new(),
        read_path: PathBuf::new(),
        unchanged: false,
    };
    let main_name = main.path.file_name().unwrap_or(out.as_os_str());
    let mut entries: Vec<(PathBuf, Option<Metadata>, &[u8])> = sidecars
        .into_iter()
        .map(|(path, existing, bytes)| (path, existing, bytes.as_slice()))
        .collect();
    entries.push((main.path.clone(), main.existing, &output.main));
    for (target, existing, bytes) in entries {
        let name = target.file_name().unwrap_or(main_name);
        let path = temporary.join(name);
        let result = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode_if_unix(0o666)
            .open(&path)
            .and_then(|file| fill(file, bytes, existing.as_ref(), settings.fsync));
        if let Err(error) = result {
            staged.discard();
            return Err(Failure::output(format!(
                "cannot write {}: {error}",
                target.display()
            )));
        }
        staged.files.push(StagedFile {
            staged: path,
            existed: existing.is_some(),
            target,
        });
    }
    staged.read_path = temporary.join(main_name);
    Ok(staged)
}

/// Writes `bytes` and gives the file the existing target's permission bits (else it keeps
/// 0666 minus the umask from its creation); with `fsync`, flushes it to disk before any
/// rename.
fn fill(
    mut file: File,
    bytes: &[u8],
    existing: Option<&Metadata>,
    fsync: bool,
) -> std::io::Result<()> {
    if let Some(existing) = existing {
        file.set_permissions(existing.permissions())?;
    }
    file.write_all(bytes)?;
    if fsync {
        file.sync_all()?;
    }
    Ok(())
}

trait ModeIfUnix {
    fn mode_if_unix(&mut self, mode: u32) -> &mut Self;
}

impl ModeIfUnix for OpenOptions {
    #[cfg(unix)]
    fn mode_if_unix(&mut self, mode: u32) -> &mut Self {
        self.mode(mode)
    }
    #[cfg(not(unix))]
    fn mode_if_unix(&mut self, _mode: u32) -> &mut Self {
        self
    }
}

fn builder() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".walkmesh-").suffix(".tmp");
    builder
}

/// A new temporary file in `directory` (mode 0666 minus the umask), registered in
/// [`PENDING`].
fn temporary_file(directory: &Path, out: &Path) -> Result<(PathBuf, File), Failure> {
    staging_starts();
    let mut builder = builder();
    #[cfg(unix)]
    builder.permissions(fs::Permissions::from_mode(0o666));
    // Created and registered under the lock: the signal handler, which takes the lock
    // first, cannot run in between and miss the file.
    let mut list = pending();
    let (file, path) = builder
        .tempfile_in(directory)
        .and_then(|t| t.keep().map_err(|e| e.error))
        .map_err(|e| Failure::output(format!("cannot write {}: {e}", out.display())))?;
    list.push(path.clone());
    Ok((path, file))
}

/// A new temporary directory in `directory`, registered in [`PENDING`].
fn temporary_directory(directory: &Path, out: &Path) -> Result<PathBuf, Failure> {
    staging_starts();
    let mut list = pending();
    let path = builder()
        .tempdir_in(directory)
        .map(tempfile::TempDir::keep)
        .map_err(|e| Failure::output(format!("cannot write {}: {e}", out.display())))?;
    list.push(path.clone());
    Ok(path)
}

/// Writes one file (no sidecars) safely: staged beside the target, then renamed into place,
/// with the same target checks as `convert` (links written through; FIFOs, devices and
/// directories refused). For commands whose output is a picture, a report or extracted bytes.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let output = Output {
        main: bytes.to_vec(),
        sidecars: Vec::new(),
    };
    stage(path, &output, OutputSettings::default())?.commit()
}
