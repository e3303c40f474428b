//! Module archives: the ERF family (`.mod`, `.erf`, `.sav`, `.hak`: "MOD V1.0", "ERF V1.0", …)
//! and RIM (`.rim`). See `docs/formats/erf.md`.
//!
//! [`Archive::parse`] checks every count and range against the bytes before allocating;
//! members are found by name and type (`m12aa_42a.wok`). [`Archive::write`] gives the input
//! back byte for byte while nothing changed; otherwise it lays the archive out again with the
//! same header fields, the same member order and every member's bytes unchanged except those
//! replaced or added.

use std::sync::Arc;

use walkmesh_core::ReadError;
use walkmesh_core::cursor::{ByteCursor, FieldName};

use crate::error::AreaError;

/// Resource type ids and their extensions, as the games and the community tools use them.
pub const RESOURCE_TYPES: &[(u16, &str)] = &[
    (0, "res"),
    (1, "bmp"),
    (3, "tga"),
    (4, "wav"),
    (6, "plt"),
    (7, "ini"),
    (10, "txt"),
    (2002, "mdl"),
    (2009, "nss"),
    (2010, "ncs"),
    (2011, "mod"),
    (2012, "are"),
    (2013, "set"),
    (2014, "ifo"),
    (2015, "bic"),
    (2016, "wok"),
    (2017, "2da"),
    (2018, "tlk"),
    (2022, "txi"),
    (2023, "git"),
    (2025, "uti"),
    (2027, "utc"),
    (2029, "dlg"),
    (2030, "itp"),
    (2032, "utt"),
    (2033, "dds"),
    (2035, "uts"),
    (2036, "ltr"),
    (2037, "gff"),
    (2038, "fac"),
    (2040, "ute"),
    (2042, "utd"),
    (2044, "utp"),
    (2045, "dft"),
    (2046, "gic"),
    (2047, "gui"),
    (2051, "utm"),
    (2052, "dwk"),
    (2053, "pwk"),
    (2056, "jrl"),
    (2057, "sav"),
    (2058, "utw"),
    (2059, "4pc"),
    (2060, "ssf"),
    (2061, "hak"),
    (2062, "nwm"),
    (2063, "bik"),
    (2064, "ndb"),
    (2065, "ptm"),
    (2066, "ptt"),
    (3000, "lyt"),
    (3001, "vis"),
    (3002, "rim"),
    (3003, "pth"),
    (3004, "lip"),
    (3005, "bwm"),
    (3006, "txb"),
    (3007, "tpc"),
    (3008, "mdx"),
];

/// The extension of resource type `id` (`wok` for 2016), if known.
pub fn extension_of(id: u16) -> Option<&'static str> {
    RESOURCE_TYPES
        .iter()
        .find(|(type_id, _)| *type_id == id)
        .map(|(_, ext)| *ext)
}

/// The resource type id of extension `ext` (case-insensitive).
pub fn type_of_extension(ext: &str) -> Option<u16> {
    RESOURCE_TYPES
        .iter()
        .find(|(_, e)| e.eq_ignore_ascii_case(ext))
        .map(|(id, _)| *id)
}

/// Which container layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchiveKind {
    /// ERF V1.0 family; the 4-byte signature (`MOD `, `ERF `, `SAV `, `HAK `).
    Erf([u8; 4]),
    /// RIM V1.0.
    Rim,
}

/// Where a member's bytes are.
#[derive(Clone, Debug, PartialEq)]
enum Data {
    /// A range of the archive as read.
    Source { offset: usize, size: usize },
    /// Bytes given since.
    Owned(Arc<[u8]>),
}

/// One member.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// The ResRef as stored (up to 16 characters).
    pub name: String,
    pub type_id: u16,
    /// The resource id field of the key (ERF: `u32` after the ResRef; RIM: after the type).
    pub resource_id: u32,
    data: Data,
}

impl Member {
    /// `name.ext` (or `name.<type id>` for an unknown type).
    pub fn file_name(&self) -> String {
        match extension_of(self.type_id) {
            Some(ext) => format!("{}.{ext}", self.name),
            None => format!("{}.{}", self.name, self.type_id),
        }
    }

    /// Byte range in the archive as read, if the member still has its original bytes.
    pub fn source_range(&self) -> Option<std::ops::Range<usize>> {
        match self.data {
            Data::Source { offset, size } => Some(offset..offset + size),
            Data::Owned(_) => None,
        }
    }
}

