//! What a module archive holds for area work (`walkmesh info` on an archive): its kind, and
//! its walkmeshes, layouts and visibility files by resource type; whether a command's target
//! is an area at all.

use crate::erf::{Archive, ArchiveKind, Member};

/// Resource types of walkmeshes: room (`wok`), door (`dwk`) and placeable (`pwk`).
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

/// Whether a command's target is a KotOR area rather than one walkmesh file: a layout is
/// given, or the target is a folder or a module archive by its extension (`.mod`, `.erf`,
/// `.rim`, any case).
pub fn is_area_target(target: &std::path::Path, layout_given: bool) -> bool {
    let archive = target
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ["mod", "erf", "rim"].contains(&e.to_ascii_lowercase().as_str()));
    layout_given || target.is_dir() || archive
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn areas_are_a_layout_a_folder_or_an_archive() {
        use std::path::Path;
        assert!(is_area_target(Path::new("m01aa.MOD"), false));
        assert!(is_area_target(Path::new("m01aa.rim"), false));
        assert!(is_area_target(Path::new("room.wok"), true));
        assert!(is_area_target(&std::env::temp_dir(), false));
        assert!(!is_area_target(Path::new("room.wok"), false));
    }

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
        assert_eq!(names, [Some("wok"), Some("dwk"), Some("pwk")]);
        assert_eq!(ext(LAYOUT_TYPE), Some("lyt"));
        assert_eq!(ext(VISIBILITY_TYPE), Some("vis"));
    }
}
