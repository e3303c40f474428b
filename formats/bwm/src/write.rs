//! IR → BWM: re-emit preserved bytes when the mesh is unchanged, otherwise rebuild every
//! derived table.

use std::borrow::Cow;

use walkmesh_core::passes::triangulate;
use walkmesh_core::{
    Diagnostics, EdgeRef, Encoded, Extra, MeshKind, NavMesh, Output, WriteError, WriteOptions,
};

use crate::derived;
use crate::layout::{AABB_NODE_SIZE, AabbNode, HEADER_SIZE, TYPE_AREA, TYPE_OBJECT};
use crate::profile;
use crate::read::{ABSOLUTE_EXTRAS, HOOK_NAMES, absolute_rule};

/// The kind to write: `options.kind`, else the output file's extension (`.pwk` placeable,
/// `.dwk` door, `.wok` area), else the mesh's own kind. Terrain is written as an area.
pub fn output_kind(mesh: &NavMesh, options: &WriteOptions) -> MeshKind {
    let from_name = options.file_name.as_deref().and_then(|name| {
        let extension = std::path::Path::new(name)
            .extension()?
            .to_str()?
            .to_ascii_lowercase();
        match extension.as_str() {
            "pwk" => Some(MeshKind::Placeable),
            "dwk" => Some(MeshKind::Door),
            "wok" => Some(MeshKind::Area),
            _ => None,
        }
    });
    match options.kind.or(from_name).unwrap_or(mesh.kind) {
        MeshKind::Terrain => MeshKind::Area,
        kind => kind,
    }
}

/// The derived and authored tables of one file, ready to serialise.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tables {
    pub walkmesh_type: u32,
    pub rel_use: [[f32; 3]; 2],
    pub abs_use: [[f32; 3]; 2],
    pub position: [f32; 3],
    pub vertices: Vec<[f32; 3]>,
    pub faces: Vec<[u32; 3]>,
    pub materials: Vec<u32>,
    pub normals: Vec<[f32; 3]>,
    pub distances: Vec<f32>,
    pub aabb: Vec<AabbNode>,
    pub adjacency: Vec<[i32; 3]>,
    pub edges: Vec<(u32, i32)>,
    pub perimeters: Vec<u32>,
}

/// Writes `mesh` as BWM.
pub fn write_bwm(
    mesh: &NavMesh,
    options: &WriteOptions,
    diag: &mut Diagnostics,
) -> Result<Output, WriteError> {
    let kind = output_kind(mesh, options);
    // Unchanged authored data (same fingerprint as when read, same kind): the stored tables
    // still belong to it, so the input is written back as it was — unless those tables are
    // wrong (third-party files with inverted AABB boxes, missing perimeters, one-sided
    // adjacency). Copying them would write a file our validator rejects, so they are
    // recomputed from the mesh, which is what they are derived from, and the user is told.
    if !options.rebuild
        && kind == mesh.kind
        && let Some(bytes) = mesh.fresh_provenance("bwm").and_then(|p| p.section("file"))
        && crate::validate::stored_errors(bytes).copy_or_warn(diag, "bwm.stored_tables_rebuilt")
    {
        return Ok(Output {
            main: bytes.to_vec(),
            sidecars: Vec::new(),
        });
    }
    let derived = derive(mesh, kind, options, diag)?;
    Ok(Output {
        main: serialize_derived(&derived)?,
        sidecars: Vec::new(),
    })
}

/// Recomputes every table of `mesh` written as `kind`.
pub fn rebuild_tables(
    mesh: &NavMesh,
    kind: MeshKind,
    options: &WriteOptions,
    diag: &mut Diagnostics,
) -> Result<Tables, WriteError> {
    let Derived {
        mesh,
        mut tables,
        walkable,
        adjacency,
    } = derive(mesh, kind, options, diag)?;
    let mesh = mesh.as_ref();
    tables.vertices = mesh.vertices.clone();
    tables.faces = mesh.polygons.iter().map(face_row).collect();
    (tables.normals, tables.distances) = derived::normals_and_distances(mesh);
    if let Some(adjacency) = &adjacency {
        tables.adjacency = derived::adjacency_rows(adjacency, walkable);
        tables.aabb = derived::aabb_tree(mesh);
    }
    Ok(tables)
}

