//! `--fix`: the mechanical repairs, in an order where each step only helps the next.
//!
//! 1. Remove degenerate faces and the later face of each duplicate pair; flip downward
//!    walkable faces (reverse their corners).
//! 2. Join open and height seams inside one mesh: the matched ends of each meeting pair become
//!    one vertex at their mean position (heights snapped, plan gap closed). Room seams of an
//!    area are left alone: rooms are separate files joined by transitions.
//! 3. Split T-junctions: a triangle with vertices on one edge is cut into a fan from its
//!    opposite corner; any other face takes the vertices as extra corners.
//! 4. Drop vertices no face uses.
//!
//! Steps 1–3 run again while fixable findings remain (welding can make two faces one
//! duplicate), at most [`MAX_PASSES`] times.
//!
//! Every face keeps its surface (material and walkability), attribute columns and edge tags
//! (a split edge's tag goes to each of its pieces). Repairs name faces in the input's
//! numbering.

use rustc_hash::FxHashMap;
use serde::Serialize;
use walkmesh_core::passes::polygon_normal;
use walkmesh_core::{EdgeRef, Material, NavMesh, Polygons, Surface};

use crate::seams::{SeamKind, find_t_junctions, kind, meeting_edges};
use crate::{
    Context, DEGENERATE, DOWNWARD_WALKABLE, HEIGHT_SEAM, LintOptions, OPEN_SEAM, OVERLAP,
    T_JUNCTION,
};

/// One repair made, with the faces it touched in the input's numbering.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Repair {
    pub code: String,
    pub faces: Vec<u32>,
    pub message: String,
}

/// The repaired mesh, what was done, and where each face came from.
#[derive(Clone, Debug)]
pub struct Fixed {
    pub mesh: NavMesh,
    pub repairs: Vec<Repair>,
    /// Input face of every output face.
    pub origin: Vec<u32>,
}

/// Never used: every piece comes from a face that has a surface ([`NavMesh::check`]).
const NOT_WALKABLE: Surface = Surface {
    material: Material(0),
    walkable: false,
    code: 0,
};

/// A face of the mesh being rebuilt: its corners, the face of the previous mesh it comes from,
/// and, per edge, the source face's edge it lies on (`None`: a new inner edge).
struct Piece {
    corners: Vec<u32>,
    source: u32,
    edges: Vec<Option<u32>>,
}

impl Piece {
    fn unchanged(mesh: &NavMesh, face: usize) -> Piece {
        let corners = mesh.polygons.get(face).to_vec();
        let edges = (0..corners.len() as u32).map(Some).collect();
        Piece {
            corners,
            source: face as u32,
            edges,
        }
    }
}

/// A mesh of `pieces`, each carrying its source face's surface, attributes and edge tags.
fn rebuild(mesh: &NavMesh, pieces: &[Piece], vertices: Vec<[f32; 3]>) -> NavMesh {
    let order: Vec<u32> = pieces.iter().map(|p| p.source).collect();
    let mut polygons =
        Polygons::with_capacity(pieces.len(), pieces.iter().map(|p| p.corners.len()).sum());
    let mut surfaces = Vec::with_capacity(pieces.len());
    let mut edge_tags = std::collections::BTreeMap::new();
    for (index, piece) in pieces.iter().enumerate() {
        polygons.push(&piece.corners);
        surfaces.push(
            mesh.surfaces
                .get(piece.source as usize)
                .copied()
                .unwrap_or(NOT_WALKABLE),
        );
        for (edge, source_edge) in piece.edges.iter().enumerate() {
            let Some(source_edge) = source_edge else {
                continue;
            };
            let key = EdgeRef {
                polygon: piece.source,
                edge: *source_edge,
            };
            if let Some(tag) = mesh.edge_tags.get(&key) {
                let new_key = EdgeRef {
                    polygon: index as u32,
                    edge: edge as u32,
                };
                edge_tags.insert(new_key, *tag);
            }
        }
    }
    NavMesh {
        kind: mesh.kind,
        vertices,
        polygons,
        surfaces,
        edge_tags,
        face_attributes: mesh
            .face_attributes
            .iter()
            .map(|(name, column)| (name.clone(), column.permuted(&order)))
            .collect(),
        origin: mesh.origin,
        hooks: mesh.hooks.clone(),
        tile_grid: mesh.tile_grid,
        extras: mesh.extras.clone(),
        // The authored data changed: the source bytes no longer describe it.
        provenance: None,
    }
}

/// A repair can make another: welding a seam can leave two faces on the same corners (a new
/// duplicate). The steps run again while fixable findings remain, at most this many times.
const MAX_PASSES: usize = 4;

