//! Small binary models written from a node list, for tests, fuzz seeds and examples. The
//! layout is written here from `docs/formats/mdl.md` with its own offsets (not the
//! reader's constants), so a test built on it checks the reader against the note.

use crate::model::{Game, flags};

/// A node to write. Node 0 is the root; every other node names an earlier parent.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntheticNode {
    pub name: String,
    /// Type bits; [`flags::MESH`] needs `mesh`.
    pub flags: u16,
    pub parent: Option<usize>,
    pub position: [f32; 3],
    /// Stored **w, x, y, z**.
    pub orientation: [f32; 4],
    pub mesh: Option<SyntheticMesh>,
}

/// A mesh to write: texture 0, vertices in the node's space, faces (corners, material).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SyntheticMesh {
    pub texture: String,
    pub vertices: Vec<[f32; 3]>,
    pub faces: Vec<([u16; 3], u32)>,
    pub render: bool,
}

impl SyntheticNode {
    /// A node without geometry (flags 0x001) at `position` with orientation `orientation`.
    pub fn dummy(
        name: &str,
        parent: Option<usize>,
        position: [f32; 3],
        orientation: [f32; 4],
    ) -> Self {
        SyntheticNode {
            name: name.to_string(),
            flags: flags::HEADER,
            parent,
            position,
            orientation,
            mesh: None,
        }
    }

    /// A trimesh node (flags 0x021), unrotated at the parent's origin.
    pub fn trimesh(name: &str, parent: usize, mesh: SyntheticMesh) -> Self {
        SyntheticNode {
            name: name.to_string(),
            flags: flags::HEADER | flags::MESH,
            parent: Some(parent),
            position: [0.0; 3],
            orientation: [1.0, 0.0, 0.0, 0.0],
            mesh: Some(mesh),
        }
    }
}

/// A written model and where its parts are.
#[derive(Clone, Debug, PartialEq)]
pub struct Built {
    pub mdl: Vec<u8>,
    pub mdx: Vec<u8>,
    /// File offset (in the `.mdl`) of each node's header.
    pub node_offsets: Vec<usize>,
    /// File offset of each node's mesh header (`None` without mesh).
    pub mesh_offsets: Vec<Option<usize>>,
    /// File offset of each node's child-offset array.
    pub children_offsets: Vec<usize>,
}

const WRAPPER: usize = 12;
const MDX_STRIDE: usize = 24;

fn mesh_header_size(game: Game) -> usize {
    match game {
        Game::Kotor1 => 332,
        Game::Kotor2 => 340,
    }
}

fn put(buffer: &mut [u8], at: usize, bytes: &[u8]) {
    if let Some(slot) = buffer.get_mut(at..at + bytes.len()) {
        slot.copy_from_slice(bytes);
    }
}

fn put_u32(buffer: &mut [u8], at: usize, value: u32) {
    put(buffer, at, &value.to_le_bytes());
}

fn put_f32s(buffer: &mut [u8], at: usize, values: &[f32]) {
    for (k, v) in values.iter().enumerate() {
        put(buffer, at + 4 * k, &v.to_le_bytes());
    }
}

