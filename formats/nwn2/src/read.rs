//! ASWM → NavMesh.
//!
//! Triangles become polygons counter-clockwise seen from +Z: a triangle flagged clockwise
//! (0x04, every baked TRX triangle) is stored as `[v0, v2, v1]`; the raw flags stay in the
//! face attribute `nwn2:flags`, which records that reversal. Derived data (edges, adjacency,
//! centres, planes, path tables, islands) is not kept in the IR: it stays in the provenance,
//! which the writer re-emits while the authored data is unchanged.

use std::sync::Arc;

use walkmesh_core::{
    Attribute, Diagnostics, Extra, Input, MeshKind, NavMesh, Polygons, Position, Provenance,
    ReadError, ReadOptions, Severity, Surface, TileGrid, material::MaterialProfile,
};

use crate::aswm::{Aswm, Wrapper, flags};
use crate::container::fourcc_text;
use crate::file::{self, TrxFile};

/// Text of the embedded NWN2 profile (`profiles/nwn2.ron`).
pub const NWN2_RON: &str = include_str!("../profiles/nwn2.ron");

/// The embedded NWN2 profile, or the user's when its engine is `nwn2`.
pub fn profile(user: Option<&Arc<MaterialProfile>>) -> MaterialProfile {
    if let Some(profile) = user.filter(|p| p.engine.eq_ignore_ascii_case("nwn2")) {
        return profile.as_ref().clone();
    }
    MaterialProfile::parse(NWN2_RON).unwrap_or_else(|_| MaterialProfile::neutral())
}

/// Extras key of an opaque packet's payload.
pub fn packet_key(index: usize) -> String {
    format!("nwn2:packet.{index:03}")
}

/// A side as [`crate::bake::sorted_sides`] gives it: lower vertex, higher vertex, triangle,
/// side of the triangle.
pub(crate) type Side = (u32, u32, u32, u8);

/// The sides of the stored triangles, sorted ([`crate::bake::sorted_sides`]).
pub(crate) fn stored_sides(aswm: &crate::aswm::Aswm) -> Vec<Side> {
    let stored: Vec<[u32; 3]> = aswm.triangles.iter().map(|t| t.vertices).collect();
    crate::bake::sorted_sides(&stored)
}

/// Which triangle is linked across each side that more than two triangles share, as stored:
/// one column per IR polygon edge (edge e = IR vertex e → e+1); the partner triangle, `-1`
/// for none, [`crate::bake::NO_LINK_HINT`] where the side is shared by at most two triangles
/// (the bake derives those). `None` when no side is shared by more than two.
///
/// `sides`: the stored triangles' [`crate::bake::sorted_sides`], when the caller has them.
fn link_hints(aswm: &crate::aswm::Aswm, sides: Option<&[Side]>) -> Option<[Vec<i64>; 3]> {
    let key = |a: u32, b: u32| (a.min(b), a.max(b));
    let sorted;
    let sides = match sides {
        Some(sides) => sides,
        None => {
            sorted = stored_sides(aswm);
            &sorted
        }
    };
    let mut crowded: Vec<(u32, u32)> = sides
        .windows(3)
        .filter(|w| matches!(w, [a, b, c] if (a.0, a.1) == (b.0, b.1) && (b.0, b.1) == (c.0, c.1)))
        .filter_map(|w| w.first().map(|s| (s.0, s.1)))
        .collect();
    crowded.dedup();
    if crowded.is_empty() {
        return None;
    }
    let none = crate::bake::NO_LINK_HINT;
    let mut columns = [
        vec![none; aswm.triangles.len()],
        vec![none; aswm.triangles.len()],
        vec![none; aswm.triangles.len()],
    ];
    for (t, tri) in aswm.triangles.iter().enumerate() {
        let [a, b, c] = tri.vertices;
        // IR order: reversed for clockwise triangles.
        let ir = if tri.flags & flags::CLOCKWISE != 0 {
            [a, c, b]
        } else {
            [a, b, c]
        };
        for e in 0..3 {
            let side = key(ir[e], ir[(e + 1) % 3]);
            if crowded.binary_search(&side).is_err() {
                continue;
            }
            let partner = (0..3).find_map(|s| {
                let edge = aswm.edges.get(tri.edges[s] as usize)?;
                (key(edge.vertices[0], edge.vertices[1]) == side).then_some(tri.neighbours[s])
            });
            if let (Some(p), Some(slot)) = (partner, columns[e].get_mut(t)) {
                *slot = if p == crate::aswm::NONE32 {
                    -1
                } else {
                    i64::from(p)
                };
            }
        }
    }
    Some(columns)
}