/// A face's three corners (a triangle's; 0 for missing ones).
fn face_row(face: &[u32]) -> [u32; 3] {
    [0, 1, 2].map(|k| face.get(k).copied().unwrap_or(0))
}

/// What every table is derived from: the mesh in triangles, walkable faces first; the
/// header, material, edge and perimeter tables (the small ones); and, for areas, the
/// walkable adjacency. [`rebuild_tables`] fills the large tables from it,
/// [`serialize_derived`] writes them straight into the file.
struct Derived<'m> {
    mesh: Cow<'m, NavMesh>,
    /// Everything but vertices, faces, normals, distances, AABB nodes and adjacency rows.
    tables: Tables,
    walkable: usize,
    /// Areas only.
    adjacency: Option<walkmesh_core::passes::Adjacency>,
}

/// [`Derived`] for `mesh` written as `kind`, with every diagnostic of the rebuild.
fn derive<'m>(
    mesh: &'m NavMesh,
    kind: MeshKind,
    options: &WriteOptions,
    diag: &mut Diagnostics,
) -> Result<Derived<'m>, WriteError> {
    mesh.check()
        .map_err(|error| WriteError::new("mesh", error.to_string()))?;
    let mut current: Cow<'_, NavMesh> = Cow::Borrowed(mesh);
    if !current.polygons.all_triangles() {
        let (triangles, _) = triangulate(&current, diag);
        current = Cow::Owned(triangles);
    }

    // Codes and walkability from the profile; one predicate for order, count and adjacency.
    // A mesh read from BWM had its walkability from a KotOR profile, so the profile given
    // here decides it again (how `--rebuild --materials` applies another walkability).
    // A mesh from another engine carries its own walkability, which is kept where the
    // profile allows it (a face whose material has the other walkability in KotOR gets the
    // profile's default for its own). Every change is counted per material.
    let profile = profile::choose(options.materials.as_ref());
    let from_kotor = mesh.provenance.as_ref().is_some_and(|p| p.format == "bwm");
    let mut unknown = std::collections::BTreeSet::new();
    let mut changes = walkmesh_core::MaterialChanges::default();
    let surfaces: Vec<(u32, bool)> = current
        .surfaces
        .iter()
        .enumerate()
        .map(|(p, &s)| match profile.encode(s, true) {
            _ if from_kotor => match profile.surface_for_material(s.material) {
                Some(to) => {
                    changes.record(walkmesh_core::passes::polygon_area(&current, p), s, to);
                    (to.code, to.walkable)
                }
                None => {
                    unknown.insert(s.material.name().into_owned());
                    (s.code, s.walkable)
                }
            },
            Encoded::Exact(to) => (to.code, to.walkable),
            Encoded::Merged(to) | Encoded::WalkabilityChanged(to) => {
                changes.record(walkmesh_core::passes::polygon_area(&current, p), s, to);
                (to.code, to.walkable)
            }
            Encoded::Unknown => {
                unknown.insert(s.material.name().into_owned());
                (s.code, s.walkable)
            }
        })
        .collect();
    changes.report(diag, "bwm", "KotOR");
    let walkable = surfaces.iter().filter(|s| s.1).count();
    let ordered = surfaces.iter().take(walkable).all(|s| s.1);
    let (work, codes): (Cow<'_, NavMesh>, Vec<u32>) = if ordered {
        (current, surfaces.iter().map(|s| s.0).collect())
    } else {
        let len = surfaces.len() as u32;
        let is_walkable = |p: u32| surfaces.get(p as usize).is_some_and(|s| s.1);
        let order: Vec<u32> = (0..len)
            .filter(|&p| is_walkable(p))
            .chain((0..len).filter(|&p| !is_walkable(p)))
            .collect();
        let codes = order
            .iter()
            .map(|&p| surfaces.get(p as usize).map_or(0, |s| s.0))
            .collect();
        (Cow::Owned(current.with_polygon_order(&order)), codes)
    };
    let mesh = work.as_ref();

    let mut tables = Tables {
        walkmesh_type: if kind == MeshKind::Area {
            TYPE_AREA
        } else {
            TYPE_OBJECT
        },
        position: mesh.origin,
        materials: codes,
        ..Tables::default()
    };
    hooks(mesh, kind, &mut tables, diag);
    report_unstored(mesh, diag);

    let mut area_adjacency = None;
    if kind == MeshKind::Area {
        let adjacency = derived::walkable_adjacency(mesh, walkable);
        let tags = &mesh.edge_tags;
        let transition = |edge: EdgeRef| tags.get(&edge).map_or(-1, |t| t.transition);
        let (edges, perimeters) = derived::edges_and_perimeters(mesh, &adjacency, transition);
        let stored = edges
            .iter()
            .filter(|(index, _)| {
                tags.contains_key(&EdgeRef {
                    polygon: index / 3,
                    edge: index % 3,
                })
            })
            .count();
        if stored < tags.len() {
            diag.warn(
                "bwm.transitions_dropped",
                format!(
                    "{} transition(s) sit on edges that are not on the boundary of the walkable region; only boundary edges can carry one",
                    tags.len() - stored
                ),
            );
        }
        tables.edges = edges;
        tables.perimeters = perimeters;
        area_adjacency = Some(adjacency);
    } else if !mesh.edge_tags.is_empty() {
        diag.warn(
            "bwm.transitions_dropped",
            format!(
                "{} transition(s) dropped: placeable and door walkmeshes have no edge table",
                mesh.edge_tags.len()
            ),
        );
    }
    Ok(Derived {
        mesh: work,
        tables,
        walkable,
        adjacency: area_adjacency,
    })
}

