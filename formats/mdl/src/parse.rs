//! `.mdl` + `.mdx` → [`Model`]. Layout: `docs/formats/mdl.md`, "Layout facts" (§ numbers below).
//!
//! Every offset stored in the model blob counts from byte 12 of the `.mdl`; errors report file
//! offsets. The node tree is walked iteratively from the root and a node reached twice is
//! refused, so a hostile tree cannot loop; every counted array is checked against the bytes
//! there before anything is allocated for it.

use std::collections::HashMap;

use crate::bytes::{ArrayDef, Bytes};
use crate::error::{MdlError, MdlErrorKind};
use crate::model::{Face, Game, Mesh, Model, Node, Transform, flags};

/// Size of the file wrapper before the model blob.
pub const WRAPPER: usize = 12;
/// Geometry header (80) + model header (116).
pub const HEADERS: usize = 196;
/// Node header size.
const NODE_HEADER: usize = 80;
/// Face record size.
const FACE_SIZE: usize = 32;

/// Geometry-header function pointers (§2.4).
const K1_PC: u32 = 4_273_776;
const K2_PC: u32 = 4_285_200;
const K1_XBOX: u32 = 4_254_992;
const K2_XBOX: u32 = 4_285_872;

/// Mesh-header first function pointers per game (plain, dangly, skin; §2.4).
const K1_MESH_POINTERS: [u32; 6] = [
    4_216_656, 4_216_672, 4_216_640, 4_216_624, 4_216_592, 4_216_608,
];
const K2_MESH_POINTERS: [u32; 6] = [
    4_216_880, 4_216_896, 4_216_864, 4_216_848, 4_216_816, 4_216_832,
];

/// Sizes of the sub-headers before the mesh header, and after it, in bit order (§3.2).
const BEFORE_MESH: [(u16, usize); 3] = [
    (flags::LIGHT, 92),
    (flags::EMITTER, 224),
    (flags::REFERENCE, 36),
];

/// Geometry type byte of a model (5 = animation).
const GEOMETRY_MODEL: u8 = 2;

/// The game a geometry header's first function pointer names (PC files only).
pub fn game_of(pointer: u32) -> Option<Game> {
    match pointer {
        K1_PC => Some(Game::Kotor1),
        K2_PC => Some(Game::Kotor2),
        _ => None,
    }
}

/// Reads a binary model. With `mdx`, vertex positions come from its rows (what the game
/// renders) and are compared with the `.mdl`'s own copy; without it, from that copy, which
/// docs/formats/mdl.md §4.3 found byte-identical to the rows in every one of 39 real files.
pub fn read_model(mdl: &[u8], mdx: Option<&[u8]>) -> Result<Model, MdlError> {
    let blob = wrapper(mdl, mdx)?;
    let game = geometry_header(&blob)?;
    let name = blob.name(8, 32, "geometry.name")?;
    let classification = blob.u8(0x50, "model.classification")?;
    let names = blob.array_def(0xB8, "model.names")?;
    blob.check_records(names.offset, names.count, 4, "model.names", 0xB8)?;
    let mdx = mdx.map(|data| Bytes {
        data,
        base: 0,
        mdx: true,
    });
    let (declared, most_nodes) = declared_nodes(&blob)?;
    let vertex_source = mdx.map_or(blob.data.len(), |m| m.data.len().max(blob.data.len()));
    let mut reader = TreeReader {
        blob,
        mdx,
        game,
        names,
        most_nodes,
        vertex_budget: vertex_source / 12,
        face_budget: blob.data.len() / FACE_SIZE,
        nodes: Vec::new(),
        mismatches: Vec::new(),
    };
    reader.walk()?;
    Ok(Model {
        name,
        game,
        classification,
        nodes: reader.nodes,
        declared_nodes: declared,
        vertex_copy_mismatches: reader.mismatches,
    })
}

