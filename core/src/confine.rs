//! The one check every name from file data passes before it becomes part of a path.
//!
//! Archive members, LYT rooms, `.indoor` module ids, kit and component ids all come from
//! files people download from mod sites. Followed as they are, a member named `../../x.wok`
//! or `/home/u/.bashrc` writes (or reads) outside the folder the user chose. So a name
//! becomes a path only through [`join`], which accepts a plain file name and nothing else:
//! no path separators of any system, no `.`/`..` or other all-dot names, no drive or stream
//! colon, no control characters, no Windows device names, at most [`MAX_NAME_BYTES`] bytes.
//! The rules hold on every system, so a module that is safe here is safe on Windows too.

use std::fmt;
use std::path::{Path, PathBuf};

/// The longest name accepted, in bytes (the limit of common file systems).
pub const MAX_NAME_BYTES: usize = 255;

/// Why a name cannot be a file name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsafe {
    Empty,
    /// `/` or `\`: the name would reach another folder (or the root).
    Separator,
    /// Only dots (`.`, `..`, `...`): the folder itself or its parent.
    Dots,
    /// `:`, a drive (`C:x`) on Windows or a stream of another file.
    Colon,
    /// A control character (shown as its code point).
    Control(u32),
    /// `CON`, `NUL`, `COM1`, … (with any extension): a device on Windows.
    Device,
    /// Longer than [`MAX_NAME_BYTES`] (the length in bytes).
    TooLong(usize),
}

impl fmt::Display for Unsafe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unsafe::Empty => write!(f, "it is empty"),
            Unsafe::Separator => write!(f, "it holds a path separator (/ or \\)"),
            Unsafe::Dots => write!(f, "it names a folder (only dots)"),
            Unsafe::Colon => write!(f, "it holds a colon (a drive or stream on Windows)"),
            Unsafe::Control(c) => write!(f, "it holds the control character U+{c:04X}"),
            Unsafe::Device => write!(f, "it is a device name on Windows"),
            Unsafe::TooLong(n) => write!(f, "it is {n} bytes long (at most {MAX_NAME_BYTES})"),
        }
    }
}

/// A name refused by [`join`]: what it names, the name (escaped for printing), the file it
/// came from, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsafeName {
    pub what: String,
    pub name: String,
    pub source: PathBuf,
    pub reason: Unsafe,
}

impl fmt::Display for UnsafeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} \"{}\" from {} cannot be used as a file name: {}; nothing was written",
            self.what,
            crate::printable::escape(&self.name),
            crate::printable::escape(&self.source.to_string_lossy()),
            self.reason
        )
    }
}

impl std::error::Error for UnsafeName {}

/// Why `name` is not a plain file name, if it is not.
pub fn check(name: &str) -> Result<(), Unsafe> {
    if name.is_empty() {
        return Err(Unsafe::Empty);
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(Unsafe::TooLong(name.len()));
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(Unsafe::Control(u32::from(c)));
    }
    if name.contains(['/', '\\']) {
        return Err(Unsafe::Separator);
    }
    if name.chars().all(|c| c == '.') {
        return Err(Unsafe::Dots);
    }
    if name.contains(':') {
        return Err(Unsafe::Colon);
    }
    if is_windows_device(name) {
        return Err(Unsafe::Device);
    }
    Ok(())
}

/// `dir/name` when `name` is a plain file name; else an error naming `what` it is (e.g.
/// "archive member") and the file it came from.
pub fn join(dir: &Path, name: &str, what: &str, source: &Path) -> Result<PathBuf, UnsafeName> {
    match check(name) {
        Ok(()) => Ok(dir.join(name)),
        Err(reason) => Err(UnsafeName {
            what: what.to_string(),
            name: name.to_string(),
            source: source.to_path_buf(),
            reason,
        }),
    }
}

