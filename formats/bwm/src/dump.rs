//! `walkmesh dump` for BWM: every stored field with its byte offset, and what the derived
//! values mean (material names from the profile, adjacency and edges as face and edge).

use std::fmt;

use walkmesh_core::dump::{DumpNode, Emitter, FieldSink, Label, Space, TreeSink};
use walkmesh_core::{MaterialProfile, ReadError};

use crate::layout::{HEADER_SIZE, NONE, RawBwm, TYPE_AREA, TYPE_OBJECT, Table, off};

/// The dump tree of a BWM file (materials named by the embedded KotOR profile).
pub fn dump_bwm(bytes: &[u8]) -> Result<DumpNode, ReadError> {
    let mut tree = TreeSink::new();
    dump_bwm_fields(bytes, &crate::profile::kotor_profile(), &mut tree)?;
    Ok(tree.finish())
}

/// An edge reference `3·face + edge` (adjacency values, edge indices) as face and edge.
struct EdgeRef(i64);

impl fmt::Display for EdgeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 < 0 {
            f.write_str("none")
        } else {
            write!(f, "face {} edge {}", self.0 / 3, self.0 % 3)
        }
    }
}

/// The three neighbours of an adjacency row.
struct Neighbours([i64; 3]);

impl fmt::Display for Neighbours {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (edge, &value) in self.0.iter().enumerate() {
            if edge > 0 {
                f.write_str(", ")?;
            }
            write!(f, "edge {edge}: {}", EdgeRef(value))?;
        }
        Ok(())
    }
}

/// A material code through the profile.
struct MaterialNote<'a>(&'a MaterialProfile, u32);

impl fmt::Display for MaterialNote<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.surface_for_code(self.1) {
            Some(surface) => write!(
                f,
                "{}, {}",
                surface.material.name(),
                if surface.walkable {
                    "walkable"
                } else {
                    "not walkable"
                }
            ),
            None => write!(f, "not in the {} profile", self.0.engine),
        }
    }
}

/// The AABB plane flags: 1 +X, 2 +Y, 4 +Z, 8 −X, 16 −Y, 32 −Z.
struct Plane(u32);

impl fmt::Display for Plane {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("none (leaf)");
        }
        let names = ["+X", "+Y", "+Z", "-X", "-Y", "-Z"];
        let mut first = true;
        for (bit, name) in names.iter().enumerate() {
            if self.0 & (1 << bit) != 0 {
                if !first {
                    f.write_str(" ")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        if self.0 >> names.len() != 0 {
            write!(
                f,
                " and unknown bits {:#x}",
                self.0 >> names.len() << names.len()
            )?;
        }
        Ok(())
    }
}

/// A child slot of an AABB node.
struct Child(u32);

impl fmt::Display for Child {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == NONE {
            f.write_str("none (leaf)")
        } else {
            write!(f, "node {}", self.0)
        }
    }
}

/// Reports every field of a BWM file to `sink`: the header, then one section per table (in the
/// order of the header's fields) with one entry per record, then any bytes no table covers.
pub fn dump_bwm_fields(
    bytes: &[u8],
    profile: &MaterialProfile,
    sink: &mut dyn FieldSink,
) -> Result<(), ReadError> {
    let raw = RawBwm::parse(bytes)?;
    let mut e = Emitter::new(sink, bytes);
    e.root("bwm", |e| {
        e.comment("KotOR BWM V1.0, little-endian");
        header(e, &raw);
        for table in Table::ALL {
            records(e, &raw, table, profile);
        }
        let mut claimed = vec![(0, HEADER_SIZE as u64)];
        claimed.extend(Table::ALL.iter().map(|&table| {
            let span = raw.span(table);
            (span.offset as u64, span.len(table) as u64)
        }));
        e.unclaimed(&mut claimed, bytes.len() as u64);
    });
    Ok(())
}

fn header(e: &mut Emitter<'_, '_>, raw: &RawBwm<'_>) {
    let h = &raw.header;
    let span = Some((0, HEADER_SIZE as u64));
    e.section(
        "header",
        Some("header".into()),
        Some(0),
        span,
        Space::File,
        |e| {
            e.chars("magic", off::MAGIC as u64, 4, "BWM ");
            e.chars("version", off::VERSION as u64, 4, "V1.0");
            let kind = match h.walkmesh_type {
                TYPE_AREA => "area (.wok)",
                TYPE_OBJECT => "placeable or door (.pwk, .dwk)",
                _ => "unknown type",
            };
            e.uint_noted("type", off::TYPE as u64, 4, h.walkmesh_type, &kind);
            e.floats("relative_use1", off::REL_USE1 as u64, &h.rel_use[0]);
            e.floats("relative_use2", off::REL_USE2 as u64, &h.rel_use[1]);
            e.floats("absolute_use1", off::ABS_USE1 as u64, &h.abs_use[0]);
            e.floats("absolute_use2", off::ABS_USE2 as u64, &h.abs_use[1]);
            e.floats("position", off::POSITION as u64, &h.position);
            // The table counts and offsets, in file order (faces, materials, normals and distances
            // share one count).
            let mut words: Vec<(usize, &str, u32)> = Vec::with_capacity(19);
            for (table, &(count, offset)) in Table::ALL.iter().zip(&h.raw) {
                let (count_at, offset_at) = table.header_fields();
                let (count_name, offset_name) = table.header_names();
                if !words.iter().any(|&(at, _, _)| at == count_at) {
                    words.push((count_at, count_name, count));
                }
                words.push((offset_at, offset_name, offset));
            }
            words.push((off::AABB_ROOT, "header.aabb_root", h.aabb_root));
            words.sort_by_key(|&(at, _, _)| at);
            for (at, name, value) in words {
                let name = name.trim_start_matches("header.");
                if at == off::AABB_ROOT {
                    e.uint_noted(
                        name,
                        at as u64,
                        4,
                        value,
                        &"root node index (0 in game files)",
                    );
                } else {
                    e.uint(name, at as u64, 4, value);
                }
            }
        },
    );
}