/// The node count of the geometry header, and the most node headers the model data can hold
/// (which bounds the walk). The game walks the tree from the root: a count that disagrees
/// with a tree that reads whole is reported ([`Model::declared_nodes`]), not refused (K2's
/// `401dxna` counts 71 nodes for a tree of 69).
fn declared_nodes(blob: &Bytes<'_>) -> Result<(usize, usize), MdlError> {
    let declared = blob.u32(0x2C, "geometry.node_count")? as usize;
    Ok((declared, blob.data.len() / NODE_HEADER))
}

/// The 12-byte wrapper (§2.1): zero, blob size, `.mdx` size. Returns the blob.
fn wrapper<'a>(mdl: &'a [u8], mdx: Option<&[u8]>) -> Result<Bytes<'a>, MdlError> {
    let file = Bytes {
        data: mdl,
        base: 0,
        mdx: false,
    };
    let zero = file.u32(0, "wrapper.zero")?;
    if zero != 0 {
        return Err(MdlError::at(
            MdlErrorKind::Unsupported,
            0,
            "wrapper.zero",
            "the file does not start with four zero bytes: not a binary model (an ASCII model?)",
        ));
    }
    let blob_size = file.u32(4, "wrapper.model_size")? as usize;
    let data = mdl
        .get(WRAPPER..)
        .and_then(|rest| rest.get(..blob_size))
        .ok_or_else(|| {
            MdlError::at(
                MdlErrorKind::Truncated,
                4,
                "wrapper.model_size",
                format!(
                    "the wrapper says the model data has {blob_size} bytes, the file has {} after the wrapper",
                    mdl.len().saturating_sub(WRAPPER)
                ),
            )
        })?;
    let mdx_size = file.u32(8, "wrapper.mdx_size")?;
    if let Some(mdx) = mdx
        && mdx.len() != mdx_size as usize
    {
        return Err(MdlError::at(
            MdlErrorKind::Inconsistent,
            8,
            "wrapper.mdx_size",
            format!(
                "the model says its .mdx has {mdx_size} bytes, the .mdx given has {} (not this model's .mdx?)",
                mdx.len()
            ),
        ));
    }
    if data.len() < HEADERS {
        return Err(MdlError::at(
            MdlErrorKind::Truncated,
            WRAPPER as u64,
            "geometry",
            format!(
                "the model data has {} bytes, less than its {HEADERS}-byte headers",
                data.len()
            ),
        ));
    }
    Ok(Bytes {
        data,
        base: WRAPPER as u64,
        mdx: false,
    })
}

/// Game from the geometry header; refuses Xbox models, animations and unknown pointers.
fn geometry_header(blob: &Bytes<'_>) -> Result<Game, MdlError> {
    let pointer = blob.u32(0, "geometry.function_pointer")?;
    let game = match pointer {
        K1_XBOX | K2_XBOX => {
            return Err(MdlError::at(
                MdlErrorKind::Unsupported,
                blob.file_offset(0),
                "geometry.function_pointer",
                "an Xbox model: only PC models are read (Xbox mesh headers differ)",
            ));
        }
        other => game_of(other).ok_or_else(|| {
            MdlError::at(
                MdlErrorKind::Unsupported,
                blob.file_offset(0),
                "geometry.function_pointer",
                format!("{other} names neither KotOR 1 ({K1_PC}) nor KotOR 2 ({K2_PC}) PC models"),
            )
        })?,
    };
    let kind = blob.u8(0x4C, "geometry.type")?;
    if kind != GEOMETRY_MODEL {
        return Err(MdlError::at(
            MdlErrorKind::Unsupported,
            blob.file_offset(0x4C),
            "geometry.type",
            format!("geometry type {kind} is not a model (2)"),
        ));
    }
    Ok(game)
}

/// A node waiting to be read: its offset, its parent, and where the offset was stored.
struct Pending {
    offset: u32,
    parent: Option<usize>,
    /// File offset of the slot holding `offset`, and its index in the parent's child array
    /// (`None` for the root offset in the geometry header), for errors.
    slot: u64,
    child: Option<usize>,
}

impl Pending {
    /// The field holding the offset: `children[k]` or the header's root offset.
    fn field(&self) -> String {
        match self.child {
            Some(k) => format!("children[{k}]"),
            None => "geometry.root_node".to_string(),
        }
    }
}

