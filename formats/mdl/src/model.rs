//! The model as read: nodes in tree order with their rest transforms and mesh data.

/// Node type bits (node header +0x00; `docs/formats/mdl.md` §3.2).
pub mod flags {
    pub const HEADER: u16 = 0x0001;
    pub const LIGHT: u16 = 0x0002;
    pub const EMITTER: u16 = 0x0004;
    pub const CAMERA: u16 = 0x0008;
    pub const REFERENCE: u16 = 0x0010;
    pub const MESH: u16 = 0x0020;
    pub const SKIN: u16 = 0x0040;
    pub const ANIM_MESH: u16 = 0x0080;
    pub const DANGLY: u16 = 0x0100;
    pub const AABB: u16 = 0x0200;
    pub const SABER: u16 = 0x0800;
    /// Every bit the reader knows how to step over.
    pub const KNOWN: u16 = HEADER
        | LIGHT
        | EMITTER
        | CAMERA
        | REFERENCE
        | MESH
        | SKIN
        | ANIM_MESH
        | DANGLY
        | AABB
        | SABER;
    /// Bits whose data follows the mesh header, so they need [`MESH`].
    pub const NEED_MESH: u16 = SKIN | ANIM_MESH | DANGLY | AABB | SABER;
}

/// Which game the model is for (geometry header +0x00; PC files only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    /// KotOR 1 (PC): 332-byte mesh headers.
    Kotor1,
    /// KotOR 2 (PC): 340-byte mesh headers.
    Kotor2,
}

/// A binary KotOR model (`.mdl` with its `.mdx`).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Model name from the geometry header (kit re-exports carry free text here).
    pub name: String,
    pub game: Game,
    /// Model classification byte (0 other, 1 effect, 2 tile, 4 character, …).
    pub classification: u8,
    /// Every node of the model tree, depth-first pre-order from the root (index 0), children
    /// in the order of their parent's child array. Animation node trees are not read.
    pub nodes: Vec<Node>,
    /// The node count the geometry header states; the tree read from the root may hold
    /// another number (see [`Model::node_count_note`]).
    pub declared_nodes: usize,
    /// Names of mesh nodes whose vertex copy in the `.mdl` differs from their `.mdx` rows
    /// (the rows are used; `docs/formats/mdl.md` §4.3 found them equal in every file).
    pub vertex_copy_mismatches: Vec<String>,
}

impl Model {
    /// A sentence for the reader's warning `mdl.node_count` when the header's node count
    /// disagrees with the tree read from the root, which is what the game reads.
    pub fn node_count_note(&self) -> Option<String> {
        (self.declared_nodes != self.nodes.len()).then(|| {
            format!(
                "the geometry header counts {} node(s), the tree from the root holds {}; the tree is read, as the game reads it",
                self.declared_nodes,
                self.nodes.len()
            )
        })
    }
}

/// One node of the model tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub name: String,
    /// Type bits ([`flags`]).
    pub flags: u16,
    /// Offset of the node header in the `.mdl` file.
    pub offset: u64,
    /// Index of the parent in [`Model::nodes`] (`None` for the root).
    pub parent: Option<usize>,
    /// Indices of the children in [`Model::nodes`], in file order.
    pub children: Vec<usize>,
    /// Rest position in the parent's space.
    pub position: [f32; 3],
    /// Rest orientation in the parent's space, as stored: **w, x, y, z**.
    pub orientation: [f32; 4],
    /// Mesh data of nodes with the mesh bit.
    pub mesh: Option<Mesh>,
}

/// The geometry of a mesh node, in the node's own space.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    /// Texture 0 (the bitmap); empty when the file says none (`NULL` or nothing).
    pub texture: String,
    /// Texture 1 (the lightmap in rooms); empty when none.
    pub lightmap: String,
    /// The `render` byte (0 on most walkmesh nodes and on some helper meshes).
    pub render: bool,
    /// The `shadow` byte (shadow casters, light blockers).
    pub shadow: bool,
    /// Vertex positions (from the `.mdx` rows, or the `.mdl` copy when read without `.mdx`).
    pub vertices: Vec<[f32; 3]>,
    pub faces: Vec<Face>,
}

/// One face record of a mesh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Face {
    /// Corner indices into [`Mesh::vertices`], as stored.
    pub vertices: [u16; 3],
    /// On the walkmesh node: the surface material (`surfacemat.2da` row). On render meshes an
    /// opaque group number (docs/formats/mdl.md §4.2), not a material.
    pub material: u32,
    /// Neighbouring face per edge within the same mesh; `0xFFFF` = none.
    pub adjacent: [u16; 3],
}

impl Node {
    /// A render mesh: mesh bit set, neither walkmesh (AABB) nor saber (whose face records are
    /// not usable, docs/formats/mdl.md §5.4). Trimesh, danglymesh, skin and anim-mesh nodes.
    pub fn is_render_mesh(&self) -> bool {
        self.flags & flags::MESH != 0 && self.flags & (flags::AABB | flags::SABER) == 0
    }

    /// The model's walkmesh node (AABB bit).
    pub fn is_walkmesh(&self) -> bool {
        self.flags & flags::AABB != 0 && self.flags & flags::MESH != 0
    }

    /// The name faces of this render node carry: the texture, else the node name.
    pub fn material_name(&self) -> &str {
        match &self.mesh {
            Some(mesh) if !mesh.texture.is_empty() => &mesh.texture,
            _ => &self.name,
        }
    }
}