/// An ERF or RIM archive.
#[derive(Clone, Debug, PartialEq)]
pub struct Archive {
    pub kind: ArchiveKind,
    pub members: Vec<Member>,
    source: Arc<[u8]>,
    /// True once a member was replaced or added.
    changed: bool,
}

const ERF_HEADER: usize = 160;
const ERF_KEY: usize = 24;
const ERF_RESOURCE: usize = 8;
const RIM_HEADER: usize = 120;
const RIM_KEY: usize = 32;
const RESREF_LEN: usize = 16;

/// A ResRef: 16 bytes, NUL-padded.
fn resref(c: &mut ByteCursor<'_>, field: impl FieldName) -> Result<String, ReadError> {
    let raw = c.take(RESREF_LEN, field)?;
    let end = raw.iter().position(|&b| b == 0).unwrap_or(RESREF_LEN);
    Ok(raw
        .get(..end)
        .unwrap_or_default()
        .iter()
        .map(|&b| char::from(b))
        .collect())
}

/// The `count` entries of `size` bytes at `offset` as a cursor over them, checked (before
/// anything is allocated) to lie inside the file; refused at `offset`, naming `field`.
fn table<'a>(
    file: &ByteCursor<'a>,
    offset: usize,
    count: usize,
    size: usize,
    field: &str,
) -> Result<ByteCursor<'a>, ReadError> {
    match file.table_room(offset as u64, count as u64, size as u64) {
        Ok(range) => Ok(file.at(range.start)),
        Err(_) => Err(ReadError::at_offset(
            offset as u64,
            field,
            format!(
                "{count} entries of {size} bytes at byte {offset} do not fit in the {} bytes of the file",
                file.data().len()
            ),
        )),
    }
}

/// A member's data range, checked to lie inside the file; refused at `at` (where the
/// member's offset is stored), naming `field`.
fn member_data(
    file: &ByteCursor<'_>,
    offset: u32,
    size: u32,
    at: usize,
    field: String,
) -> Result<Data, ReadError> {
    match file.table_room(u64::from(offset), u64::from(size), 1) {
        Ok(range) => Ok(Data::Source {
            offset: range.start,
            size: range.len(),
        }),
        Err(_) => Err(ReadError::at_offset(
            at as u64,
            field,
            format!(
                "the member's {size} bytes at byte {offset} run past the end of the file ({} bytes)",
                file.data().len()
            ),
        ).with_kind(walkmesh_core::ErrorKind::Truncated)),
    }
}

impl Archive {
    /// True when `head` starts like an archive this module reads.
    pub fn sniff(head: &[u8]) -> bool {
        matches!(head.get(4..8), Some(b"V1.0"))
            && matches!(
                head.get(..4),
                Some(b"MOD " | b"ERF " | b"SAV " | b"HAK " | b"RIM ")
            )
    }

    /// Reads an archive.
    pub fn parse(bytes: &[u8]) -> Result<Archive, ReadError> {
        let signature: [u8; 4] =
            bytes
                .get(..4)
                .and_then(|b| b.try_into().ok())
                .ok_or_else(|| {
                    ReadError::at_offset(0, "header.type", "the file is shorter than 4 bytes")
                        .with_kind(walkmesh_core::ErrorKind::Truncated)
                })?;
        if bytes.get(4..8) != Some(b"V1.0") {
            return Err(ReadError::at_offset(
                4,
                "header.version",
                "expected version 'V1.0' (ERF, MOD, SAV, HAK or RIM archive)",
            ));
        }
        match &signature {
            b"RIM " => Self::parse_rim(bytes),
            b"MOD " | b"ERF " | b"SAV " | b"HAK " => Self::parse_erf(bytes, signature),
            other => Err(ReadError::at_offset(
                0,
                "header.type",
                format!(
                    "'{}' is not an archive type this reads (MOD, ERF, SAV, HAK, RIM)",
                    String::from_utf8_lossy(other)
                ),
            )
            .with_kind(walkmesh_core::ErrorKind::Unsupported)),
        }
    }