/// Relative use points from the hooks (`use1`/`use2` by name, else the first others in
/// order); absolute ones from the `bwm:absolute_use*` extras, else the kind's rule.
fn hooks(mesh: &NavMesh, kind: MeshKind, tables: &mut Tables, diag: &mut Diagnostics) {
    let mut slots: [Option<[f32; 3]>; 2] = [None, None];
    let mut rest = Vec::new();
    for hook in &mesh.hooks {
        match HOOK_NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(&hook.name))
        {
            Some(i) if slots.get(i).is_some_and(Option::is_none) => {
                if let Some(slot) = slots.get_mut(i) {
                    *slot = Some(hook.position);
                }
            }
            _ => rest.push(hook),
        }
    }
    let mut rest = rest.into_iter();
    for slot in &mut slots {
        if slot.is_none() {
            *slot = rest.next().map(|h| h.position);
        }
    }
    let dropped: Vec<&str> = rest.map(|h| h.name.as_str()).collect();
    if !dropped.is_empty() {
        diag.warn(
            "bwm.hooks_dropped",
            format!(
                "BWM stores two use points; hook(s) {} are dropped",
                dropped.join(", ")
            ),
        );
    }
    tables.rel_use = slots.map(|s| s.unwrap_or([0.0; 3]));
    let rule = absolute_rule(kind, mesh.origin, tables.rel_use);
    for (k, name) in ABSOLUTE_EXTRAS.iter().enumerate() {
        let value = match mesh.extras.get(*name) {
            Some(Extra::Floats(v)) if v.len() == 3 => [v[0], v[1], v[2]],
            _ => rule.get(k).copied().unwrap_or([0.0; 3]),
        };
        if let Some(slot) = tables.abs_use.get_mut(k) {
            *slot = value;
        }
    }
}

