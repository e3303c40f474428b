//! The render floor: source triangles, their walkability by slope and surface by material
//! name, and the plan index that gives an output point its height on the render floor.

use walkmesh_core::NavMesh;
use walkmesh_core::ir::{Attribute, Extra};
use walkmesh_core::material::{Material, Surface};

use crate::Params;
use crate::wall_foot;

/// One source triangle.
#[derive(Clone, Copy, Debug)]
pub struct Triangle {
    pub corners: [[f32; 3]; 3],
    /// Steepness within `max_slope` and facing up.
    pub walkable: bool,
    /// Walkable surface its material suggests (or the default).
    pub surface: Surface,
    /// Its render material names a surface no character starts from (water, lava, sky,
    /// void: `Params::not_floor`): never the floor chosen when no seed is given.
    pub not_floor: bool,
    /// The raised lip of a ledge ([`crate::lips`]): a floor a piece is chosen and joined by,
    /// left out of the kept floor.
    pub lip: bool,
}

/// The input's triangles (polygons fanned), non-finite ones left out.
#[derive(Clone, Debug, Default)]
pub struct Source {
    pub triangles: Vec<Triangle>,
}

impl Source {
    /// What [`Source::from_mesh`] allocates for `mesh`: a triangle and a wall mark per fanned
    /// triangle, the curved-wall feet at most once more each.
    pub fn bytes_for(mesh: &NavMesh) -> u64 {
        let triangles: usize = mesh
            .polygons
            .iter()
            .map(|corners| corners.len().saturating_sub(2))
            .sum();
        let per_triangle = std::mem::size_of::<Triangle>() as u64 * 2 + 1;
        (triangles as u64).saturating_mul(per_triangle)
    }

    pub fn from_mesh(mesh: &NavMesh, params: &Params) -> Source {
        let names = material_names(mesh);
        let nodes = face_node_names(mesh);
        let min_up = params.max_slope.to_radians().cos();
        let mut triangles = Vec::with_capacity(mesh.polygons.len());
        let mut walls = Vec::with_capacity(mesh.polygons.len());
        for (polygon, corners) in mesh.polygons.iter().enumerate() {
            let name = names.as_ref().and_then(|n| n.name(polygon));
            if name.is_some_and(is_effect)
                || name.is_some_and(|m| untextured(nodes.as_ref(), polygon, m))
            {
                continue;
            }
            let surface = surface_for(mesh, polygon, names.as_ref(), params);
            let Some((&first, rest)) = corners.split_first() else {
                continue;
            };
            for pair in rest.windows(2) {
                let (Some(&b), Some(&c)) = (pair.first(), pair.get(1)) else {
                    continue;
                };
                let corners = [mesh.vertex(first), mesh.vertex(b), mesh.vertex(c)];
                if corners.iter().flatten().any(|v| !v.is_finite()) {
                    continue;
                }
                let up = unit_normal(&corners).map_or(0.0, |n| n[2]);
                let wall = name.is_some_and(is_wall);
                triangles.push(Triangle {
                    corners,
                    walkable: up >= min_up && !(up < WALL_FLOOR_UP && wall),
                    surface,
                    not_floor: name.is_some_and(|m| params.names_no_floor(m)),
                    lip: false,
                });
                walls.push(wall);
            }
        }
        curved_wall_feet(&mut triangles, &walls, params.max_climb);
        Source { triangles }
    }
}

/// The gentlest rows of curved walls are no floor ([`crate::wall_foot`]): runs over the
/// wall-textured triangles (`walls[i]`) only.
fn curved_wall_feet(triangles: &mut [Triangle], walls: &[bool], max_climb: f32) {
    let wall_faces: Vec<usize> = (0..triangles.len())
        .filter(|&i| walls.get(i).copied().unwrap_or(false))
        .collect();
    let mut faces: Vec<wall_foot::Face> = wall_faces
        .iter()
        .filter_map(|&i| triangles.get(i))
        .map(|t| wall_foot::Face {
            corners: t.corners,
            normal: unit_normal(&t.corners),
            walkable: t.walkable,
        })
        .collect();
    wall_foot::remove_curved_wall_feet(&mut faces, max_climb);
    for (&i, face) in wall_faces.iter().zip(&faces) {
        if let Some(t) = triangles.get_mut(i) {
            t.walkable = face.walkable;
        }
    }
}