    fn parse_erf(bytes: &[u8], signature: [u8; 4]) -> Result<Archive, ReadError> {
        if bytes.len() < ERF_HEADER {
            return Err(ReadError::at_offset(
                0,
                "header",
                format!(
                    "an ERF header is {ERF_HEADER} bytes; the file has {}",
                    bytes.len()
                ),
            ));
        }
        let file = ByteCursor::little(bytes);
        let count = file.at(16).u32("header.entry_count")? as usize;
        let key_offset = file.at(24).u32("header.key_list_offset")? as usize;
        let resource_offset = file.at(28).u32("header.resource_list_offset")? as usize;
        let mut keys = table(&file, key_offset, count, ERF_KEY, "header.key_list_offset")?;
        let mut resources = table(
            &file,
            resource_offset,
            count,
            ERF_RESOURCE,
            "header.resource_list_offset",
        )?;
        let mut members = Vec::with_capacity(count);
        for i in 0..count {
            let name = resref(&mut keys, || format!("keys[{i}].resref"))?;
            let resource_id = keys.u32(|| format!("keys[{i}].resource_id"))?;
            let type_id = keys.u16(|| format!("keys[{i}].type"))?;
            keys.skip(2, || format!("keys[{i}].unused"))?;
            let entry = resources.pos();
            let offset = resources.u32(|| format!("resources[{i}].offset"))?;
            let size = resources.u32(|| format!("resources[{i}].size"))?;
            let data = member_data(&file, offset, size, entry, format!("resources[{i}]"))?;
            members.push(Member {
                name,
                type_id,
                resource_id,
                data,
            });
        }
        Ok(Archive {
            kind: ArchiveKind::Erf(signature),
            members,
            source: Arc::from(bytes),
            changed: false,
        })
    }

    fn parse_rim(bytes: &[u8]) -> Result<Archive, ReadError> {
        let file = ByteCursor::little(bytes);
        let count = file.at(12).u32("header.entry_count")? as usize;
        let mut key_offset = file.at(16).u32("header.key_list_offset")? as usize;
        // Game RIMs may leave the key offset 0: the keys then follow the 120-byte header.
        if key_offset == 0 {
            key_offset = RIM_HEADER;
        }
        let mut keys = table(&file, key_offset, count, RIM_KEY, "header.key_list_offset")?;
        let mut members = Vec::with_capacity(count);
        for i in 0..count {
            let name = resref(&mut keys, || format!("keys[{i}].resref"))?;
            let type_at = keys.offset();
            let type_raw = keys.u32(|| format!("keys[{i}].type"))?;
            let type_id = u16::try_from(type_raw).map_err(|_| {
                ReadError::at_offset(
                    type_at,
                    format!("keys[{i}].type"),
                    format!("resource type {type_raw} is out of range"),
                )
            })?;
            let resource_id = keys.u32(|| format!("keys[{i}].resource_id"))?;
            let entry = keys.pos();
            let offset = keys.u32(|| format!("keys[{i}].offset"))?;
            let size = keys.u32(|| format!("keys[{i}].size"))?;
            let data = member_data(&file, offset, size, entry, format!("keys[{i}]"))?;
            members.push(Member {
                name,
                type_id,
                resource_id,
                data,
            });
        }
        Ok(Archive {
            kind: ArchiveKind::Rim,
            members,
            source: Arc::from(bytes),
            changed: false,
        })
    }

    /// The bytes of `member`.
    pub fn data<'a>(&'a self, member: &'a Member) -> &'a [u8] {
        match &member.data {
            Data::Source { offset, size } => {
                self.source.get(*offset..offset + size).unwrap_or_default()
            }
            Data::Owned(bytes) => bytes,
        }
    }

    /// The member named `file_name` (`m12aa_42a.wok`; name and extension case-insensitive).
    pub fn find(&self, file_name: &str) -> Option<&Member> {
        let (name, type_id) = split_file_name(file_name)?;
        self.members
            .iter()
            .find(|m| m.type_id == type_id && m.name.eq_ignore_ascii_case(name))
    }

    /// The bytes of the member named `file_name`.
    pub fn extract(&self, file_name: &str) -> Option<&[u8]> {
        self.find(file_name).map(|m| self.data(m))
    }

    /// Members of type `type_id`, in archive order.
    pub fn of_type(&self, type_id: u16) -> impl Iterator<Item = &Member> {
        self.members.iter().filter(move |m| m.type_id == type_id)
    }