/// Reads a TRN/TRX file into the IR.
pub fn read_trx(
    input: Input<'_>,
    options: &ReadOptions,
    diag: &mut Diagnostics,
) -> Result<NavMesh, ReadError> {
    let file = file::parse_skeleton(input.bytes, options.max_decompressed)?;
    to_navmesh(&file, input.bytes, options, diag)
}

/// Builds the IR of a parsed file: the triangles with their surfaces and raw flags
/// ([`read_triangles`]), the tile each was stored in ([`stored_tiles`]), the link hints and
/// the grid, then the container's fields and packets as extras ([`container_extras`]).
pub fn to_navmesh(
    file: &TrxFile<'_>,
    bytes: &[u8],
    options: &ReadOptions,
    diag: &mut Diagnostics,
) -> Result<NavMesh, ReadError> {
    to_navmesh_with(file, bytes, options, diag, None)
}

/// [`to_navmesh`] with the stored triangles' sorted sides when the caller has sorted them
/// already (the output check shares them with the validator).
pub(crate) fn to_navmesh_with(
    file: &TrxFile<'_>,
    bytes: &[u8],
    options: &ReadOptions,
    diag: &mut Diagnostics,
    sides: Option<&[Side]>,
) -> Result<NavMesh, ReadError> {
    let aswm = &file.aswm;
    let (polygons, surfaces, raw_flags) = read_triangles(file, options, diag)?;
    let mut mesh = NavMesh {
        kind: MeshKind::Terrain,
        vertices: aswm.vertices.clone(),
        polygons,
        surfaces,
        ..NavMesh::default()
    };
    mesh.face_attributes
        .insert("nwn2:flags".into(), Attribute::Int(raw_flags));
    mesh.face_attributes
        .insert("nwn2:tile".into(), Attribute::Int(stored_tiles(aswm)));
    if let Some(links) = link_hints(aswm, sides) {
        for (e, column) in links.into_iter().enumerate() {
            mesh.face_attributes
                .insert(format!("nwn2:link{e}"), Attribute::Int(column));
        }
    }
    mesh.tile_grid = Some(TileGrid {
        columns: aswm.grid_width,
        rows: aswm.grid_height,
        tile_width: aswm.tile_width,
        tile_height: aswm.tile_width,
        origin: [0.0, 0.0],
    });
    container_extras(file, &mut mesh.extras, diag);
    if options.keep_provenance {
        let mut sections: Vec<(String, Arc<[u8]>)> = vec![
            ("file".into(), Arc::from(bytes)),
            ("aswm.body".into(), Arc::clone(&file.body)),
        ];
        if let Some(stream) = file.stream {
            sections.push(("aswm.zlib".into(), Arc::from(stream)));
        }
        mesh.provenance = Some(Provenance {
            format: "trx".into(),
            fingerprint: mesh.fingerprint(),
            sections,
            ..Provenance::default()
        });
    }
    mesh.check()
        .map_err(|error| ReadError::whole("aswm.triangles", error.to_string()))?;
    Ok(mesh)
}

/// The triangles as polygons (a clockwise-flagged one reversed, so that every polygon is
/// counter-clockwise), their surfaces (walkability from flag 0x01, material from the
/// footstep bits through the profile) and raw flags. Vertices must be finite and every
/// corner must name one.
#[allow(clippy::type_complexity)]
fn read_triangles(
    file: &TrxFile<'_>,
    options: &ReadOptions,
    diag: &mut Diagnostics,
) -> Result<(Polygons, Vec<Surface>, Vec<i64>), ReadError> {
    let aswm = &file.aswm;
    let profile = profile(options.materials.as_ref());
    let vertex_count = aswm.vertices.len() as u32;
    if let Some((i, axis)) = walkmesh_core::ir::first_non_finite(&aswm.vertices) {
        return Err(ReadError::at_offset(
            file.layout.vertices + 12 * i as u64 + 4 * axis as u64,
            format!("aswm.vertices[{i}].{}", walkmesh_core::ir::axis_name(axis)),
            format!(
                "vertex {i} has the coordinate {}; coordinates must be finite numbers",
                aswm.vertices
                    .get(i)
                    .map_or(0.0, |v| v.get(axis).copied().unwrap_or(0.0))
            ),
        ));
    }
    let mut polygons = Polygons::with_capacity(aswm.triangles.len(), aswm.triangles.len() * 3);
    let mut surfaces = Vec::with_capacity(aswm.triangles.len());
    let mut raw_flags = Vec::with_capacity(aswm.triangles.len());
    let mut unknown_codes = 0usize;
    for (i, t) in aswm.triangles.iter().enumerate() {
        if let Some(&bad) = t.vertices.iter().find(|&&v| v >= vertex_count) {
            return Err(ReadError::at_offset(
                file.layout.triangles + file.layout.triangle_size * i as u64,
                format!("aswm.triangles[{i}].vertices"),
                format!(
                    "triangle {i} uses vertex {bad}, but there are only {vertex_count} vertices"
                ),
            ));
        }
        let [a, b, c] = t.vertices;
        if t.flags & flags::CLOCKWISE != 0 {
            polygons.push(&[a, c, b]);
        } else {
            polygons.push(&[a, b, c]);
        }
        let code = u32::from(t.flags & flags::FOOTSTEPS);
        let material = match profile.surface_for_code(code) {
            Some(surface) => surface.material,
            None => {
                unknown_codes += 1;
                profile.default_surface().material
            }
        };
        surfaces.push(Surface {
            material,
            walkable: t.flags & flags::WALKABLE != 0,
            code,
        });
        raw_flags.push(i64::from(t.flags));
    }
    if unknown_codes > 0 {
        diag.push(
            Severity::Warning,
            "trx.unknown_footstep_flags",
            Position::None,
            Some("aswm.triangles.flags"),
            format!(
                "{unknown_codes} triangles carry a footstep flag combination the NWN2 profile does not list; they get the default material '{}'",
                profile.default_material
            ),
        );
    }
    Ok((polygons, surfaces, raw_flags))
}