struct TreeReader<'a> {
    blob: Bytes<'a>,
    mdx: Option<Bytes<'a>>,
    game: Game,
    names: ArrayDef,
    /// Node count of the geometry header: the walk stops with an error past it.
    /// The most node headers the model data can hold: the walk never goes past it.
    most_nodes: usize,
    /// Vertices and faces the files can still hold: every mesh takes its counts from these
    /// before reading, so meshes whose data overlap cannot multiply the work (real files
    /// never share mesh data).
    vertex_budget: usize,
    face_budget: usize,
    nodes: Vec<Node>,
    mismatches: Vec<String>,
}

impl TreeReader<'_> {
    /// Depth-first pre-order from the root, children in array order (§3.3).
    fn walk(&mut self) -> Result<(), MdlError> {
        let root = self.blob.u32(0x28, "geometry.root_node")?;
        let mut stack = vec![Pending {
            offset: root,
            parent: None,
            slot: self.blob.file_offset(0x28),
            child: None,
        }];
        let mut seen: HashMap<u32, usize> = HashMap::new();
        while let Some(pending) = stack.pop() {
            let index = self.nodes.len();
            if let Some(&earlier) = seen.get(&pending.offset) {
                return Err(self.revisit(&pending, earlier));
            }
            seen.insert(pending.offset, index);
            if index >= self.most_nodes {
                return Err(MdlError::at(
                    MdlErrorKind::Truncated,
                    pending.slot,
                    pending.field(),
                    format!(
                        "the tree holds more nodes than the {} node headers the model data can hold",
                        self.most_nodes
                    ),
                ));
            }
            let (node, children) = self.node(&pending)?;
            if let Some(parent) = pending.parent.and_then(|p| self.nodes.get_mut(p)) {
                parent.children.push(index);
            }
            self.nodes.push(node);
            // Every offset waiting is a node still to come, so together with the nodes read
            // they cannot exceed the node headers the data holds; this keeps the stack within
            // it even when child arrays overlap.
            if self.nodes.len() + stack.len() + children.len() > self.most_nodes {
                let at = self.nodes.last().map_or(0, |n| n.offset);
                return Err(MdlError::at(
                    MdlErrorKind::Inconsistent,
                    at + 0x2C,
                    "node.children",
                    format!(
                        "the child arrays name more nodes than the {} node headers the model data can hold",
                        self.most_nodes
                    ),
                )
                .in_node(self.nodes.last().map_or("", |n| n.name.as_str())));
            }
            for (k, &(child, slot)) in children.iter().enumerate().rev() {
                stack.push(Pending {
                    offset: child,
                    parent: Some(index),
                    slot,
                    child: Some(k),
                });
            }
        }
        Ok(())
    }

    fn revisit(&self, pending: &Pending, earlier: usize) -> MdlError {
        let parent = pending
            .parent
            .and_then(|p| self.nodes.get(p))
            .map_or("", |n| n.name.as_str());
        let earlier_name = self.nodes.get(earlier).map_or("", |n| n.name.as_str());
        let ancestor = self.is_ancestor(earlier, pending.parent);
        MdlError::at(
            MdlErrorKind::Cycle,
            pending.slot,
            pending.field(),
            format!(
                "the child offset {:#x} (file byte {:#x}) points to node '{}', which the tree already reached{}",
                pending.offset,
                self.blob.file_offset(pending.offset as usize),
                walkmesh_core::printable::escape(earlier_name),
                if ancestor {
                    ": an ancestor, so the tree has a cycle"
                } else {
                    ": a node may have one parent only"
                }
            ),
        )
        .in_node(parent)
    }

    fn is_ancestor(&self, candidate: usize, mut from: Option<usize>) -> bool {
        while let Some(index) = from {
            if index == candidate {
                return true;
            }
            from = self.nodes.get(index).and_then(|n| n.parent);
        }
        false
    }

    /// The node at `pending.offset` and its child offsets.
    fn node(&mut self, pending: &Pending) -> Result<(Node, Vec<(u32, u64)>), MdlError> {
        let at = pending.offset as usize;
        if at
            .checked_add(NODE_HEADER)
            .is_none_or(|end| end > self.blob.data.len())
        {
            let error = MdlError::at(
                MdlErrorKind::OutOfRange,
                pending.slot,
                pending.field(),
                format!(
                    "node offset {at:#x} leaves no room for an {NODE_HEADER}-byte node header in {} bytes of model data",
                    self.blob.data.len()
                ),
            );
            return Err(match pending.parent.and_then(|p| self.nodes.get(p)) {
                Some(parent) => error.in_node(&parent.name),
                None => error,
            });
        }
        let name_index = self.blob.u16(at + 4, "node.name_index")?;
        let name = self.node_name(at, name_index)?;
        self.node_body(pending, &name)
            .map_err(|error| error.in_node(&name))
    }

    fn node_name(&self, at: usize, index: u16) -> Result<String, MdlError> {
        if u32::from(index) >= self.names.count {
            return Err(MdlError::at(
                MdlErrorKind::OutOfRange,
                self.blob.file_offset(at + 4),
                "node.name_index",
                format!(
                    "name index {index} of the node at file byte {:#x}, but the model has {} name(s)",
                    self.blob.file_offset(at),
                    self.names.count
                ),
            ));
        }
        let slot = self.names.offset as usize + 4 * usize::from(index);
        let offset = self.blob.u32(slot, &format!("names[{index}]"))?;
        self.blob
            .name(offset as usize, 256, &format!("names[{index}]"))
    }

    fn node_body(
        &mut self,
        pending: &Pending,
        name: &str,
    ) -> Result<(Node, Vec<(u32, u64)>), MdlError> {
        let blob = self.blob;
        let at = pending.offset as usize;
        let flags = blob.u16(at, "node.flags")?;
        check_flags(&blob, at, flags)?;
        let position = blob.finite_floats(at + 0x10, "node.position", ["x", "y", "z"])?;
        let orientation =
            blob.finite_floats(at + 0x1C, "node.orientation", ["w", "x", "y", "z"])?;
        if Transform::local(position, orientation).is_none() {
            return Err(MdlError::at(
                MdlErrorKind::NonFinite,
                blob.file_offset(at + 0x1C),
                "node.orientation",
                "the orientation quaternion has no length (all four components 0)",
            ));
        }
        let children = self.child_offsets(at)?;
        let mesh = if flags & flags::MESH != 0 {
            let mut mesh_at = at + NODE_HEADER;
            for (bit, size) in BEFORE_MESH {
                if flags & bit != 0 {
                    mesh_at += size;
                }
            }
            Some(self.mesh(mesh_at, name)?)
        } else {
            None
        };
        let node = Node {
            name: name.to_string(),
            flags,
            offset: blob.file_offset(at),
            parent: pending.parent,
            children: Vec::new(),
            position,
            orientation,
            mesh,
        };
        Ok((node, children))
    }

    /// Child node offsets with the file offset of the slot holding each.
    fn child_offsets(&self, at: usize) -> Result<Vec<(u32, u64)>, MdlError> {
        let def = self.blob.array_def(at + 0x2C, "node.children")?;
        let start =
            self.blob
                .check_records(def.offset, def.count, 4, "node.children", at + 0x2C)?;
        (0..def.count as usize)
            .map(|k| {
                let slot = start + 4 * k;
                let child = self.blob.u32(slot, &format!("children[{k}]"))?;
                Ok((child, self.blob.file_offset(slot)))
            })
            .collect()
    }

    /// The mesh sub-header at `at` (§4.1) with its faces and vertices.
    fn mesh(&mut self, at: usize, name: &str) -> Result<Mesh, MdlError> {
        let blob = self.blob;
        self.check_mesh_game(at)?;
        // K2 inserts 8 bytes after the `render` byte (mesh +313), so later fields move by 8.
        let shift = match self.game {
            Game::Kotor1 => 0,
            Game::Kotor2 => 8,
        };
        let texture = texture_name(blob.name(at + 88, 32, "mesh.texture0")?);
        let lightmap = texture_name(blob.name(at + 120, 32, "mesh.texture1")?);
        let vertex_count = blob.u16(at + 304, "mesh.vertex_count")?;
        self.vertex_budget = take(
            self.vertex_budget,
            usize::from(vertex_count),
            blob.file_offset(at + 304),
            "mesh.vertex_count",
            "vertices",
        )?;
        let shadow = blob.u8(at + 311, "mesh.shadow")? != 0;
        let render = blob.u8(at + 313, "mesh.render")? != 0;
        let copy_offset = blob.u32(at + 328 + shift, "mesh.vertex_copy")?;
        let copy = self.vertex_copy(copy_offset, vertex_count, at + 328 + shift);
        let vertices = match self.mdx {
            Some(_) => {
                let rows = self.mdx_rows(at, shift, vertex_count)?;
                if copy.as_ref().ok() != Some(&rows) {
                    self.mismatches.push(name.to_string());
                }
                rows
            }
            None => copy?,
        };
        let def = blob.array_def(at + 8, "mesh.faces")?;
        self.face_budget = take(
            self.face_budget,
            def.count as usize,
            blob.file_offset(at + 8),
            "mesh.faces",
            "faces",
        )?;
        let faces = self.faces(at, vertex_count)?;
        Ok(Mesh {
            texture,
            lightmap,
            render,
            shadow,
            vertices,
            faces,
        })
    }

    /// Refuses a mesh header whose function pointer belongs to the other game (§2.4).
    fn check_mesh_game(&self, at: usize) -> Result<(), MdlError> {
        let pointer = self.blob.u32(at, "mesh.function_pointer")?;
        let (own, other, other_name) = match self.game {
            Game::Kotor1 => (&K1_MESH_POINTERS, &K2_MESH_POINTERS, "KotOR 2"),
            Game::Kotor2 => (&K2_MESH_POINTERS, &K1_MESH_POINTERS, "KotOR 1"),
        };
        if other.contains(&pointer) && !own.contains(&pointer) {
            return Err(MdlError::at(
                MdlErrorKind::Inconsistent,
                self.blob.file_offset(at),
                "mesh.function_pointer",
                format!(
                    "a {other_name} mesh header ({pointer}) in a model whose geometry header says otherwise; the two games' mesh headers differ in size"
                ),
            ));
        }
        Ok(())
    }

    /// The `.mdl`'s plain copy of the positions (`count` × 3 floats at blob `offset`).
    fn vertex_copy(
        &self,
        offset: u32,
        count: u16,
        copy_at: usize,
    ) -> Result<Vec<[f32; 3]>, MdlError> {
        let start = self
            .blob
            .check_records(offset, u32::from(count), 12, "mesh.vertex_copy", copy_at)
            .map_err(|mut e| {
                if self.mdx.is_none() {
                    e.message.push_str(
                        " (read the model with its .mdx to take the positions from its rows)",
                    );
                }
                e
            })?;
        (0..usize::from(count))
            .map(|i| {
                self.blob
                    .finite_floats(start + 12 * i, &format!("vertices[{i}]"), ["x", "y", "z"])
            })
            .collect()
    }

    /// Positions from the `.mdx` rows: `count` rows of `stride` bytes at the mesh's MDX offset,
    /// the position at the header's position slot (§4.3).
    fn mdx_rows(&self, at: usize, shift: usize, count: u16) -> Result<Vec<[f32; 3]>, MdlError> {
        let Some(mdx) = self.mdx else {
            return Ok(Vec::new());
        };
        if count == 0 {
            return Ok(Vec::new());
        }
        let blob = self.blob;
        let stride = blob.u32(at + 252, "mesh.mdx_stride")? as usize;
        let position = blob.i32(at + 260, "mesh.mdx_position")?;
        let start = blob.u32(at + 324 + shift, "mesh.mdx_offset")? as usize;
        let position = usize::try_from(position)
            .ok()
            .filter(|p| p.saturating_add(12) <= stride)
            .ok_or_else(|| {
                MdlError::at(
                    MdlErrorKind::Inconsistent,
                    blob.file_offset(at + 260),
                    "mesh.mdx_position",
                    format!(
                        "the position slot {position} does not hold 12 bytes inside an .mdx row of {stride} bytes"
                    ),
                )
            })?;
        let last = (usize::from(count) - 1)
            .checked_mul(stride)
            .and_then(|n| n.checked_add(start))
            .and_then(|n| n.checked_add(position + 12));
        if last.is_none_or(|end| end > mdx.data.len()) {
            return Err(MdlError::at(
                MdlErrorKind::Truncated,
                blob.file_offset(at + 324 + shift),
                "mesh.mdx_offset",
                format!(
                    "{count} rows of {stride} bytes from .mdx byte {start:#x} run past the end of the .mdx ({} bytes)",
                    mdx.data.len()
                ),
            ));
        }
        (0..usize::from(count))
            .map(|i| {
                mdx.finite_floats(
                    start + i * stride + position,
                    &format!("mdx_rows[{i}].position"),
                    ["x", "y", "z"],
                )
            })
            .collect()
    }

    /// Face records (§4.2), corners checked against the vertex count.
    fn faces(&self, at: usize, vertex_count: u16) -> Result<Vec<Face>, MdlError> {
        let blob = self.blob;
        let def = blob.array_def(at + 8, "mesh.faces")?;
        let start = blob.check_records(def.offset, def.count, FACE_SIZE, "mesh.faces", at + 8)?;
        let mut faces = Vec::with_capacity(def.count as usize);
        for i in 0..def.count as usize {
            let record = start + FACE_SIZE * i;
            let field = |name: &str| format!("faces[{i}].{name}");
            let material = blob.u32(record + 16, &field("material"))?;
            let mut adjacent = [0u16; 3];
            let mut vertices = [0u16; 3];
            for k in 0..3 {
                adjacent[k] = blob.u16(record + 20 + 2 * k, &field("adjacent"))?;
                let corner = blob.u16(record + 26 + 2 * k, &field("vertices"))?;
                if corner >= vertex_count {
                    return Err(MdlError::at(
                        MdlErrorKind::OutOfRange,
                        blob.file_offset(record + 26 + 2 * k),
                        format!("faces[{i}].v{}", k + 1),
                        format!(
                            "face {i} refers to vertex {corner}, but the mesh has {vertex_count} vertices"
                        ),
                    ));
                }
                vertices[k] = corner;
            }
            faces.push(Face {
                vertices,
                material,
                adjacent,
            });
        }
        Ok(faces)
    }
}