    /// Replaces the member named `file_name`, or adds it at the end. Returns true when a
    /// member was replaced. Fails for an unknown extension or a name over 16 characters.
    pub fn put(&mut self, file_name: &str, bytes: Vec<u8>) -> Result<bool, AreaError> {
        let (name, type_id) =
            split_file_name(file_name).ok_or_else(|| AreaError::UnknownResourceType {
                file_name: file_name.to_string(),
            })?;
        if name.is_empty() || name.len() > RESREF_LEN || !name.is_ascii() {
            return Err(AreaError::NotAResRef {
                name: name.to_string(),
                max: RESREF_LEN,
            });
        }
        self.changed = true;
        let data = Data::Owned(Arc::from(bytes));
        if let Some(member) = self
            .members
            .iter_mut()
            .find(|m| m.type_id == type_id && m.name.eq_ignore_ascii_case(name))
        {
            member.data = data;
            return Ok(true);
        }
        let resource_id = self
            .members
            .iter()
            .map(|m| m.resource_id)
            .max()
            .map_or(0, |id| id.saturating_add(1));
        self.members.push(Member {
            name: name.to_string(),
            type_id,
            resource_id,
            data,
        });
        Ok(false)
    }

    /// The archive as bytes: the input while nothing changed; otherwise laid out again.
    pub fn write(&self) -> Result<Vec<u8>, AreaError> {
        if !self.changed {
            return Ok(self.source.to_vec());
        }
        match self.kind {
            ArchiveKind::Erf(signature) => self.write_erf(signature),
            ArchiveKind::Rim => self.write_rim(),
        }
    }

    fn total_data(&self) -> usize {
        self.members.iter().map(|m| self.data(m).len()).sum()
    }

    fn to_u32(value: usize, what: &'static str) -> Result<u32, AreaError> {
        u32::try_from(value).map_err(|_| AreaError::Limit { what, value })
    }

    fn write_erf(&self, signature: [u8; 4]) -> Result<Vec<u8>, AreaError> {
        // Header fields we do not lay out (languages, build date, description) are kept, and
        // so is the localized-string block, which follows the header in every file we know.
        let header = self.source.get(..ERF_HEADER).unwrap_or_default();
        let source = ByteCursor::little(&self.source);
        let language_count = source.at(8).u32("header.language_count").unwrap_or(0);
        let strings_size = source.at(12).u32("header.strings_size").unwrap_or(0) as usize;
        let strings_offset = source.at(20).u32("header.strings_offset").unwrap_or(0) as usize;
        let strings = self
            .source
            .get(strings_offset..strings_offset + strings_size)
            .unwrap_or_default();
        let count = self.members.len();
        let key_offset = ERF_HEADER + strings.len();
        let resource_offset = key_offset + count * ERF_KEY;
        let data_offset = resource_offset + count * ERF_RESOURCE;
        let mut out = Vec::with_capacity(data_offset + self.total_data());
        out.extend_from_slice(&signature);
        out.extend_from_slice(b"V1.0");
        out.extend_from_slice(&language_count.to_le_bytes());
        out.extend_from_slice(&Self::to_u32(strings.len(), "localized strings")?.to_le_bytes());
        out.extend_from_slice(&Self::to_u32(count, "member count")?.to_le_bytes());
        out.extend_from_slice(&Self::to_u32(ERF_HEADER, "")?.to_le_bytes());
        out.extend_from_slice(&Self::to_u32(key_offset, "key list offset")?.to_le_bytes());
        out.extend_from_slice(
            &Self::to_u32(resource_offset, "resource list offset")?.to_le_bytes(),
        );
        match header.get(32..ERF_HEADER) {
            Some(rest) => out.extend_from_slice(rest),
            // An archive we did not read (none so far): build year/day 0, no description.
            None => {
                out.extend_from_slice(&[0; 8]);
                out.extend_from_slice(&u32::MAX.to_le_bytes());
                out.resize(ERF_HEADER, 0);
            }
        }
        out.extend_from_slice(strings);
        for member in &self.members {
            push_resref(&mut out, &member.name);
            out.extend_from_slice(&member.resource_id.to_le_bytes());
            out.extend_from_slice(&member.type_id.to_le_bytes());
            out.extend_from_slice(&[0, 0]);
        }
        let mut offset = data_offset;
        for member in &self.members {
            let size = self.data(member).len();
            out.extend_from_slice(&Self::to_u32(offset, "member offset")?.to_le_bytes());
            out.extend_from_slice(&Self::to_u32(size, "member size")?.to_le_bytes());
            offset += size;
        }
        for member in &self.members {
            out.extend_from_slice(self.data(member));
        }
        Ok(out)
    }