/// Windows opens these as devices whatever the extension (`nul.wok` is `NUL`); trailing
/// spaces and dots of the stem are ignored there too.
fn is_windows_device(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name);
    let stem = stem.trim_end_matches([' ', '.']).to_ascii_uppercase();
    match stem.as_str() {
        "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$" => true,
        _ => {
            // By characters, not bytes: names from file data hold any character ("ÿþ" from
            // the bytes FF FE), and a byte index inside one panics. Windows takes the
            // superscript digits as device numbers too (COM¹).
            let mut chars = stem.chars();
            let prefix: String = chars.by_ref().take(3).collect();
            let digit: Vec<char> = chars.collect();
            matches!(prefix.as_str(), "COM" | "LPT")
                && matches!(digit.as_slice(), ['1'..='9' | '¹' | '²' | '³'])
        }
    }
}

impl crate::Kinded for UnsafeName {
    /// A name from file data that would leave the folder it must stay in.
    fn kind(&self) -> crate::ErrorKind {
        crate::ErrorKind::Invalid
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_pass() {
        for name in [
            "m12aa_42a.wok",
            "room.lyt",
            "a..b.wok",
            ".hidden",
            "kit component 1.wok",
            "é.wok",
            "com10.wok",
            "console.wok",
            // Names holding characters of more than one byte, cut anywhere by a byte index
            // before (issue #33: "ABé" from an LYT, "ÿþ" from an archive's bytes FF FE).
            "ABé.wok",
            "ABé",
            "ÿþ",
            "ÿþ.wok",
            "é",
            "COMé",
            "LPT1é",
            "日本語.wok",
            "co\u{301}m1",
        ] {
            assert_eq!(check(name), Ok(()), "{name}");
        }
        let dir = Path::new("out");
        assert_eq!(
            join(dir, "x.wok", "room", Path::new("a.lyt")).unwrap(),
            dir.join("x.wok")
        );
    }

    #[test]
    fn hostile_names_are_refused_with_their_reason() {
        let cases: &[(&str, Unsafe)] = &[
            ("", Unsafe::Empty),
            ("../../x.wok", Unsafe::Separator),
            ("/etc/passwd", Unsafe::Separator),
            ("..\\..\\x.wok", Unsafe::Separator),
            ("sub/x.wok", Unsafe::Separator),
            (".", Unsafe::Dots),
            ("..", Unsafe::Dots),
            ("...", Unsafe::Dots),
            ("C:x.wok", Unsafe::Colon),
            ("c:\\x.wok", Unsafe::Separator),
            ("x.wok:stream", Unsafe::Colon),
            ("a\u{1b}[31mred.wok", Unsafe::Control(0x1b)),
            ("line\nbreak", Unsafe::Control(0x0a)),
            ("nul\0.wok", Unsafe::Control(0)),
            ("csi\u{9b}.wok", Unsafe::Control(0x9b)),
            ("NUL.wok", Unsafe::Device),
            ("con", Unsafe::Device),
            ("Com1.lyt", Unsafe::Device),
            ("lpt9", Unsafe::Device),
            ("aux .wok", Unsafe::Device),
            ("com¹.wok", Unsafe::Device),
            ("LPT³", Unsafe::Device),
        ];
        for (name, reason) in cases {
            assert_eq!(check(name).as_ref(), Err(reason), "{name:?}");
        }
        let long = "a".repeat(MAX_NAME_BYTES + 1);
        assert_eq!(check(&long), Err(Unsafe::TooLong(MAX_NAME_BYTES + 1)));
        assert_eq!(check(&"a".repeat(MAX_NAME_BYTES)), Ok(()));
    }

    #[test]
    fn the_refusal_names_the_member_and_the_file_escaped() {
        let error = join(
            Path::new("out"),
            "../\u{1b}]0;x\u{7}.wok",
            "archive member",
            Path::new("evil.mod"),
        )
        .unwrap_err();
        let text = error.to_string();
        assert!(text.starts_with("archive member \"../\\x1b]0;x\\x07.wok\" from evil.mod"));
        assert!(text.contains("control character U+001B"), "{text}");
        assert!(text.ends_with("nothing was written"));
        assert!(!text.contains('\u{1b}'));
    }
}