/// Warns about authored data BWM has no place for.
fn report_unstored(mesh: &NavMesh, diag: &mut Diagnostics) {
    if !mesh.face_attributes.is_empty() {
        diag.warn(
            "bwm.attributes_dropped",
            format!(
                "per-face attribute(s) {} cannot be stored in BWM",
                mesh.face_attributes
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    let foreign: Vec<&String> = mesh
        .extras
        .keys()
        .filter(|k| !k.starts_with("bwm:"))
        .collect();
    if !foreign.is_empty() {
        diag.warn(
            "bwm.extras_dropped",
            format!(
                "mesh value(s) {} cannot be stored in BWM",
                foreign
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    if mesh.tile_grid.is_some() {
        diag.warn(
            "bwm.tile_grid_dropped",
            "BWM has no tile grid; it is dropped",
        );
    }
}

fn put_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn put_f32(out: &mut Vec<u8>, value: f32) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn put_vec3(out: &mut Vec<u8>, value: [f32; 3]) {
    value.iter().for_each(|&v| put_f32(out, v));
}

/// Entries of each table, in the game's order (vertices, faces, then the four per-face
/// tables share the face count; AABB nodes, adjacency rows, edges, perimeters).
struct Counts {
    vertices: usize,
    faces: usize,
    aabb: usize,
    adjacency: usize,
    edges: usize,
    perimeters: usize,
}

/// A new buffer of exactly the file's size holding its header; the byte offset of each
/// table follows from `counts`. Type-0 files get count and offset 0 for the four area-only
/// tables, as game files do.
fn header(tables: &Tables, counts: &Counts) -> Result<Vec<u8>, WriteError> {
    let area = tables.walkmesh_type == TYPE_AREA;
    let face_count = counts.faces;
    let sizes = [
        counts.vertices * 12,
        face_count * 12,
        face_count * 4,
        face_count * 12,
        face_count * 4,
        counts.aabb * 44,
        counts.adjacency * 12,
        counts.edges * 8,
        counts.perimeters * 4,
    ];
    let total: usize = HEADER_SIZE + sizes.iter().sum::<usize>();
    let too_big = || {
        WriteError::new(
            "mesh",
            format!("the walkmesh would need {total} bytes; BWM offsets are 32-bit"),
        )
        .with_kind(walkmesh_core::ErrorKind::Limit)
    };
    if u32::try_from(total).is_err() {
        return Err(too_big());
    }
    let mut offsets = [0u32; 9];
    let mut at = HEADER_SIZE;
    for (slot, size) in offsets.iter_mut().zip(sizes) {
        *slot = at as u32;
        at += size;
    }
    let count = |n: usize| u32::try_from(n).map_err(|_| too_big());

    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"BWM V1.0");
    put_u32(&mut out, tables.walkmesh_type);
    tables.rel_use.iter().for_each(|&v| put_vec3(&mut out, v));
    tables.abs_use.iter().for_each(|&v| put_vec3(&mut out, v));
    put_vec3(&mut out, tables.position);
    put_u32(&mut out, count(counts.vertices)?);
    put_u32(&mut out, offsets[0]);
    put_u32(&mut out, count(face_count)?);
    for &offset in &offsets[1..5] {
        put_u32(&mut out, offset);
    }
    let area_table = |n: usize, offset: u32| -> Result<(u32, u32), WriteError> {
        if area {
            Ok((count(n)?, offset))
        } else {
            Ok((0, 0))
        }
    };
    let (aabb_count, aabb_offset) = area_table(counts.aabb, offsets[5])?;
    put_u32(&mut out, aabb_count);
    put_u32(&mut out, aabb_offset);
    put_u32(&mut out, 0); // 0x6C: root node index, always 0.
    for (n, offset) in [
        (counts.adjacency, offsets[6]),
        (counts.edges, offsets[7]),
        (counts.perimeters, offsets[8]),
    ] {
        let (c, o) = area_table(n, offset)?;
        put_u32(&mut out, c);
        put_u32(&mut out, o);
    }
    Ok(out)
}

/// Serialises the tables: header, then the nine tables packed in the game's order. Type-0
/// files get count and offset 0 for the four area-only tables, as game files do.
pub fn serialize(tables: &Tables) -> Result<Vec<u8>, WriteError> {
    let area = tables.walkmesh_type == TYPE_AREA;
    let mut out = header(
        tables,
        &Counts {
            vertices: tables.vertices.len(),
            faces: tables.faces.len(),
            aabb: tables.aabb.len(),
            adjacency: tables.adjacency.len(),
            edges: tables.edges.len(),
            perimeters: tables.perimeters.len(),
        },
    )?;
    tables.vertices.iter().for_each(|&v| put_vec3(&mut out, v));
    for face in &tables.faces {
        face.iter().for_each(|&i| put_u32(&mut out, i));
    }
    tables.materials.iter().for_each(|&m| put_u32(&mut out, m));
    tables.normals.iter().for_each(|&n| put_vec3(&mut out, n));
    tables.distances.iter().for_each(|&d| put_f32(&mut out, d));
    if area {
        for node in &tables.aabb {
            put_vec3(&mut out, node.min);
            put_vec3(&mut out, node.max);
            put_u32(&mut out, node.face as u32);
            put_u32(&mut out, node.unknown);
            put_u32(&mut out, node.plane);
            put_u32(&mut out, node.first);
            put_u32(&mut out, node.second);
        }
        for row in &tables.adjacency {
            row.iter().for_each(|&a| put_u32(&mut out, a as u32));
        }
        put_links(&mut out, tables);
    }
    Ok(out)
}

/// The edge and perimeter tables.
fn put_links(out: &mut Vec<u8>, tables: &Tables) {
    for &(index, transition) in &tables.edges {
        put_u32(out, index);
        put_u32(out, transition as u32);
    }
    tables.perimeters.iter().for_each(|&p| put_u32(out, p));
}

/// The file [`serialize`] makes of [`rebuild_tables`], written straight into one buffer of
/// the file's size: the large tables (vertices, faces, normals, distances, AABB nodes,
/// adjacency rows) never exist apart from the file, and the AABB tree is built in place in
/// its table. A million faces are about 140 MB less memory touched.
fn serialize_derived(d: &Derived<'_>) -> Result<Vec<u8>, WriteError> {
    let mesh = d.mesh.as_ref();
    let tables = &d.tables;
    let face_count = mesh.polygons.len();
    let area = tables.walkmesh_type == TYPE_AREA;
    let (aabb, adjacency) = match &d.adjacency {
        Some(_) => ((2 * face_count).saturating_sub(1), d.walkable),
        None => (0, 0),
    };
    let mut out = header(
        tables,
        &Counts {
            vertices: mesh.vertices.len(),
            faces: face_count,
            aabb,
            adjacency,
            edges: tables.edges.len(),
            perimeters: tables.perimeters.len(),
        },
    )?;
    mesh.vertices.iter().for_each(|&v| put_vec3(&mut out, v));
    for face in mesh.polygons.iter() {
        face_row(face).iter().for_each(|&i| put_u32(&mut out, i));
    }
    tables.materials.iter().for_each(|&m| put_u32(&mut out, m));
    // Normals, then distances: each distance is computed with its normal and kept until
    // the normal table is complete.
    let mut distances = Vec::with_capacity(face_count);
    for face in mesh.polygons.iter() {
        let (normal, distance) = derived::normal_and_distance(mesh, face);
        put_vec3(&mut out, normal);
        distances.push(distance);
    }
    distances.iter().for_each(|&v| put_f32(&mut out, v));
    if area && let Some(links) = &d.adjacency {
        let start = out.len();
        out.resize(start + aabb * AABB_NODE_SIZE, 0);
        let built = out
            .get_mut(start..)
            .map(|table| table.as_chunks_mut::<AABB_NODE_SIZE>().0)
            .is_some_and(|nodes| derived::aabb_tree_into(mesh, nodes));
        if !built {
            return Err(WriteError::new(
                "aabb",
                "the AABB table could not be laid out for the faces (internal error)",
            ));
        }
        for face in 0..d.walkable {
            derived::adjacency_row(links, face)
                .iter()
                .for_each(|&a| put_u32(&mut out, a as u32));
        }
        put_links(&mut out, tables);
    }
    Ok(out)
}