    fn write_rim(&self) -> Result<Vec<u8>, AreaError> {
        let count = self.members.len();
        let data_offset = RIM_HEADER + count * RIM_KEY;
        let mut out = Vec::with_capacity(data_offset + self.total_data());
        out.extend_from_slice(b"RIM V1.0");
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&Self::to_u32(count, "member count")?.to_le_bytes());
        out.extend_from_slice(&Self::to_u32(RIM_HEADER, "")?.to_le_bytes());
        out.resize(RIM_HEADER, 0);
        let mut offset = data_offset;
        for member in &self.members {
            let size = self.data(member).len();
            push_resref(&mut out, &member.name);
            out.extend_from_slice(&u32::from(member.type_id).to_le_bytes());
            out.extend_from_slice(&member.resource_id.to_le_bytes());
            out.extend_from_slice(&Self::to_u32(offset, "member offset")?.to_le_bytes());
            out.extend_from_slice(&Self::to_u32(size, "member size")?.to_le_bytes());
            offset += size;
        }
        for member in &self.members {
            out.extend_from_slice(self.data(member));
        }
        Ok(out)
    }

    /// An empty archive of `kind`, for building modules from scratch.
    pub fn new(kind: ArchiveKind) -> Archive {
        Archive {
            kind,
            members: Vec::new(),
            source: Arc::from(Vec::new()),
            changed: true,
        }
    }
}

fn push_resref(out: &mut Vec<u8>, name: &str) {
    let mut field = [0u8; RESREF_LEN];
    for (slot, byte) in field.iter_mut().zip(name.bytes()) {
        *slot = byte;
    }
    out.extend_from_slice(&field);
}

/// Splits `name.ext` into the ResRef and the type id of its extension. A bare number is
/// accepted as the extension too (`name.2016`).
pub fn split_file_name(file_name: &str) -> Option<(&str, u16)> {
    let (name, ext) = file_name.rsplit_once('.')?;
    let type_id = type_of_extension(ext).or_else(|| ext.parse::<u16>().ok())?;
    Some((name, type_id))
}

/// Extensions that name an archive this module reads.
pub const ARCHIVE_EXTENSIONS: &[&str] = &["mod", "erf", "sav", "hak", "rim"];

/// Splits a path written `archive.mod:member.wok` into the archive path and the member name,
/// when the part before the last `:` ends in an archive extension. Plain paths (and Windows
/// drive letters, `C:\…`) give `None`.
pub fn split_member_path(text: &str) -> Option<(&str, &str)> {
    let (archive, member) = text.rsplit_once(':')?;
    let ext = archive.rsplit_once('.')?.1;
    (!member.is_empty()
        && !member.contains(['/', '\\'])
        && ARCHIVE_EXTENSIONS
            .iter()
            .any(|e| e.eq_ignore_ascii_case(ext)))
    .then_some((archive, member))
}

/// Reads `path`: a file, or, when no such file exists and the path is written
/// `archive.mod:member.wok`, that member of the archive. Errors are sentences naming the file
/// (and member).
/// The file a path is read from: the path itself, or the archive of an
/// `archive.mod:member.ext` path (what a dependency file lists).
pub fn file_holding(path: &std::path::Path) -> std::path::PathBuf {
    if path.is_file() {
        return path.to_path_buf();
    }
    let text = path.to_string_lossy();
    match split_member_path(&text) {
        Some((archive, _)) => std::path::PathBuf::from(archive),
        None => path.to_path_buf(),
    }
}

