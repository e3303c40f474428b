//! What a module archive holds for area work (`walkmesh info` on an archive): its kind, and
//! its walkmeshes, layouts and visibility files by resource type.

use crate::erf::{Archive, ArchiveKind, Member};

/// Resource types of walkmeshes: room (`wok`), placeable (`pwk`) and door (`dwk`).
pub const WALKMESH_TYPES: [u16; 3] = [2016, 2052, 2053];
/// Resource type of a layout (`lyt`).
pub const LAYOUT_TYPE: u16 = 3000;
/// Resource type of a visibility file (`vis`).
pub const VISIBILITY_TYPE: u16 = 3001;

/// The archive's kind as its header names it: the ERF signature (`MOD`, `ERF`, `SAV`,
/// `HAK`, trimmed) or `RIM`.
pub fn kind_name(kind: ArchiveKind) -> String {
    match kind {
        ArchiveKind::Erf(sig) => String::from_utf8_lossy(&sig).trim().to_string(),
        ArchiveKind::Rim => "RIM".into(),
    }
}

/// The archive's members of the resource types `types`, in archive order.
pub fn members_of<'a>(archive: &'a Archive, types: &'a [u16]) -> impl Iterator<Item = &'a Member> {
    archive
        .members
        .iter()
        .filter(move |m| types.contains(&m.type_id))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn kind_names_are_the_header_s() {
        assert_eq!(kind_name(ArchiveKind::Erf(*b"MOD ")), "MOD");
        assert_eq!(kind_name(ArchiveKind::Rim), "RIM");
    }

    #[test]
    fn the_types_are_the_resource_table_s() {
        let ext = |id| {
            crate::erf::RESOURCE_TYPES
                .iter()
                .find(|(t, _)| *t == id)
                .map(|(_, e)| *e)
        };
        let names: Vec<_> = WALKMESH_TYPES.iter().map(|&t| ext(t)).collect();
        assert_eq!(names, [Some("wok"), Some("pwk"), Some("dwk")]);
        assert_eq!(ext(LAYOUT_TYPE), Some("lyt"));
        assert_eq!(ext(VISIBILITY_TYPE), Some("vis"));
    }
}