/// Repairs what is mechanical in `mesh` (see the module).
pub fn fix(mesh: &NavMesh, options: &LintOptions) -> Fixed {
    let mut repairs = Vec::new();
    let mut current = mesh.clone();
    let mut origin: Vec<u32> = (0..mesh.polygons.len() as u32).collect();
    for _ in 0..MAX_PASSES {
        let (step1, origin1) = remove_and_flip(&current, options, &origin, &mut repairs);
        let (step2, origin2) = join_seams(&step1, options, &origin1, &mut repairs);
        let (step3, origin3) = split_t_junctions(&step2, options, &origin2, &mut repairs);
        current = step3;
        origin = origin3;
        let left = crate::lint(&current, options, None);
        if !left.iter().any(|finding| finding.fixable) {
            break;
        }
    }
    Fixed {
        mesh: drop_unused_vertices(&current),
        repairs,
        origin,
    }
}

/// Repairs one room of an area on its own, as `lint AREA --fix OUTDIR` does room by room.
/// The room's seams with other rooms are not its own to weld (they are transitions between
/// separate files), and a room alone has none to find. `None` when nothing needed repair, so
/// that the caller can keep the room's file byte for byte instead of writing it anew.
pub fn fix_room(mesh: &NavMesh, options: &LintOptions) -> Option<Fixed> {
    let fixed = fix(mesh, options);
    (!fixed.repairs.is_empty()).then_some(fixed)
}

fn input_faces(origin: &[u32], faces: &[u32]) -> Vec<u32> {
    faces
        .iter()
        .filter_map(|&f| origin.get(f as usize).copied())
        .collect()
}

/// Step 1: degenerate and duplicate faces out, downward walkable faces flipped.
fn remove_and_flip(
    mesh: &NavMesh,
    options: &LintOptions,
    origin: &[u32],
    repairs: &mut Vec<Repair>,
) -> (NavMesh, Vec<u32>) {
    let context = Context::new(mesh, *options);
    let mut removed = vec![false; mesh.polygons.len()];
    for (face, slot) in removed.iter_mut().enumerate() {
        if let Some(why) = crate::surface::degeneracy(&context, face) {
            *slot = true;
            repairs.push(Repair {
                code: DEGENERATE.into(),
                faces: input_faces(origin, &[face as u32]),
                message: format!("removed: {why}"),
            });
        }
    }
    let mut overlaps = Vec::new();
    crate::overlap::overlaps(&context, &mut overlaps);
    // A fixable overlap is a face and its later copies (one pair, or a group of copies).
    for duplicate in overlaps.iter().filter(|f| f.fixable) {
        let Some((&kept, copies)) = duplicate.faces.split_first() else {
            continue;
        };
        for &later in copies {
            let already = removed.get(kept as usize).copied().unwrap_or(true)
                || removed.get(later as usize).copied().unwrap_or(true);
            if already {
                continue;
            }
            if let Some(slot) = removed.get_mut(later as usize) {
                *slot = true;
            }
            repairs.push(Repair {
                code: OVERLAP.into(),
                faces: input_faces(origin, &[later, kept]),
                message:
                    "removed a duplicate face (the first face of the list; the second is kept)"
                        .into(),
            });
        }
    }
    let engine = options.engine;
    let mut pieces = Vec::with_capacity(mesh.polygons.len());
    for face in 0..mesh.polygons.len() {
        if removed.get(face).copied().unwrap_or(true) {
            continue;
        }
        let normal = polygon_normal(mesh, face);
        let downward = mesh.is_walkable(face) && normal[2] < 0.0 && !engine.is_steep(normal);
        if !downward {
            pieces.push(Piece::unchanged(mesh, face));
            continue;
        }
        // Reversed corners [v0, vn-1, …, v1]: new edge k runs along old edge n-1-k.
        let corners = mesh.polygons.get(face);
        let n = corners.len();
        let reversed: Vec<u32> = (0..n).map(|k| corners[(n - k) % n]).collect();
        let edges = (0..n).map(|k| Some(((n - 1 - k) % n) as u32)).collect();
        pieces.push(Piece {
            corners: reversed,
            source: face as u32,
            edges,
        });
        repairs.push(Repair {
            code: DOWNWARD_WALKABLE.into(),
            faces: input_faces(origin, &[face as u32]),
            message: "flipped to face up (corner order reversed)".into(),
        });
    }
    let new_origin = pieces
        .iter()
        .filter_map(|p| origin.get(p.source as usize).copied())
        .collect();
    (rebuild(mesh, &pieces, mesh.vertices.clone()), new_origin)
}

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while let Some(&p) = parent.get(x as usize) {
        if p == x {
            break;
        }
        x = p;
    }
    x
}