pub fn read_file_or_member(path: &std::path::Path) -> Result<Vec<u8>, AreaError> {
    match walkmesh_core::files::read(path) {
        Ok(bytes) => Ok(bytes),
        Err(error) => {
            let text = path.to_string_lossy();
            let Some((archive_path, member)) = split_member_path(&text) else {
                return Err(AreaError::Io {
                    action: "read",
                    path: path.to_path_buf(),
                    source: error,
                });
            };
            let bytes =
                walkmesh_core::files::read(std::path::Path::new(archive_path)).map_err(|e| {
                    AreaError::Io {
                        action: "read the archive",
                        path: archive_path.into(),
                        source: e,
                    }
                })?;
            let archive = Archive::parse(&bytes).map_err(|e| e.in_file(archive_path))?;
            archive
                .extract(member)
                .map(<[u8]>::to_vec)
                .ok_or_else(|| AreaError::NoMember {
                    archive: archive_path.to_string(),
                    member: member.to_string(),
                    count: archive.members.len(),
                })
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn sample(kind: ArchiveKind) -> Vec<u8> {
        let mut archive = Archive::new(kind);
        archive.put("room_a.wok", b"BWM V1.0 a".to_vec()).unwrap();
        archive.put("area.lyt", b"beginlayout\n".to_vec()).unwrap();
        archive.write().unwrap()
    }

    #[test]
    fn erf_members_by_hand() {
        let bytes = sample(ArchiveKind::Erf(*b"MOD "));
        // Header 160, two keys of 24, two resources of 8, then the data.
        assert_eq!(&bytes[..8], b"MOD V1.0");
        assert_eq!(u32::from_le_bytes(bytes[16..20].try_into().unwrap()), 2);
        assert_eq!(u32::from_le_bytes(bytes[24..28].try_into().unwrap()), 160);
        assert_eq!(u32::from_le_bytes(bytes[28..32].try_into().unwrap()), 208);
        assert_eq!(u32::from_le_bytes(bytes[208..212].try_into().unwrap()), 224);
        assert_eq!(u32::from_le_bytes(bytes[212..216].try_into().unwrap()), 10);
        assert_eq!(&bytes[224..234], b"BWM V1.0 a");
        assert_eq!(&bytes[160..166], b"room_a");
        assert_eq!(
            u16::from_le_bytes(bytes[180..182].try_into().unwrap()),
            2016
        );
        let archive = Archive::parse(&bytes).unwrap();
        assert_eq!(archive.extract("ROOM_A.WOK").unwrap(), b"BWM V1.0 a");
        assert_eq!(archive.extract("area.lyt").unwrap(), b"beginlayout\n");
        assert!(archive.extract("area.vis").is_none());
        assert_eq!(archive.write().unwrap(), bytes);
    }

    #[test]
    fn rim_members_by_hand() {
        let bytes = sample(ArchiveKind::Rim);
        assert_eq!(&bytes[..8], b"RIM V1.0");
        assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), 2);
        assert_eq!(u32::from_le_bytes(bytes[16..20].try_into().unwrap()), 120);
        assert_eq!(
            u32::from_le_bytes(bytes[136..140].try_into().unwrap()),
            2016
        );
        assert_eq!(u32::from_le_bytes(bytes[144..148].try_into().unwrap()), 184);
        let archive = Archive::parse(&bytes).unwrap();
        assert_eq!(archive.kind, ArchiveKind::Rim);
        assert_eq!(archive.extract("room_a.wok").unwrap(), b"BWM V1.0 a");
    }

    #[test]
    fn replacing_keeps_the_others() {
        let bytes = sample(ArchiveKind::Erf(*b"ERF "));
        let mut archive = Archive::parse(&bytes).unwrap();
        assert!(archive.put("room_a.wok", b"new".to_vec()).unwrap());
        assert!(!archive.put("room_b.wok", b"bee".to_vec()).unwrap());
        let back = Archive::parse(&archive.write().unwrap()).unwrap();
        assert_eq!(back.extract("room_a.wok").unwrap(), b"new");
        assert_eq!(back.extract("room_b.wok").unwrap(), b"bee");
        assert_eq!(back.extract("area.lyt").unwrap(), b"beginlayout\n");
        assert_eq!(back.members[2].resource_id, 2);
        assert!(archive.put("x.unknownext", vec![]).is_err());
        assert!(archive.put("a_name_far_too_long.wok", vec![]).is_err());
        assert!(matches!(
            archive.put("x.unknownext", vec![]),
            Err(AreaError::UnknownResourceType { file_name }) if file_name == "x.unknownext"
        ));
        let error = archive.put("a_name_far_too_long.wok", vec![]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "'a_name_far_too_long' is not a ResRef (1 to 16 ASCII characters)"
        );
        assert!(matches!(error, AreaError::NotAResRef { max: 16, .. }));
    }

    #[test]
    fn truncated_and_hostile_archives_are_errors() {
        let bytes = sample(ArchiveKind::Erf(*b"MOD "));
        for len in 0..bytes.len() {
            // Cutting into the data of the last member, or anywhere before, must fail cleanly.
            assert!(Archive::parse(&bytes[..len]).is_err(), "length {len}");
        }
        let mut huge = bytes.clone();
        huge[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        let error = Archive::parse(&huge).unwrap_err();
        assert_eq!(error.field, "header.key_list_offset");
    }

    #[test]
    fn member_paths() {
        assert_eq!(
            split_member_path("dir/area.mod:m40ad_08a.wok"),
            Some(("dir/area.mod", "m40ad_08a.wok"))
        );
        assert_eq!(split_member_path("C:\\rooms\\a.wok"), None);
        assert_eq!(split_member_path("room.wok"), None);
        assert_eq!(split_member_path("a.rim:x.lyt"), Some(("a.rim", "x.lyt")));
        assert_eq!(split_file_name("m12ac.vis"), Some(("m12ac", 3001)));
    }
}