/// A render material of a visual effect (BioWare names them `…fx_…`: the light shafts and
/// cloud panels of Dantooine's windows, `LKOfx_clouds`), which nothing collides with. Such
/// panels stand from the floor to the ceiling across a room and cut the floor into pieces
/// (hall_1 and foyer_2 lost a quarter of their floor to them), so they are no input.
pub fn is_effect(name: &str) -> bool {
    name.to_ascii_lowercase().contains("fx_")
}

/// cos 10°: a wall-textured face flatter than this may be floor.
const WALL_FLOOR_UP: f32 = 0.984_807_8;

/// A render material for walls (the texture's name says `wall`): its faces are solid but no
/// floor, however gently they slope (the curved wall foot along escape_pods, 19° to 40°, that
/// BioWare leaves out).
pub fn is_wall(name: &str) -> bool {
    // (checked only on faces steeper than WALL_FLOOR_UP: some rooms texture flat floors with
    // wall bitmaps)
    name.to_ascii_lowercase().contains("wall")
}

/// A face of a model node without a texture: the MDL reader names such faces after their node
/// (`<ns>:node` beside `<ns>:material`), so the material name equals the node's. An untextured
/// mesh is a modelling helper nobody sees as floor: m12aa_01f's `Box20`, a 4600 m² plane under
/// the whole room that outgrew the cab BioWare walks, and two helper shapes in the Enclave.
fn untextured(nodes: Option<&Names>, polygon: usize, material: &str) -> bool {
    nodes
        .and_then(|n| n.name(polygon))
        .is_some_and(|node| node == material)
}

/// Per-face node names: the first `<ns>:node` index column with a `<ns>:nodes` text list
/// beside it (the MDL reader's, carried by [`crate::combine`] as `render:node`).
pub fn face_node_names(mesh: &NavMesh) -> Option<Names<'_>> {
    mesh.face_attributes.iter().find_map(|(key, column)| {
        let namespace = key.strip_suffix(":node")?;
        let Attribute::Int(column) = column else {
            return None;
        };
        match mesh.extras.get(&format!("{namespace}:nodes")) {
            Some(Extra::TextList(names)) => Some(Names { column, names }),
            _ => None,
        }
    })
}

/// The unit normal of a triangle (counter-clockwise seen from its front), None when degenerate.
pub fn unit_normal(t: &[[f32; 3]; 3]) -> Option<[f32; 3]> {
    let [a, b, c] = t.map(|v| v.map(f64::from));
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let n = [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ];
    let length = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    (length > 1e-12).then(|| n.map(|c| (c / length) as f32))
}

/// Per-face material names: the first `<ns>:material` index column with a `<ns>:materials`
/// text list beside it.
#[derive(Debug)]
pub struct Names<'a> {
    column: &'a [i64],
    names: &'a [String],
}

impl Names<'_> {
    /// The material name of face `polygon`, if it has one.
    pub fn name(&self, polygon: usize) -> Option<&str> {
        let index = usize::try_from(*self.column.get(polygon)?).ok()?;
        self.names.get(index).map(String::as_str)
    }
}

/// The per-face material names of a mesh, if it carries any.
pub fn face_material_names(mesh: &NavMesh) -> Option<Names<'_>> {
    material_names(mesh)
}