/// Step 2: the matched ends of every open or height seam become one vertex at their mean.
fn join_seams(
    mesh: &NavMesh,
    options: &LintOptions,
    origin: &[u32],
    repairs: &mut Vec<Repair>,
) -> (NavMesh, Vec<u32>) {
    let context = Context::new(mesh, *options);
    let meetings = meeting_edges(&context);
    let mut parent: Vec<u32> = (0..mesh.vertices.len() as u32).collect();
    for meeting in &meetings.pairs {
        let seam = kind(&context, meeting);
        // Rooms of an area are separate files: their seams are the transitions' business.
        if meeting.cross_room || !matches!(seam, SeamKind::Open | SeamKind::Height) {
            continue;
        }
        let Some(ends) = meetings.matched_ends(meeting) else {
            continue;
        };
        for (u, v) in ends {
            let (ru, rv) = (find(&mut parent, u), find(&mut parent, v));
            if ru != rv
                && let Some(slot) = parent.get_mut(ru.max(rv) as usize)
            {
                *slot = ru.min(rv);
            }
        }
        let (Some(x), Some(y)) = (
            meetings.edges.get(meeting.first),
            meetings.edges.get(meeting.second),
        ) else {
            continue;
        };
        let (code, message) = if seam == SeamKind::Open {
            (
                OPEN_SEAM,
                format!("welded the seam ({:.4} apart)", meeting.dxy),
            )
        } else {
            (
                HEIGHT_SEAM,
                format!(
                    "snapped the seam's heights ({:.3} apart) and welded it",
                    meeting.dz
                ),
            )
        };
        repairs.push(Repair {
            code: code.into(),
            faces: input_faces(origin, &[x.face, y.face]),
            message,
        });
    }
    let map: Vec<u32> = (0..mesh.vertices.len() as u32)
        .map(|v| find(&mut parent, v))
        .collect();
    let vertices = merged_positions(&mesh.vertices, &map);
    let mut pieces = Vec::with_capacity(mesh.polygons.len());
    let mut new_origin = Vec::with_capacity(mesh.polygons.len());
    for face in 0..mesh.polygons.len() {
        match collapsed(mesh.polygons.get(face), &map, face as u32) {
            Some(piece) => {
                new_origin.push(origin.get(face).copied().unwrap_or(face as u32));
                pieces.push(piece);
            }
            None => repairs.push(Repair {
                code: DEGENERATE.into(),
                faces: input_faces(origin, &[face as u32]),
                message: "removed: welding a seam left it fewer than three corners".into(),
            }),
        }
    }
    (rebuild(mesh, &pieces, vertices), new_origin)
}

/// Every vertex of a group moved to the group's mean position.
fn merged_positions(vertices: &[[f32; 3]], map: &[u32]) -> Vec<[f32; 3]> {
    let mut sums: FxHashMap<u32, ([f64; 3], f64)> = FxHashMap::default();
    for (v, &root) in map.iter().enumerate() {
        if root as usize != v {
            let p = vertices.get(v).copied().unwrap_or_default();
            let entry = sums.entry(root).or_insert_with(|| {
                let r = vertices.get(root as usize).copied().unwrap_or_default();
                (r.map(f64::from), 1.0)
            });
            for (sum, c) in entry.0.iter_mut().zip(p) {
                *sum += f64::from(c);
            }
            entry.1 += 1.0;
        }
    }
    let mut out = vertices.to_vec();
    for (root, (sum, count)) in sums {
        if let Some(slot) = out.get_mut(root as usize) {
            *slot = sum.map(|s| (s / count) as f32);
        }
    }
    out
}

/// A face's corners through `map`, without corners equal to the next; `None` when fewer
/// than three remain. Kept corner `i`'s outgoing edge lies on old edge `i`.
fn collapsed(corners: &[u32], map: &[u32], source: u32) -> Option<Piece> {
    let mapped: Vec<u32> = corners
        .iter()
        .map(|&v| map.get(v as usize).copied().unwrap_or(v))
        .collect();
    let n = mapped.len();
    let mut piece = Piece {
        corners: Vec::with_capacity(n),
        source,
        edges: Vec::with_capacity(n),
    };
    for i in 0..n {
        if mapped[i] != mapped[(i + 1) % n] {
            piece.corners.push(mapped[i]);
            piece.edges.push(Some(i as u32));
        }
    }
    let mut distinct = piece.corners.clone();
    distinct.sort_unstable();
    distinct.dedup();
    (distinct.len() >= 3).then_some(piece)
}

