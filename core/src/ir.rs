//! The neutral navigation-mesh representation.
//!
//! Three kinds of data are kept apart:
//! - **authored** data (everything in [`NavMesh`] except `provenance`): what a designer means;
//! - **derived** data (adjacency, loops, planes, trees, …): never stored here, computed by
//!   [`crate::passes`] on demand;
//! - **provenance** ([`Provenance`]): the bytes a reader saw, tagged with the fingerprint of the
//!   authored data they belong to, so a writer of the same format can re-emit them unchanged.
//!
//! Conventions: right-handed, +Z up, polygons counter-clockwise seen from above.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use crate::material::Surface;

/// What a walkmesh is for; decides which tables some formats store.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MeshKind {
    /// A room or area walkmesh (KotOR `.wok`, Prime PATH).
    #[default]
    Area,
    /// A placeable's walkmesh (KotOR `.pwk`).
    Placeable,
    /// A door's walkmesh (KotOR `.dwk`).
    Door,
    /// A terrain walkmesh split into tiles (NWN2 `.trx`/`.trn`).
    Terrain,
}

impl MeshKind {
    /// Lower-case name used in CLI output and file directives.
    pub fn as_str(self) -> &'static str {
        match self {
            MeshKind::Area => "area",
            MeshKind::Placeable => "placeable",
            MeshKind::Door => "door",
            MeshKind::Terrain => "terrain",
        }
    }

    /// Parses the lower-case name (case-insensitive).
    pub fn parse(text: &str) -> Option<MeshKind> {
        match text.to_ascii_lowercase().as_str() {
            "area" => Some(MeshKind::Area),
            "placeable" => Some(MeshKind::Placeable),
            "door" => Some(MeshKind::Door),
            "terrain" => Some(MeshKind::Terrain),
            _ => None,
        }
    }
}

/// One directed edge of a polygon: edge `edge` runs from the polygon's vertex `edge` to vertex
/// `(edge + 1) % len`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct EdgeRef {
    pub polygon: u32,
    pub edge: u32,
}

/// Authored per-edge data. KotOR transitions are LYT room indices on perimeter edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EdgeTag {
    pub transition: i32,
}

/// A named point attached to the mesh (KotOR use points), relative to `NavMesh::origin`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hook {
    pub name: String,
    pub position: [f32; 3],
}

/// Tile grid parameters of a tiled terrain walkmesh (NWN2).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TileGrid {
    pub columns: u32,
    pub rows: u32,
    pub tile_width: f32,
    pub tile_height: f32,
    pub origin: [f32; 2],
}

/// Per-face column of an area assembled from rooms: the layout index of the face's room. One
/// name for every crate that writes or reads it (the area assembler, lint's area checks, the
/// glTF and OBJ round trips of an assembled area).
pub const ROOM_COLUMN: &str = "area:room";

/// A per-polygon attribute column, namespaced by the format that owns it (`"path:height"`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Attribute {
    Int(Vec<i64>),
    Float(Vec<f32>),
}

impl Attribute {
    /// Number of entries (must equal the polygon count).
    pub fn len(&self) -> usize {
        match self {
            Attribute::Int(values) => values.len(),
            Attribute::Float(values) => values.len(),
        }
    }

    /// True when the column has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A new column holding the entries at `order` (new index → old index).
    pub fn permuted(&self, order: &[u32]) -> Attribute {
        match self {
            Attribute::Int(values) => Attribute::Int(
                order
                    .iter()
                    .map(|&old| values.get(old as usize).copied().unwrap_or_default())
                    .collect(),
            ),
            Attribute::Float(values) => Attribute::Float(
                order
                    .iter()
                    .map(|&old| values.get(old as usize).copied().unwrap_or_default())
                    .collect(),
            ),
        }
    }
}

/// A mesh-level value, namespaced by the format that owns it (`"nwn2:name"`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Extra {
    Int(i64),
    Float(f64),
    Text(String),
    TextList(Vec<String>),
    Floats(Vec<f32>),
    Bytes(Vec<u8>),
}

/// Polygons stored compactly: `starts[i]..starts[i+1]` are polygon `i`'s positions in
/// `indices`. One allocation for a million triangles instead of a million. Serialised as a
/// list of index lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Polygons {
    starts: Vec<u32>,
    indices: Vec<u32>,
}

