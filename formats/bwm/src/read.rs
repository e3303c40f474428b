//! BWM → IR.
//!
//! What the IR gets: vertices (exact bits), faces in file order, one surface per face (code
//! and neutral material through the KotOR profile; walkability from an area file's walkable
//! block), transitions as edge tags, the walkmesh node position as `origin`, the
//! relative use points as hooks `use1`/`use2`, absolute use points that the writer's rule
//! would not reproduce as `bwm:absolute_use1/2` extras. The derived tables (normals,
//! distances, AABB, adjacency, edges, perimeters) are not decoded into the IR: the whole input
//! is kept as provenance so that an unchanged mesh is written back byte for byte.

use std::path::Path;
use std::sync::Arc;

use walkmesh_core::{
    Diagnostics, EdgeRef, EdgeTag, Extra, Hook, Input, Material, MaterialProfile, MeshKind,
    NavMesh, Polygons, Position, Provenance, ReadError, ReadOptions, Severity, Surface,
};

use crate::layout::{Header, RawBwm, TYPE_AREA, TYPE_OBJECT, Table, off};
use crate::profile;

/// Hook names for the two use points.
pub const HOOK_NAMES: [&str; 2] = ["use1", "use2"];
/// Extras holding absolute use points that differ from the writer's rule.
pub const ABSOLUTE_EXTRAS: [&str; 2] = ["bwm:absolute_use1", "bwm:absolute_use2"];

/// Mesh kind of a type-0 file, from its path: `.dwk` is a door, anything else a placeable.
pub fn object_kind(path: Option<&Path>) -> MeshKind {
    let is_door = path
        .and_then(|p| p.extension())
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("dwk"));
    if is_door {
        MeshKind::Door
    } else {
        MeshKind::Placeable
    }
}

/// The absolute use points the writer derives for `kind`: position + relative for doors,
/// zero otherwise (what kotorblender writes and the corpus PWK holds).
pub fn absolute_rule(kind: MeshKind, position: [f32; 3], relative: [[f32; 3]; 2]) -> [[f32; 3]; 2] {
    match kind {
        MeshKind::Door => {
            relative.map(|r| [position[0] + r[0], position[1] + r[1], position[2] + r[2]])
        }
        _ => [[0.0; 3]; 2],
    }
}