/// `budget − count`, or an error when the meshes read so far claim more `what` than the files
/// can hold without sharing data.
fn take(budget: usize, count: usize, at: u64, field: &str, what: &str) -> Result<usize, MdlError> {
    budget.checked_sub(count).ok_or_else(|| {
        MdlError::at(
            MdlErrorKind::Truncated,
            at,
            field,
            format!(
                "{count} {what} here would make the meshes claim more {what} than the model's files can hold; their data would overlap"
            ),
        )
    })
}

/// Refuses unknown type bits and sub-header bits without the mesh bit (§3.2): their sizes
/// would be guesses.
fn check_flags(blob: &Bytes<'_>, at: usize, value: u16) -> Result<(), MdlError> {
    let unknown = value & !flags::KNOWN;
    let problem = if unknown != 0 {
        Some(format!(
            "type bits {unknown:#06x} are unknown (flags {value:#06x}); their data's size is not known"
        ))
    } else if value & flags::HEADER == 0 {
        Some(format!(
            "flags {value:#06x} lack the node-header bit 0x0001"
        ))
    } else if value & flags::NEED_MESH != 0 && value & flags::MESH == 0 {
        Some(format!(
            "flags {value:#06x} carry mesh-type bits without the mesh bit 0x0020"
        ))
    } else {
        None
    };
    match problem {
        Some(message) => Err(MdlError::at(
            MdlErrorKind::Unsupported,
            blob.file_offset(at),
            "node.flags",
            message,
        )),
        None => Ok(()),
    }
}

/// `NULL` (any case) and blank names mean no texture.
fn texture_name(name: String) -> String {
    let trimmed = name.trim();
    if trimmed.is_empty() || trimmed.eq_ignore_ascii_case("null") {
        String::new()
    } else {
        trimmed.to_string()
    }
}