impl Serialize for Polygons {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Polygons {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let lists: Vec<Vec<u32>> = Vec::deserialize(deserializer)?;
        let mut polygons = Polygons::with_capacity(lists.len(), lists.iter().map(Vec::len).sum());
        for list in &lists {
            polygons.push(list);
        }
        Ok(polygons)
    }
}

impl Default for Polygons {
    fn default() -> Self {
        Polygons::new()
    }
}

impl Polygons {
    /// No polygons.
    pub fn new() -> Polygons {
        Polygons {
            starts: vec![0],
            indices: Vec::new(),
        }
    }

    /// No polygons, with room for `polygons` polygons of `indices` indices in all.
    pub fn with_capacity(polygons: usize, indices: usize) -> Polygons {
        let mut starts = Vec::with_capacity(polygons + 1);
        starts.push(0);
        Polygons {
            starts,
            indices: Vec::with_capacity(indices),
        }
    }

    /// Builds from triangles.
    pub fn from_triangles(triangles: &[[u32; 3]]) -> Polygons {
        let mut polygons = Polygons::with_capacity(triangles.len(), triangles.len() * 3);
        for triangle in triangles {
            polygons.push(triangle);
        }
        polygons
    }

    /// Room for `polygons` more polygons of `indices` more indices in all, if the memory can
    /// be had (a failed reservation is skipped; pushing then grows as usual).
    pub fn reserve(&mut self, polygons: usize, indices: usize) {
        let _ = self.starts.try_reserve(polygons);
        let _ = self.indices.try_reserve(indices);
    }

    /// Returns unused capacity.
    pub fn shrink_to_fit(&mut self) {
        self.starts.shrink_to_fit();
        self.indices.shrink_to_fit();
    }

    /// Appends a polygon.
    pub fn push(&mut self, vertices: &[u32]) {
        self.indices.extend_from_slice(vertices);
        self.starts.push(self.indices.len() as u32);
    }

    /// Number of polygons.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// True when there are no polygons.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Vertex indices of polygon `polygon`; empty when out of range.
    pub fn get(&self, polygon: usize) -> &[u32] {
        match (self.starts.get(polygon), self.starts.get(polygon + 1)) {
            (Some(&start), Some(&end)) => self
                .indices
                .get(start as usize..end as usize)
                .unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Position of polygon `polygon`'s first index in [`Polygons::indices`]; the half-edge
    /// id of its edge `e` is `first_index(polygon) + e`.
    pub fn first_index(&self, polygon: usize) -> usize {
        self.starts.get(polygon).copied().unwrap_or(0) as usize
    }

    /// All indices, polygon after polygon.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }

    /// Mutable access to the indices (the polygon structure stays fixed).
    pub fn indices_mut(&mut self) -> &mut [u32] {
        &mut self.indices
    }

    /// Iterates over the polygons' index slices.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u32]> + '_ {
        self.starts.windows(2).map(|w| match w {
            [start, end] => self
                .indices
                .get(*start as usize..*end as usize)
                .unwrap_or(&[]),
            _ => &[],
        })
    }

    /// True when every polygon is a triangle.
    pub fn all_triangles(&self) -> bool {
        self.indices.len() == self.len() * 3 && self.iter().all(|p| p.len() == 3)
    }

    /// Largest polygon size.
    pub fn max_len(&self) -> usize {
        self.iter().map(<[u32]>::len).max().unwrap_or(0)
    }

    /// Maps a half-edge id (position in `indices`) back to its polygon and edge.
    pub fn edge_of_half_edge(&self, half_edge: usize) -> EdgeRef {
        // `starts` is sorted; the polygon is the last start <= half_edge.
        let polygon = self.starts.partition_point(|&s| s as usize <= half_edge) - 1;
        EdgeRef {
            polygon: polygon as u32,
            edge: (half_edge - self.first_index(polygon)) as u32,
        }
    }
}

/// The bytes a reader saw, for writers of the same format to re-emit while the authored data
/// still has the fingerprint recorded here.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Provenance {
    /// Format id of the reader (`"bwm"`, `"trx"`, …).
    pub format: String,
    /// [`NavMesh::fingerprint`] of the authored data right after reading.
    pub fingerprint: u64,
    /// Named raw sections, in file order (for example `"file"` = the whole input).
    pub sections: Vec<(String, Arc<[u8]>)>,
    /// What the reader found about vertex sharing in the source (modelling-tool files
    /// duplicate vertices where materials, primitives or objects meet).
    pub vertex_identity: VertexIdentity,
    /// Files besides the input that the reader read (glTF buffer files), as paths beside
    /// the input: what a build system's dependency file lists.
    pub files_read: Vec<std::path::PathBuf>,
}