fn same_bits(a: [f32; 3], b: [f32; 3]) -> bool {
    a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Reads a BWM file into the IR: the raw tables parsed and bounds-checked
/// ([`RawBwm::parse`]), then vertices, faces, surfaces (with an area's walkable block
/// kept), transitions, hooks and the absolute use points that do not follow the rule.
pub fn read_bwm(
    input: Input<'_>,
    options: &ReadOptions,
    diag: &mut Diagnostics,
) -> Result<NavMesh, ReadError> {
    let raw = RawBwm::parse(input.bytes)?;
    let header = &raw.header;
    let kind = match header.walkmesh_type {
        TYPE_AREA => MeshKind::Area,
        TYPE_OBJECT => object_kind(input.path),
        other => {
            return Err(ReadError::at_offset(
                off::TYPE as u64,
                "header.type",
                format!("walkmesh type {other} is neither 1 (area) nor 0 (placeable or door)"),
            ));
        }
    };
    let profile = profile::choose(options.materials.as_ref());
    let vertices = read_vertices(&raw)?;
    let polygons = read_faces(&raw)?;
    let mut surfaces = read_surfaces(&raw, &profile, diag);
    if kind == MeshKind::Area {
        keep_walkable_block(&raw, &mut surfaces, diag);
    }
    let edge_tags = read_edge_tags(&raw)?;
    check_header_points(header)?;
    let mut hooks = Vec::new();
    let has_hooks = kind != MeshKind::Area || header.rel_use.iter().flatten().any(|&c| c != 0.0);
    if has_hooks {
        for (name, position) in HOOK_NAMES.iter().zip(header.rel_use) {
            hooks.push(Hook {
                name: (*name).to_string(),
                position,
            });
        }
    }
    let mut extras = std::collections::BTreeMap::new();
    let expected = absolute_rule(kind, header.position, header.rel_use);
    for ((name, stored), expected) in ABSOLUTE_EXTRAS.iter().zip(header.abs_use).zip(expected) {
        if !same_bits(stored, expected) {
            extras.insert((*name).to_string(), Extra::Floats(stored.to_vec()));
        }
    }

    let mut mesh = NavMesh {
        kind,
        vertices,
        polygons,
        surfaces,
        edge_tags,
        origin: header.position,
        hooks,
        extras,
        ..NavMesh::default()
    };
    if options.keep_provenance {
        mesh.provenance = Some(Provenance {
            format: "bwm".into(),
            fingerprint: mesh.fingerprint(),
            sections: vec![("file".into(), Arc::from(input.bytes))],
            ..Provenance::default()
        });
    }
    Ok(mesh)
}

/// The vertices, every coordinate finite.
fn read_vertices(raw: &RawBwm<'_>) -> Result<Vec<[f32; 3]>, ReadError> {
    let vertex_count = raw.vertex_count();
    let vertices: Vec<[f32; 3]> = (0..vertex_count).map(|i| raw.vertex(i)).collect();
    if let Some((i, axis)) = walkmesh_core::ir::first_non_finite(&vertices) {
        return Err(ReadError::at_offset(
            (raw.span(Table::Vertices).entry(Table::Vertices, i) + 4 * axis) as u64,
            format!("vertices[{i}].{}", walkmesh_core::ir::axis_name(axis)),
            format!(
                "vertex {i} has the coordinate {}; coordinates must be finite numbers",
                vertices
                    .get(i)
                    .map_or(0.0, |v| v.get(axis).copied().unwrap_or(0.0))
            ),
        ));
    }

    Ok(vertices)
}

/// The faces, every corner naming an existing vertex.
fn read_faces(raw: &RawBwm<'_>) -> Result<Polygons, ReadError> {
    let vertex_count = raw.vertex_count();
    let face_count = raw.face_count();
    let faces_span = raw.span(Table::Faces);
    let mut polygons = Polygons::with_capacity(face_count, face_count * 3);
    for i in 0..face_count {
        let face = raw.face(i);
        for (k, &index) in face.iter().enumerate() {
            if index as usize >= vertex_count {
                return Err(ReadError::at_offset(
                    (faces_span.entry(Table::Faces, i) + 4 * k) as u64,
                    format!("faces[{i}].v{}", k + 1),
                    format!(
                        "face {i} refers to vertex {index}, but the file has {vertex_count} vertices"
                    ),
                ));
            }
        }
        polygons.push(&face);
    }

    Ok(polygons)
}

/// Each face's surface from its material code through the profile; unknown codes are read
/// as not walkable, and warned once.
fn read_surfaces(
    raw: &RawBwm<'_>,
    profile: &MaterialProfile,
    diag: &mut Diagnostics,
) -> Vec<Surface> {
    let face_count = raw.face_count();
    let mut surfaces: Vec<Surface> = Vec::with_capacity(face_count);
    let mut unknown_codes = std::collections::BTreeSet::new();
    for i in 0..face_count {
        let code = raw.material(i);
        let surface = profile.surface_for_code(code).unwrap_or_else(|| {
            unknown_codes.insert(code);
            Surface {
                material: Material(u16::try_from(code).unwrap_or(u16::MAX)),
                walkable: false,
                code,
            }
        });
        surfaces.push(surface);
    }
    if !unknown_codes.is_empty() {
        diag.warn(
            "bwm.unknown_material",
            format!(
                "material code(s) {} are not in the KotOR profile; their faces are read as not walkable",
                join(unknown_codes.iter())
            ),
        );
    }

    surfaces
}

/// An area file's walkable block (its first adjacency-count faces) is what its adjacency,
/// edge and perimeter tables were built for, so the IR takes walkability from it: the mesh
/// then describes the file as it is and writes back unchanged. The game itself decides
/// walkability from surfacemat.2da, which the profile stands for; a rebuild applies the
/// profile (and warns when that changes a face).
fn keep_walkable_block(raw: &RawBwm<'_>, surfaces: &mut [Surface], diag: &mut Diagnostics) {
    let stored = raw.span(Table::Adjacency).count;
    let mut differs = 0usize;
    for (i, surface) in surfaces.iter_mut().enumerate() {
        let in_block = i < stored;
        if surface.walkable != in_block {
            differs += 1;
            surface.walkable = in_block;
        }
    }
    if differs > 0 {
        diag.push(
                Severity::Warning,
                "bwm.walkability_differs",
                Position::Offset(off::ADJACENCY_COUNT as u64),
                Some("header.adjacency_count"),
                format!(
                    "{differs} face(s) are walkable by the material profile but outside the file's walkable block of {stored} faces, or the reverse; the file's block is kept, --rebuild applies the profile"
                ),
            );
    }
}

/// The transitions of the edge table, each on an existing face.
fn read_edge_tags(
    raw: &RawBwm<'_>,
) -> Result<std::collections::BTreeMap<EdgeRef, EdgeTag>, ReadError> {
    let face_count = raw.face_count();
    let mut edge_tags = std::collections::BTreeMap::new();
    let edges_span = raw.span(Table::Edges);
    for i in 0..edges_span.count {
        let (index, transition) = raw.edge(i);
        if transition == -1 {
            continue;
        }
        let face = (index / 3) as usize;
        if face >= face_count {
            return Err(ReadError::at_offset(
                edges_span.entry(Table::Edges, i) as u64,
                format!("edges[{i}].index"),
                format!(
                    "edge {i} carries transition {transition} on face {face}, but the file has {face_count} faces"
                ),
            ));
        }
        edge_tags.insert(
            EdgeRef {
                polygon: face as u32,
                edge: index % 3,
            },
            EdgeTag { transition },
        );
    }

    Ok(edge_tags)
}

/// Refuses a non-finite position or relative use point.
fn check_header_points(header: &Header) -> Result<(), ReadError> {
    for (at, field, point) in [
        (off::POSITION, "header.position", header.position),
        (off::REL_USE1, "header.rel_use1", header.rel_use[0]),
        (off::REL_USE2, "header.rel_use2", header.rel_use[1]),
    ] {
        if let Some((_, axis)) = walkmesh_core::ir::first_non_finite(&[point]) {
            return Err(ReadError::at_offset(
                (at + 4 * axis) as u64,
                format!("{field}.{}", walkmesh_core::ir::axis_name(axis)),
                "the coordinate is not a finite number",
            ));
        }
    }
    Ok(())
}

pub(crate) fn join<T: std::fmt::Display>(items: impl Iterator<Item = T>) -> String {
    items.map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
}