fn material_names(mesh: &NavMesh) -> Option<Names<'_>> {
    mesh.face_attributes.iter().find_map(|(key, column)| {
        let namespace = key.strip_suffix(":material")?;
        let Attribute::Int(column) = column else {
            return None;
        };
        match mesh.extras.get(&format!("{namespace}:materials")) {
            Some(Extra::TextList(names)) => Some(Names { column, names }),
            _ => None,
        }
    })
}

/// Walkable neutral materials and the words in a render material's name that suggest them,
/// checked in this order (`stonebridge` before `stone`, `puddle` before `water`).
const SURFACE_WORDS: [(&[&str], u16); 13] = [
    (&["bridge"], 22),
    (&["puddle"], 11),
    (&["carpet", "rug", "fabric", "cloth"], 9),
    (&["wood", "plank", "timber", "board"], 5),
    (
        &[
            "metal",
            "steel",
            "iron",
            "grate",
            "grating",
            "durasteel",
            "plate",
        ],
        10,
    ),
    (&["grass", "lawn", "turf"], 3),
    (&["dirt", "soil", "ground", "earth", "gravel"], 1),
    (&["sand", "dune"], 20),
    (&["mud"], 13),
    (&["swamp", "bog", "marsh"], 12),
    (&["leaf", "leaves"], 14),
    (&["water"], 6),
    (
        &[
            "stone", "rock", "tile", "marble", "brick", "concrete", "cobble",
        ],
        4,
    ),
];

/// The neutral material a render material's name suggests, if any.
pub fn material_from_name(name: &str) -> Option<Material> {
    let lower = name.to_ascii_lowercase();
    SURFACE_WORDS
        .iter()
        .find(|(words, _)| words.iter().any(|w| lower.contains(w)))
        .map(|&(_, id)| Material(id))
}

/// Neutral materials a character walks on (the KotOR surfacemat rows marked walkable).
fn walkable_neutral(material: Material) -> bool {
    matches!(
        material.0,
        1 | 3 | 4 | 5 | 6 | 9 | 10 | 11 | 12 | 13 | 14 | 20 | 21 | 22
    )
}

fn surface_for(mesh: &NavMesh, polygon: usize, names: Option<&Names>, params: &Params) -> Surface {
    let named = names
        .and_then(|n| n.name(polygon))
        .and_then(material_from_name);
    let own = mesh
        .surfaces
        .get(polygon)
        .map(|s| s.material)
        .filter(|m| walkable_neutral(*m));
    let material = named.or(own).unwrap_or(params.default_material);
    Surface {
        material,
        walkable: true,
        code: u32::from(material.0),
    }
}

/// Source triangles filed by plan bucket, for height and material look-ups.
#[derive(Debug)]
pub struct FloorIndex<'a> {
    source: &'a Source,
    origin: [f32; 2],
    bucket: f32,
    /// Plan distance within which a floor nearer in height beats the nearest one.
    snap: f32,
    columns: usize,
    rows: usize,
    /// CSR: bucket b holds `items[starts[b]..starts[b + 1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
}

/// The floor found under a point.
#[derive(Clone, Copy, Debug)]
pub struct FloorHit {
    pub z: f32,
    pub triangle: usize,
    /// Plan distance from the point to the triangle (0 inside).
    pub distance: f32,
}

/// How the floor index files walkable triangles: plan buckets over their extent.
struct Buckets {
    walkable: Vec<usize>,
    lo: [f32; 2],
    bucket: f32,
    columns: usize,
    rows: usize,
}