impl Provenance {
    /// The section named `name`.
    pub fn section(&self, name: &str) -> Option<&[u8]> {
        self.sections
            .iter()
            .find(|(section, _)| section == name)
            .map(|(_, bytes)| &bytes[..])
    }
}

/// The first coordinate that is NaN or infinite, as (vertex, axis 0–2). Readers refuse such
/// vertices (with the byte offset or line of the coordinate) so that no writer ever sees them.
pub fn first_non_finite(vertices: &[[f32; 3]]) -> Option<(usize, usize)> {
    vertices
        .iter()
        .enumerate()
        .find_map(|(i, v)| v.iter().position(|c| !c.is_finite()).map(|axis| (i, axis)))
}

/// Name of coordinate `axis` (0–2) for error fields: `x`, `y` or `z`.
pub fn axis_name(axis: usize) -> &'static str {
    ["x", "y", "z"].get(axis).copied().unwrap_or("?")
}

/// Whether the sharing of vertices between polygons means something. Adjacency is by shared
/// vertex indices, so this decides whether coincident duplicates are welded before writing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VertexIdentity {
    /// Vertex sharing is authored: polygons are linked exactly where they share vertex
    /// indices, and coincident duplicates stay apart (game formats, which duplicate vertices on
    /// purpose, and the files this project writes).
    #[default]
    Authored,
    /// The file came from a modelling tool that duplicates vertices where materials,
    /// primitives or objects meet (OBJ and glTF without this project's walkmesh metadata):
    /// coincident vertices are meant to be one, so writers weld them at exactly equal
    /// positions by default (see [`crate::format::WeldChoice`]).
    Incidental,
}

/// The neutral walkmesh.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct NavMesh {
    pub kind: MeshKind,
    /// Vertex positions, exact `f32` bits as read.
    pub vertices: Vec<[f32; 3]>,
    pub polygons: Polygons,
    /// One surface per polygon.
    pub surfaces: Vec<Surface>,
    /// Authored per-edge data, keyed by polygon edge.
    pub edge_tags: BTreeMap<EdgeRef, EdgeTag>,
    /// Namespaced per-polygon columns, each as long as `polygons`.
    pub face_attributes: BTreeMap<String, Attribute>,
    /// Where the mesh sits in its parent (KotOR walkmesh node position).
    pub origin: [f32; 3],
    pub hooks: Vec<Hook>,
    pub tile_grid: Option<TileGrid>,
    /// Namespaced mesh-level values.
    pub extras: BTreeMap<String, Extra>,
    #[serde(skip)]
    pub provenance: Option<Provenance>,
}

/// Which structural invariant ([`NavMesh::check`]) a mesh breaks.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MeshCheckError {
    /// A polygon with fewer than three corners.
    #[error("polygon {polygon} has {corners} vertices; at least 3 are needed")]
    TooFewCorners { polygon: usize, corners: usize },
    /// A polygon corner past the vertex list.
    #[error(
        "polygon {polygon} refers to vertex {vertex}, but there are only {vertex_count} vertices"
    )]
    VertexOutOfRange {
        polygon: usize,
        vertex: u32,
        vertex_count: usize,
    },
    /// Not one surface per polygon.
    #[error("{surfaces} surfaces for {polygons} polygons")]
    SurfaceCount { surfaces: usize, polygons: usize },
    /// A face attribute column not one entry per polygon.
    #[error("face attribute {name} has {entries} entries for {polygons} polygons")]
    ColumnLength {
        name: String,
        entries: usize,
        polygons: usize,
    },
    /// An edge tag on an edge the polygon does not have.
    #[error("edge tag on polygon {polygon} edge {edge}, which does not exist")]
    MissingTaggedEdge { polygon: u32, edge: u32 },
}

impl NavMesh {
    /// Appends a polygon with its surface.
    pub fn push_polygon(&mut self, vertices: &[u32], surface: Surface) {
        self.polygons.push(vertices);
        self.surfaces.push(surface);
    }

    /// Number of walkable polygons.
    pub fn walkable_count(&self) -> usize {
        self.surfaces.iter().filter(|s| s.walkable).count()
    }