fn records(e: &mut Emitter<'_, '_>, raw: &RawBwm<'_>, table: Table, profile: &MaterialProfile) {
    let span = raw.span(table);
    let name = table.name();
    let offset = (span.count > 0).then_some(span.offset as u64);
    let range = Some((span.offset as u64, span.len(table) as u64));
    e.section(
        name,
        Some(Label::Name(name)),
        offset,
        range,
        Space::File,
        |e| {
            for i in 0..span.count {
                let at = span.entry(table, i) as u64;
                let label = Label::Indexed(name, i as u64);
                match table {
                    Table::Vertices => e.floats(label, at, &raw.vertex(i)),
                    Table::Normals => e.floats(label, at, &raw.normal(i)),
                    Table::Faces => e.ints(
                        label,
                        at,
                        12,
                        walkmesh_core::dump::Elem::U32,
                        raw.face(i).map(i64::from),
                        None,
                    ),
                    Table::Materials => {
                        let code = raw.material(i);
                        e.uint_noted(label, at, 4, code, &MaterialNote(profile, code));
                    }
                    Table::Distances => e.float(label, at, raw.distance(i)),
                    Table::Perimeters => {
                        let end = raw.perimeter(i);
                        let start = if i == 0 { 0 } else { raw.perimeter(i - 1) };
                        let note = format!("loop {i}: edges {start} to {}", i64::from(end) - 1);
                        e.uint_noted(label, at, 4, end, &note);
                    }
                    Table::Adjacency => {
                        let row = raw.adjacency(i).map(i64::from);
                        let note = Neighbours(row);
                        e.ints(
                            label,
                            at,
                            12,
                            walkmesh_core::dump::Elem::I32,
                            row,
                            Some(&note),
                        );
                    }
                    Table::Edges => {
                        let (index, transition) = raw.edge(i);
                        e.group(label, Some(at), |e| {
                            let edge = EdgeRef(i64::from(index));
                            e.uint_noted("index", at, 4, index, &edge);
                            let note = (transition < 0).then_some(&"none" as &dyn fmt::Display);
                            e.int("transition", at + 4, transition, note);
                        });
                    }
                    Table::Aabb => {
                        let n = raw.aabb(i);
                        e.group(label, Some(at), |e| {
                            e.floats("min", at, &n.min);
                            e.floats("max", at + 12, &n.max);
                            let face =
                                (n.face < 0).then_some(&"none (inner node)" as &dyn fmt::Display);
                            e.int("face", at + 0x18, n.face, face);
                            e.uint("unknown", at + 0x1C, 4, n.unknown);
                            e.uint_noted("plane", at + 0x20, 4, n.plane, &Plane(n.plane));
                            e.int("first", at + 0x24, n.first as i32, Some(&Child(n.first)));
                            e.int("second", at + 0x28, n.second as i32, Some(&Child(n.second)));
                        });
                    }
                }
            }
        },
    );
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn notes_name_faces_edges_planes_and_children() {
        assert_eq!(EdgeRef(7).to_string(), "face 2 edge 1");
        assert_eq!(EdgeRef(-1).to_string(), "none");
        assert_eq!(
            Neighbours([-1, 7, 0]).to_string(),
            "edge 0: none, edge 1: face 2 edge 1, edge 2: face 0 edge 0"
        );
        assert_eq!(Plane(0).to_string(), "none (leaf)");
        assert_eq!(Plane(4).to_string(), "+Z");
        assert_eq!(Plane(9 | 64).to_string(), "+X -X and unknown bits 0x40");
        assert_eq!(Child(NONE).to_string(), "none (leaf)");
        assert_eq!(Child(3).to_string(), "node 3");
        let profile = crate::profile::kotor_profile();
        assert_eq!(MaterialNote(&profile, 4).to_string(), "Stone, walkable");
        assert_eq!(
            MaterialNote(&profile, 7).to_string(),
            "NonWalk, not walkable"
        );
        assert_eq!(
            MaterialNote(&profile, 99).to_string(),
            "not in the kotor profile"
        );
    }
}