impl Buckets {
    fn of(source: &Source, params: &Params) -> Buckets {
        let walkable: Vec<usize> = (0..source.triangles.len())
            .filter(|&i| source.triangles.get(i).is_some_and(|t| t.walkable))
            .collect();
        let (mut lo, mut hi) = ([f32::MAX; 2], [f32::MIN; 2]);
        for t in walkable.iter().filter_map(|&i| source.triangles.get(i)) {
            for c in &t.corners {
                lo = [lo[0].min(c[0]), lo[1].min(c[1])];
                hi = [hi[0].max(c[0]), hi[1].max(c[1])];
            }
        }
        if walkable.is_empty() {
            lo = [0.0; 2];
            hi = [0.0; 2];
        }
        // Buckets of about 1 m, coarser for huge scenes (at most ~4M buckets).
        let extent = (hi[0] - lo[0]).max(hi[1] - lo[1]).max(params.cell_size);
        let bucket = (params.cell_size * 10.0).max(extent / 2048.0);
        let columns = ((hi[0] - lo[0]) / bucket).floor() as usize + 1;
        let rows = ((hi[1] - lo[1]) / bucket).floor() as usize + 1;
        Buckets {
            walkable,
            lo,
            bucket,
            columns,
            rows,
        }
    }

    /// The buckets a triangle's plan bounds cover: first and last column and row.
    fn span(&self, t: &Triangle) -> (usize, usize, usize, usize) {
        let (lo, bucket) = (self.lo, self.bucket);
        let (mut a, mut b) = ([f32::MAX; 2], [f32::MIN; 2]);
        for c in &t.corners {
            a = [a[0].min(c[0]), a[1].min(c[1])];
            b = [b[0].max(c[0]), b[1].max(c[1])];
        }
        let x0 = ((a[0] - lo[0]) / bucket).floor().max(0.0) as usize;
        let y0 = ((a[1] - lo[1]) / bucket).floor().max(0.0) as usize;
        let x1 = (((b[0] - lo[0]) / bucket).floor() as usize).min(self.columns - 1);
        let y1 = (((b[1] - lo[1]) / bucket).floor() as usize).min(self.rows - 1);
        (x0, y0, x1, y1)
    }

    fn triangles<'s>(&'s self, source: &'s Source) -> impl Iterator<Item = (usize, &'s Triangle)> {
        self.walkable
            .iter()
            .filter_map(|&i| source.triangles.get(i).map(|t| (i, t)))
    }
}

impl<'a> FloorIndex<'a> {
    /// What [`FloorIndex::new`] allocates: the walkable list, two bucket count arrays and one
    /// item per bucket each walkable triangle's plan bounds cover (counted without filing).
    pub fn bytes_for(source: &Source, params: &Params) -> u64 {
        let buckets = Buckets::of(source, params);
        let items: u64 = buckets
            .triangles(source)
            .map(|(_, t)| {
                let (x0, y0, x1, y1) = buckets.span(t);
                ((x1.saturating_sub(x0) + 1) * (y1.saturating_sub(y0) + 1)) as u64
            })
            .sum();
        let counts = (buckets.columns * buckets.rows + 1) as u64;
        crate::budget::bytes_of::<usize>(buckets.walkable.len())
            .saturating_add(counts.saturating_mul(8))
            .saturating_add(items.saturating_mul(4))
    }