    /// True when polygon `polygon` is walkable.
    pub fn is_walkable(&self, polygon: usize) -> bool {
        self.surfaces.get(polygon).is_some_and(|s| s.walkable)
    }

    /// Position of vertex `index` (origin when out of range, which [`NavMesh::check`] rules out).
    pub fn vertex(&self, index: u32) -> [f32; 3] {
        self.vertices
            .get(index as usize)
            .copied()
            .unwrap_or([0.0; 3])
    }

    /// Checks the structural invariants every reader must establish: indices in range,
    /// polygons of at least three vertices, one surface per polygon, attribute columns and edge
    /// tags matching the polygons. Passes rely on these.
    pub fn check(&self) -> Result<(), MeshCheckError> {
        let vertex_count = self.vertices.len();
        for (polygon, indices) in self.polygons.iter().enumerate() {
            if indices.len() < 3 {
                return Err(MeshCheckError::TooFewCorners {
                    polygon,
                    corners: indices.len(),
                });
            }
            if let Some(&bad) = indices.iter().find(|&&i| i as usize >= vertex_count) {
                return Err(MeshCheckError::VertexOutOfRange {
                    polygon,
                    vertex: bad,
                    vertex_count,
                });
            }
        }
        if self.surfaces.len() != self.polygons.len() {
            return Err(MeshCheckError::SurfaceCount {
                surfaces: self.surfaces.len(),
                polygons: self.polygons.len(),
            });
        }
        for (name, column) in &self.face_attributes {
            if column.len() != self.polygons.len() {
                return Err(MeshCheckError::ColumnLength {
                    name: name.clone(),
                    entries: column.len(),
                    polygons: self.polygons.len(),
                });
            }
        }
        for edge in self.edge_tags.keys() {
            let len = self.polygons.get(edge.polygon as usize).len();
            if edge.edge as usize >= len {
                return Err(MeshCheckError::MissingTaggedEdge {
                    polygon: edge.polygon,
                    edge: edge.edge,
                });
            }
        }
        Ok(())
    }

    /// Axis-aligned bounds of all vertices (`None` for an empty mesh).
    pub fn bounds(&self) -> Option<([f32; 3], [f32; 3])> {
        let first = *self.vertices.first()?;
        let mut min = first;
        let mut max = first;
        for v in &self.vertices {
            for axis in 0..3 {
                min[axis] = min[axis].min(v[axis]);
                max[axis] = max[axis].max(v[axis]);
            }
        }
        Some((min, max))
    }

    /// What the reader found about vertex sharing: [`VertexIdentity::Incidental`] only when
    /// a modelling-tool reader said so and nothing has been rebuilt since (passes drop the
    /// provenance; the weld decision is taken on the mesh as read).
    pub fn vertex_identity(&self) -> VertexIdentity {
        self.provenance
            .as_ref()
            .map_or(VertexIdentity::Authored, |p| p.vertex_identity)
    }

    /// The provenance, if it was recorded by format `format` and the authored data has not
    /// changed since.
    pub fn fresh_provenance(&self, format: &str) -> Option<&Provenance> {
        self.provenance
            .as_ref()
            .filter(|p| p.format == format && p.fingerprint == self.fingerprint())
    }

    /// A copy whose polygons are listed in `order` (new index → old index); surfaces, attribute
    /// columns and edge tags follow their polygons. Provenance is dropped, since face order is
    /// authored data.
    pub fn with_polygon_order(&self, order: &[u32]) -> NavMesh {
        let mut inverse = vec![u32::MAX; self.polygons.len()];
        let mut polygons = Polygons::with_capacity(order.len(), self.polygons.indices().len());
        let mut surfaces = Vec::with_capacity(order.len());
        for (new, &old) in order.iter().enumerate() {
            polygons.push(self.polygons.get(old as usize));
            if let Some(surface) = self.surfaces.get(old as usize) {
                surfaces.push(*surface);
            }
            if let Some(slot) = inverse.get_mut(old as usize) {
                *slot = new as u32;
            }
        }
        let edge_tags = self
            .edge_tags
            .iter()
            .filter_map(|(edge, tag)| {
                let new = *inverse.get(edge.polygon as usize)?;
                (new != u32::MAX).then_some((
                    EdgeRef {
                        polygon: new,
                        edge: edge.edge,
                    },
                    *tag,
                ))
            })
            .collect();
        let face_attributes = self
            .face_attributes
            .iter()
            .map(|(name, column)| (name.clone(), column.permuted(order)))
            .collect();
        NavMesh {
            kind: self.kind,
            vertices: self.vertices.clone(),
            polygons,
            surfaces,
            edge_tags,
            face_attributes,
            origin: self.origin,
            hooks: self.hooks.clone(),
            tile_grid: self.tile_grid,
            extras: self.extras.clone(),
            provenance: None,
        }
    }
}