/// The tile each triangle was stored in (−1 for none). Geometry alone cannot tell it for the
/// vertical slivers lying exactly on a tile boundary (the toolset keeps them with the tile
/// model they came from, on either side), so a re-bake keeps it while the centre still
/// touches that tile.
fn stored_tiles(aswm: &Aswm) -> Vec<i64> {
    let mut tile_of = vec![-1i64; aswm.triangles.len()];
    let mut running = 0usize;
    for (index, tile) in aswm.tiles.iter().enumerate() {
        let start = if tile.triangles_offset as usize == running {
            running
        } else {
            tile.triangles_offset as usize
        };
        let end = start.saturating_add(tile.triangle_count as usize);
        for slot in tile_of
            .get_mut(start..end.min(aswm.triangles.len()))
            .unwrap_or(&mut [])
        {
            *slot = index as i64;
        }
        running = end;
    }
    tile_of
}

/// The container's versions, the ASWM's version, tile flags and border, the TRWH id (warned
/// when TRWH is missing or disagrees with the grid), the packet list and the payloads of
/// the packets other than TRWH and ASWM, which a bake writes back as they were.
fn container_extras(
    file: &TrxFile<'_>,
    extras: &mut std::collections::BTreeMap<String, Extra>,
    diag: &mut Diagnostics,
) {
    let aswm = &file.aswm;
    extras.insert(
        "nwn2:version_major".into(),
        Extra::Int(i64::from(file.container.major)),
    );
    extras.insert(
        "nwn2:version_minor".into(),
        Extra::Int(i64::from(file.container.minor)),
    );
    extras.insert(
        "nwn2:aswm_version".into(),
        Extra::Int(i64::from(aswm.version)),
    );
    extras.insert(
        "nwn2:tiles_flags".into(),
        Extra::Int(i64::from(aswm.tiles_flags)),
    );
    extras.insert("nwn2:border".into(), Extra::Int(i64::from(aswm.border)));
    if let Some((_, trwh)) = &file.trwh {
        extras.insert("nwn2:trwh_id".into(), Extra::Int(i64::from(trwh.id)));
        if trwh.width != aswm.grid_width || trwh.height != aswm.grid_height {
            diag.push(
                Severity::Warning,
                "trx.trwh_grid_mismatch",
                Position::None,
                Some("TRWH"),
                format!(
                    "TRWH says {} x {} but the walkmesh grid is {} x {}",
                    trwh.width, trwh.height, aswm.grid_width, aswm.grid_height
                ),
            );
        }
    } else {
        diag.push(
            Severity::Warning,
            "trx.missing_trwh",
            Position::None,
            None,
            "the file has no TRWH packet; the game needs one",
        );
    }
    extras.insert(
        "nwn2:packets".into(),
        Extra::TextList(
            file.container
                .packets
                .iter()
                .map(|p| fourcc_text(p.fourcc))
                .collect(),
        ),
    );
    for (i, packet) in file.container.packets.iter().enumerate() {
        if &packet.fourcc != b"TRWH" && &packet.fourcc != b"ASWM" {
            extras.insert(packet_key(i), Extra::Bytes(packet.payload.to_vec()));
        }
    }
    if file.wrapper == Wrapper::Raw {
        diag.push(
            Severity::Info,
            "trx.uncompressed_aswm",
            Position::None,
            Some("ASWM"),
            "the walkmesh is stored without the COMP wrapper; it is accepted, but a rebaked file is compressed",
        );
    }
}