/// Writes `nodes` as a model of `game` named `name`.
pub fn build(game: Game, name: &str, nodes: &[SyntheticNode]) -> Built {
    let children: Vec<Vec<usize>> = (0..nodes.len())
        .map(|p| {
            (0..nodes.len())
                .filter(|&c| nodes.get(c).and_then(|n| n.parent) == Some(p))
                .collect()
        })
        .collect();
    // Blob layout: headers (196), name offsets, names, then per node: header, sub-headers,
    // child array, faces, vertex copy.
    let names_at = 196;
    let mut strings_at = names_at + 4 * nodes.len();
    let mut name_offsets = Vec::new();
    for node in nodes {
        name_offsets.push(strings_at);
        strings_at += node.name.len() + 1;
    }
    let mut at = strings_at;
    let mut layout = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        let node_at = at;
        at += 80;
        let mesh_at = node.mesh.as_ref().map(|_| at);
        if node.mesh.is_some() {
            at += mesh_header_size(game);
            if node.flags & flags::AABB != 0 {
                at += 4;
            }
        }
        let children_at = at;
        at += 4 * children.get(i).map_or(0, Vec::len);
        let faces_at = at;
        let (face_count, vertex_count) = node
            .mesh
            .as_ref()
            .map_or((0, 0), |m| (m.faces.len(), m.vertices.len()));
        at += 32 * face_count;
        let copy_at = at;
        at += 12 * vertex_count;
        layout.push((node_at, mesh_at, children_at, faces_at, copy_at));
    }
    let mut blob = vec![0u8; at];
    let mut mdx: Vec<u8> = Vec::new();
    let (pointers, mesh_pointers) = match game {
        Game::Kotor1 => ([4_273_776u32, 4_216_096], [4_216_656u32, 4_216_672]),
        Game::Kotor2 => ([4_285_200, 4_216_320], [4_216_880, 4_216_896]),
    };
    put_u32(&mut blob, 0, pointers[0]);
    put_u32(&mut blob, 4, pointers[1]);
    put(&mut blob, 8, &name.as_bytes()[..name.len().min(31)]);
    let root_at = layout.first().map_or(0, |l| l.0);
    put_u32(&mut blob, 0x28, root_at as u32);
    put_u32(&mut blob, 0x2C, nodes.len() as u32);
    blob[0x4C] = 2;
    put_u32(&mut blob, 0xA8, root_at as u32);
    for (k, value) in [names_at, nodes.len(), nodes.len()].iter().enumerate() {
        put_u32(&mut blob, 0xB8 + 4 * k, *value as u32);
    }
    for (i, node) in nodes.iter().enumerate() {
        put_u32(&mut blob, names_at + 4 * i, name_offsets[i] as u32);
        put(&mut blob, name_offsets[i], node.name.as_bytes());
    }
    for (i, node) in nodes.iter().enumerate() {
        let (node_at, mesh_at, children_at, faces_at, copy_at) = layout[i];
        put(&mut blob, node_at, &node.flags.to_le_bytes());
        put(&mut blob, node_at + 2, &(i as u16).to_le_bytes());
        put(&mut blob, node_at + 4, &(i as u16).to_le_bytes());
        let parent_at = node.parent.and_then(|p| layout.get(p)).map_or(0, |l| l.0);
        put_u32(&mut blob, node_at + 0x0C, parent_at as u32);
        put_f32s(&mut blob, node_at + 0x10, &node.position);
        put_f32s(&mut blob, node_at + 0x1C, &node.orientation);
        let kids = children.get(i).cloned().unwrap_or_default();
        for (k, value) in [children_at, kids.len(), kids.len()].iter().enumerate() {
            put_u32(&mut blob, node_at + 0x2C + 4 * k, *value as u32);
        }
        for (k, &child) in kids.iter().enumerate() {
            put_u32(&mut blob, children_at + 4 * k, layout[child].0 as u32);
        }
        if let (Some(mesh), Some(mesh_at)) = (&node.mesh, mesh_at) {
            write_mesh(
                &mut blob,
                &mut mdx,
                game,
                mesh_pointers,
                mesh,
                mesh_at,
                faces_at,
                copy_at,
            );
        }
    }
    let mut mdl = Vec::with_capacity(WRAPPER + blob.len());
    mdl.extend_from_slice(&0u32.to_le_bytes());
    mdl.extend_from_slice(&(blob.len() as u32).to_le_bytes());
    mdl.extend_from_slice(&(mdx.len() as u32).to_le_bytes());
    put_u32(&mut blob, 0xB0, mdx.len() as u32);
    mdl.extend_from_slice(&blob);
    Built {
        mdl,
        mdx,
        node_offsets: layout.iter().map(|l| WRAPPER + l.0).collect(),
        mesh_offsets: layout.iter().map(|l| l.1.map(|m| WRAPPER + m)).collect(),
        children_offsets: layout.iter().map(|l| WRAPPER + l.2).collect(),
    }
}

#[allow(clippy::too_many_arguments)]
fn write_mesh(
    blob: &mut [u8],
    mdx: &mut Vec<u8>,
    game: Game,
    pointers: [u32; 2],
    mesh: &SyntheticMesh,
    at: usize,
    faces_at: usize,
    copy_at: usize,
) {
    let shift = match game {
        Game::Kotor1 => 0,
        Game::Kotor2 => 8,
    };
    put_u32(blob, at, pointers[0]);
    put_u32(blob, at + 4, pointers[1]);
    for (k, value) in [faces_at, mesh.faces.len(), mesh.faces.len()]
        .iter()
        .enumerate()
    {
        put_u32(blob, at + 8 + 4 * k, *value as u32);
    }
    let texture = if mesh.texture.is_empty() {
        "NULL"
    } else {
        &mesh.texture
    };
    put(blob, at + 88, &texture.as_bytes()[..texture.len().min(31)]);
    put_u32(blob, at + 252, MDX_STRIDE as u32);
    put_u32(blob, at + 256, 0x21);
    for slot in 0..11 {
        let value: i32 = match slot {
            0 => 0,
            1 => 12,
            _ => -1,
        };
        put(blob, at + 260 + 4 * slot, &value.to_le_bytes());
    }
    put(blob, at + 304, &(mesh.vertices.len() as u16).to_le_bytes());
    blob[at + 313] = u8::from(mesh.render);
    put_u32(blob, at + 324 + shift, mdx.len() as u32);
    put_u32(blob, at + 328 + shift, copy_at as u32);
    for (i, (corners, material)) in mesh.faces.iter().enumerate() {
        let record = faces_at + 32 * i;
        put_u32(blob, record + 16, *material);
        for (k, corner) in corners.iter().enumerate() {
            put(blob, record + 20 + 2 * k, &0xFFFFu16.to_le_bytes());
            put(blob, record + 26 + 2 * k, &corner.to_le_bytes());
        }
    }
    for (i, vertex) in mesh.vertices.iter().enumerate() {
        put_f32s(blob, copy_at + 12 * i, vertex);
        let mut row = [0u8; MDX_STRIDE];
        put_f32s(&mut row, 0, vertex);
        put_f32s(&mut row, 12, &[0.0, 0.0, 1.0]);
        mdx.extend_from_slice(&row);
    }
    // The terminator row every real mesh has (docs/formats/mdl.md §4.3).
    let mut row = [0u8; MDX_STRIDE];
    put_f32s(&mut row, 0, &[1e7, 1e7, 1e7]);
    mdx.extend_from_slice(&row);
}