/// A rigid transform: rotation (unit quaternion w, x, y, z) then translation, in `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    pub rotation: [f64; 4],
    pub translation: [f64; 3],
}

impl Default for Transform {
    fn default() -> Self {
        Transform::IDENTITY
    }
}

impl Transform {
    pub const IDENTITY: Transform = Transform {
        rotation: [1.0, 0.0, 0.0, 0.0],
        translation: [0.0; 3],
    };

    /// The local transform of a node: translate · rotate, with the quaternion normalised
    /// (q·v·q⁻¹ does not depend on its length). `None` for a zero-length quaternion.
    pub fn local(position: [f32; 3], orientation: [f32; 4]) -> Option<Transform> {
        let q = orientation.map(f64::from);
        let length = q.iter().map(|c| c * c).sum::<f64>().sqrt();
        if !(length.is_finite() && length > 0.0) {
            return None;
        }
        Some(Transform {
            rotation: q.map(|c| c / length),
            translation: position.map(f64::from),
        })
    }

    /// `self · child`: first `child`, then `self`.
    pub fn then_child(&self, child: &Transform) -> Transform {
        let moved = self.rotate(child.translation);
        Transform {
            rotation: quaternion_product(self.rotation, child.rotation),
            translation: [
                self.translation[0] + moved[0],
                self.translation[1] + moved[1],
                self.translation[2] + moved[2],
            ],
        }
    }

    /// q·v·q⁻¹ for the unit quaternion of this transform.
    pub fn rotate(&self, v: [f64; 3]) -> [f64; 3] {
        let [w, x, y, z] = self.rotation;
        // v + 2w(u×v) + 2u×(u×v), u = (x, y, z).
        let u = [x, y, z];
        let t = cross(u, v).map(|c| 2.0 * c);
        let ut = cross(u, t);
        [
            v[0] + w * t[0] + ut[0],
            v[1] + w * t[1] + ut[1],
            v[2] + w * t[2] + ut[2],
        ]
    }

    /// The transformed point.
    pub fn apply(&self, v: [f32; 3]) -> [f64; 3] {
        let r = self.rotate(v.map(f64::from));
        [
            r[0] + self.translation[0],
            r[1] + self.translation[1],
            r[2] + self.translation[2],
        ]
    }

    /// True when the rotation is exactly the identity.
    pub fn is_translation_only(&self) -> bool {
        self.rotation == [1.0, 0.0, 0.0, 0.0] || self.rotation == [-1.0, 0.0, 0.0, 0.0]
    }
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Hamilton product a·b of quaternions stored w, x, y, z.
fn quaternion_product(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [aw, ax, ay, az] = a;
    let [bw, bx, by, bz] = b;
    [
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ]
}

impl Model {
    /// Each node's model-space transform (its rest transform composed down the parent chain),
    /// indexed like [`Model::nodes`]. Parents come before children in tree order, so one pass
    /// suffices.
    pub fn model_transforms(&self) -> Vec<Transform> {
        let mut out: Vec<Transform> = Vec::with_capacity(self.nodes.len());
        for node in &self.nodes {
            // The reader refuses zero-length quaternions, so `local` succeeds here.
            let local =
                Transform::local(node.position, node.orientation).unwrap_or(Transform::IDENTITY);
            let parent = node
                .parent
                .and_then(|p| out.get(p))
                .copied()
                .unwrap_or(Transform::IDENTITY);
            out.push(parent.then_child(&local));
        }
        out
    }

    /// Indices of the render mesh nodes ([`Node::is_render_mesh`]), in tree order.
    pub fn render_nodes(&self) -> impl Iterator<Item = usize> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, node)| node.is_render_mesh())
            .map(|(i, _)| i)
    }

    /// Indices of the walkmesh (AABB) nodes, in tree order (room models have one).
    pub fn walkmesh_nodes(&self) -> impl Iterator<Item = usize> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, node)| node.is_walkmesh())
            .map(|(i, _)| i)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn a_quarter_turn_about_z_maps_x_to_y() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let t = Transform::local([1.0, 2.0, 3.0], [h, 0.0, 0.0, h]).unwrap();
        // (1, 0, 0) rotated to (0, 1, 0), then moved by (1, 2, 3).
        assert!(close(t.apply([1.0, 0.0, 0.0]), [1.0, 3.0, 3.0]));
        assert!(close(t.apply([0.0, 1.0, 0.0]), [0.0, 2.0, 3.0]));
        assert!(close(t.apply([0.0, 0.0, 1.0]), [1.0, 2.0, 4.0]));
    }

    #[test]
    fn composition_applies_the_child_first() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let parent = Transform::local([10.0, 0.0, 0.0], [h, 0.0, 0.0, h]).unwrap();
        let child = Transform::local([1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]).unwrap();
        let both = parent.then_child(&child);
        let p = [0.5f32, 0.0, 0.0];
        let step = parent.apply(child.apply(p).map(|c| c as f32));
        assert!(close(both.apply(p), step));
        assert!(close(both.apply(p), [10.0, 1.5, 0.0]));
    }

    #[test]
    fn quaternions_are_normalised_and_zero_is_refused() {
        let t = Transform::local([0.0; 3], [2.0, 0.0, 0.0, 0.0]).unwrap();
        assert!(close(t.apply([1.0, 2.0, 3.0]), [1.0, 2.0, 3.0]));
        assert!(Transform::local([0.0; 3], [0.0; 4]).is_none());
    }
}