impl crate::Kinded for MeshCheckError {
    /// A mesh whose parts contradict each other (a reader's or a caller's).
    fn kind(&self) -> crate::ErrorKind {
        crate::ErrorKind::Invalid
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::material::Material;

    fn surface(walkable: bool) -> Surface {
        Surface {
            material: Material(if walkable { 4 } else { 7 }),
            walkable,
            code: 0,
        }
    }

    #[test]
    fn polygons_store_mixed_sizes() {
        let mut polygons = Polygons::new();
        polygons.push(&[0, 1, 2]);
        polygons.push(&[2, 3, 4, 5]);
        assert_eq!(polygons.len(), 2);
        assert_eq!(polygons.get(1), &[2, 3, 4, 5]);
        assert_eq!(polygons.get(2), &[] as &[u32]);
        assert_eq!(polygons.first_index(1), 3);
        assert_eq!(
            polygons.edge_of_half_edge(5),
            EdgeRef {
                polygon: 1,
                edge: 2
            }
        );
        assert_eq!(
            polygons.edge_of_half_edge(2),
            EdgeRef {
                polygon: 0,
                edge: 2
            }
        );
        assert!(!polygons.all_triangles());
        assert_eq!(polygons.max_len(), 4);
    }

    #[test]
    fn polygons_serialise_as_lists() {
        let mut polygons = Polygons::new();
        polygons.push(&[0, 1, 2]);
        polygons.push(&[2, 3, 4, 5]);
        let text = serde_json::to_string(&polygons).unwrap();
        assert_eq!(text, "[[0,1,2],[2,3,4,5]]");
        let back: Polygons = serde_json::from_str(&text).unwrap();
        assert_eq!(back, polygons);
    }

    #[test]
    fn check_rejects_out_of_range_and_short_polygons() {
        let mut mesh = NavMesh {
            vertices: vec![[0.0; 3]; 3],
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 3], surface(true));
        assert!(mesh.check().unwrap_err().to_string().contains("vertex 3"));
        assert!(matches!(
            mesh.check(),
            Err(MeshCheckError::VertexOutOfRange { vertex: 3, .. })
        ));
        let mut mesh = NavMesh {
            vertices: vec![[0.0; 3]; 3],
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1], surface(true));
        assert!(mesh.check().is_err());
    }

    #[test]
    fn reorder_moves_tags_and_attributes_with_polygons() {
        let mut mesh = NavMesh {
            vertices: vec![[0.0; 3]; 4],
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 2], surface(false));
        mesh.push_polygon(&[1, 3, 2], surface(true));
        mesh.edge_tags.insert(
            EdgeRef {
                polygon: 1,
                edge: 2,
            },
            EdgeTag { transition: 5 },
        );
        mesh.face_attributes
            .insert("x:id".into(), Attribute::Int(vec![10, 11]));
        let reordered = mesh.with_polygon_order(&[1, 0]);
        assert_eq!(reordered.polygons.get(0), &[1, 3, 2]);
        assert!(reordered.surfaces[0].walkable);
        assert_eq!(
            reordered.edge_tags.get(&EdgeRef {
                polygon: 0,
                edge: 2
            }),
            Some(&EdgeTag { transition: 5 })
        );
        assert_eq!(
            reordered.face_attributes["x:id"],
            Attribute::Int(vec![11, 10])
        );
    }

    #[test]
    fn fresh_provenance_is_dropped_after_an_edit() {
        let mut mesh = NavMesh {
            vertices: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 2], surface(true));
        mesh.provenance = Some(Provenance {
            format: "bwm".into(),
            fingerprint: mesh.fingerprint(),
            sections: vec![],
            vertex_identity: VertexIdentity::Authored,
            files_read: Vec::new(),
        });
        assert!(mesh.fresh_provenance("bwm").is_some());
        assert!(mesh.fresh_provenance("trx").is_none());
        mesh.vertices[1][0] = 2.0;
        assert!(mesh.fresh_provenance("bwm").is_none());
    }
}