/// Step 3: vertices lying inside another face's edge become its corners.
fn split_t_junctions(
    mesh: &NavMesh,
    options: &LintOptions,
    origin: &[u32],
    repairs: &mut Vec<Repair>,
) -> (NavMesh, Vec<u32>) {
    let context = Context::new(mesh, *options);
    let edges = crate::seams::boundary_edges(&context);
    let junctions = find_t_junctions(&context, &edges);
    // Per face: per edge, the vertices on it by position along it.
    let mut on_edges: FxHashMap<u32, FxHashMap<u32, Vec<(f32, u32)>>> = FxHashMap::default();
    for junction in &junctions {
        on_edges
            .entry(junction.face)
            .or_default()
            .entry(junction.edge)
            .or_default()
            .push((junction.along, junction.vertex));
        repairs.push(Repair {
            code: T_JUNCTION.into(),
            faces: input_faces(origin, &[junction.face, junction.other_face]),
            message: format!(
                "split the first face's edge {} at the vertex of the second",
                junction.edge
            ),
        });
    }
    let mut pieces = Vec::with_capacity(mesh.polygons.len());
    for face in 0..mesh.polygons.len() {
        match on_edges.get_mut(&(face as u32)) {
            None => pieces.push(Piece::unchanged(mesh, face)),
            Some(per_edge) => {
                for list in per_edge.values_mut() {
                    list.sort_by(|a, b| a.0.total_cmp(&b.0));
                    list.dedup_by_key(|entry| entry.1);
                }
                pieces.extend(split_face(mesh.polygons.get(face), face as u32, per_edge));
            }
        }
    }
    let new_origin = pieces
        .iter()
        .filter_map(|p| origin.get(p.source as usize).copied())
        .collect();
    (rebuild(mesh, &pieces, mesh.vertices.clone()), new_origin)
}

/// A face with extra vertices on some edges: a fan of triangles for a triangle split on one
/// edge (so triangle-only formats stay simple), else one polygon with the extra corners.
fn split_face(
    corners: &[u32],
    face: u32,
    per_edge: &FxHashMap<u32, Vec<(f32, u32)>>,
) -> Vec<Piece> {
    let n = corners.len();
    let edges_split: Vec<(&u32, &Vec<(f32, u32)>)> = per_edge.iter().collect();
    if let ([a, b, c], [(edge, list)]) = (corners, edges_split.as_slice()) {
        let edge = **edge;
        let e = edge as usize % 3;
        let ring = [*a, *b, *c];
        let (start, end, apex) = (ring[e], ring[(e + 1) % 3], ring[(e + 2) % 3]);
        let mut points = vec![start];
        points.extend(list.iter().map(|entry| entry.1));
        points.push(end);
        let last = points.len() - 2;
        return (0..=last)
            .map(|j| Piece {
                corners: vec![points[j], points[j + 1], apex],
                source: face,
                edges: vec![
                    Some(edge),
                    (j == last).then_some(((e + 1) % 3) as u32),
                    (j == 0).then_some(((e + 2) % 3) as u32),
                ],
            })
            .collect();
    }
    let mut piece = Piece {
        corners: Vec::with_capacity(n + 2),
        source: face,
        edges: Vec::with_capacity(n + 2),
    };
    for (i, &corner) in corners.iter().enumerate() {
        piece.corners.push(corner);
        piece.edges.push(Some(i as u32));
        if let Some(list) = per_edge.get(&(i as u32)) {
            for &(_, vertex) in list {
                piece.corners.push(vertex);
                piece.edges.push(Some(i as u32));
            }
        }
    }
    vec![piece]
}

/// The mesh without vertices no face uses (welding leaves the merged ones behind); the
/// others keep their order.
fn drop_unused_vertices(mesh: &NavMesh) -> NavMesh {
    let mut used = vec![false; mesh.vertices.len()];
    for &v in mesh.polygons.indices() {
        if let Some(slot) = used.get_mut(v as usize) {
            *slot = true;
        }
    }
    let mut new_index = vec![0u32; mesh.vertices.len()];
    let mut vertices = Vec::with_capacity(mesh.vertices.len());
    for (v, &keep) in used.iter().enumerate() {
        if keep {
            if let Some(slot) = new_index.get_mut(v) {
                *slot = vertices.len() as u32;
            }
            vertices.push(mesh.vertex(v as u32));
        }
    }
    let mut out = mesh.clone();
    for index in out.polygons.indices_mut() {
        *index = new_index.get(*index as usize).copied().unwrap_or(0);
    }
    out.vertices = vertices;
    out
}