    pub fn new(source: &'a Source, params: &Params) -> FloorIndex<'a> {
        let buckets = Buckets::of(source, params);
        let columns = buckets.columns;
        let mut counts = vec![0u32; columns * buckets.rows + 1];
        for (_, t) in buckets.triangles(source) {
            let (x0, y0, x1, y1) = buckets.span(t);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    if let Some(c) = counts.get_mut(y * columns + x + 1) {
                        *c += 1;
                    }
                }
            }
        }
        for i in 1..counts.len() {
            let previous = counts.get(i - 1).copied().unwrap_or(0);
            if let Some(c) = counts.get_mut(i) {
                *c += previous;
            }
        }
        let mut fill = counts.clone();
        let mut items = vec![0u32; counts.last().copied().unwrap_or(0) as usize];
        for (i, t) in buckets.triangles(source) {
            let (x0, y0, x1, y1) = buckets.span(t);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    if let Some(slot) = fill.get_mut(y * columns + x) {
                        if let Some(item) = items.get_mut(*slot as usize) {
                            *item = i as u32;
                        }
                        *slot += 1;
                    }
                }
            }
        }
        FloorIndex {
            source,
            origin: buckets.lo,
            bucket: buckets.bucket,
            snap: 2.0 * params.cell_size,
            columns,
            rows: buckets.rows,
            starts: counts,
            items,
        }
    }

    /// The walkable render floor at plan point `p` nearest to height `near` (within `tolerance`
    /// in height), preferring triangles that hold the point; a point just outside the floor
    /// (an outline corner past the floor's edge) takes the nearest triangle's plane. When that
    /// floor is more than `step` off `near` and another within two cells of the point is
    /// nearer in height, the other wins: a corner on the edge of a raised block lies on both
    /// the block's top and the floor around it, and the voxels say which one it stands on.
    pub fn floor_at(&self, p: [f32; 2], near: f32, tolerance: f32, step: f32) -> Option<FloorHit> {
        let bx = ((p[0] - self.origin[0]) / self.bucket).floor() as i64;
        let by = ((p[1] - self.origin[1]) / self.bucket).floor() as i64;
        let mut best: Option<FloorHit> = None;
        let mut level: Option<FloorHit> = None;
        for y in by - 1..=by + 1 {
            for x in bx - 1..=bx + 1 {
                if x < 0 || y < 0 || x as usize >= self.columns || y as usize >= self.rows {
                    continue;
                }
                let b = y as usize * self.columns + x as usize;
                let (Some(&s), Some(&e)) = (self.starts.get(b), self.starts.get(b + 1)) else {
                    continue;
                };
                for &i in self.items.get(s as usize..e as usize).unwrap_or(&[]) {
                    let Some(t) = self.source.triangles.get(i as usize) else {
                        continue;
                    };
                    let Some(z) = plane_z(t, p) else { continue };
                    if (z - near).abs() > tolerance {
                        continue;
                    }
                    let distance = plan_distance(t, p);
                    if distance <= self.snap
                        && level.is_none_or(|b| (z - near).abs() < (b.z - near).abs())
                    {
                        level = Some(FloorHit {
                            z,
                            triangle: i as usize,
                            distance,
                        });
                    }
                    let better = best.is_none_or(|b| {
                        distance < b.distance - 1e-5
                            || (distance <= b.distance + 1e-5
                                && (z - near).abs() < (b.z - near).abs())
                    });
                    if better {
                        best = Some(FloorHit {
                            z,
                            triangle: i as usize,
                            distance,
                        });
                    }
                }
            }
        }
        match (best, level) {
            (Some(b), Some(l))
                if (b.z - near).abs() > step && (l.z - near).abs() < (b.z - near).abs() =>
            {
                Some(l)
            }
            _ => best,
        }
    }

    /// The walkable render floor holding plan point `p` nearest to height `near` (within
    /// `tolerance`), from the point's own bucket only (every triangle holding `p` is filed
    /// there): the cheap look-up of the detail sampling, which asks for many points. Where it
    /// finds a floor within `step` of `near` it agrees with [`FloorIndex::floor_at`] (whose
    /// nearer-level rule applies only beyond a step); elsewhere the caller asks `floor_at`.
    pub fn floor_holding(&self, p: [f32; 2], near: f32, tolerance: f32) -> Option<FloorHit> {
        let bx = ((p[0] - self.origin[0]) / self.bucket).floor() as i64;
        let by = ((p[1] - self.origin[1]) / self.bucket).floor() as i64;
        if bx < 0 || by < 0 || bx as usize >= self.columns || by as usize >= self.rows {
            return None;
        }
        let b = by as usize * self.columns + bx as usize;
        let (Some(&s), Some(&e)) = (self.starts.get(b), self.starts.get(b + 1)) else {
            return None;
        };
        let mut best: Option<FloorHit> = None;
        for &i in self.items.get(s as usize..e as usize).unwrap_or(&[]) {
            let Some(t) = self.source.triangles.get(i as usize) else {
                continue;
            };
            if plan_distance(t, p) > 0.0 {
                continue;
            }
            let Some(z) = plane_z(t, p) else { continue };
            if (z - near).abs() <= tolerance
                && best.is_none_or(|b| (z - near).abs() < (b.z - near).abs())
            {
                best = Some(FloorHit {
                    z,
                    triangle: i as usize,
                    distance: 0.0,
                });
            }
        }
        best
    }

    /// The walkable render triangles filed in the buckets within `radius` of plan point `p`
    /// (each once; some may lie farther: the caller measures).
    pub fn triangles_near(&self, p: [f32; 2], radius: f32) -> Vec<&'a Triangle> {
        let bucket = |v: f32, o: f32, n: usize| {
            (((v - o) / self.bucket).floor().max(0.0) as usize).min(n.saturating_sub(1))
        };
        let (x0, x1) = (
            bucket(p[0] - radius, self.origin[0], self.columns),
            bucket(p[0] + radius, self.origin[0], self.columns),
        );
        let (y0, y1) = (
            bucket(p[1] - radius, self.origin[1], self.rows),
            bucket(p[1] + radius, self.origin[1], self.rows),
        );
        let mut found: Vec<u32> = Vec::new();
        for y in y0..=y1 {
            for x in x0..=x1 {
                let b = y * self.columns + x;
                if let (Some(&s), Some(&e)) = (self.starts.get(b), self.starts.get(b + 1)) {
                    found.extend_from_slice(self.items.get(s as usize..e as usize).unwrap_or(&[]));
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        found
            .into_iter()
            .filter_map(|i| self.source.triangles.get(i as usize))
            .collect()
    }

    pub fn triangle(&self, index: usize) -> Option<&Triangle> {
        self.source.triangles.get(index)
    }
}

/// Height of the triangle's plane at plan point `p` (None for a vertical triangle).
fn plane_z(t: &Triangle, p: [f32; 2]) -> Option<f32> {
    let n = unit_normal(&t.corners)?;
    if n[2].abs() < 1e-4 {
        return None;
    }
    let a = t.corners[0];
    Some(a[2] - (n[0] * (p[0] - a[0]) + n[1] * (p[1] - a[1])) / n[2])
}

/// Plan distance from `p` to the triangle (0 when inside).
fn plan_distance(t: &Triangle, p: [f32; 2]) -> f32 {
    let c = t.corners.map(|v| [v[0], v[1]]);
    let cross =
        |a: [f32; 2], b: [f32; 2]| (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    let [a, b, cc] = c;
    let d = [cross(a, b), cross(b, cc), cross(cc, a)];
    if d.iter().all(|&v| v >= 0.0) || d.iter().all(|&v| v <= 0.0) {
        return 0.0;
    }
    [(a, b), (b, cc), (cc, a)]
        .iter()
        .map(|&(s, e)| segment_distance(p, s, e))
        .fold(f32::MAX, f32::min)
}

fn segment_distance(p: [f32; 2], a: [f32; 2], b: [f32; 2]) -> f32 {
    let d = [b[0] - a[0], b[1] - a[1]];
    let length2 = d[0] * d[0] + d[1] * d[1];
    let t = if length2 > 0.0 {
        (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / length2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let q = [a[0] + t * d[0] - p[0], a[1] + t * d[1] - p[1]];
    (q[0] * q[0] + q[1] * q[1]).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_names_suggest_surfaces() {
        assert_eq!(material_from_name("LDA_floor_wood01"), Some(Material(5)));
        assert_eq!(material_from_name("M12_metalgrate"), Some(Material(10)));
        assert_eq!(material_from_name("stonebridge_2"), Some(Material(22)));
        assert_eq!(material_from_name("puddlewater"), Some(Material(11)));
        assert_eq!(material_from_name("xyz_01"), None);
        assert!(is_effect("LKOfx_clouds") && is_effect("fx_beam01"));
        assert!(!is_effect("LDA_flr09") && !is_effect("LDA_fall"));
    }
}
