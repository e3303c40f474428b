//! Shared helpers for the glTF tests: sample meshes, a tiny glTF JSON builder and the peer
//! output directory.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use serde_json::{Value, json};
use walkmesh_core::{
    Attribute, Diagnostics, EdgeRef, EdgeTag, Extra, Hook, Input, Material, MeshKind, NavMesh,
    ReadOptions, Reader, Surface, TileGrid, WriteOptions, Writer,
};
use walkmesh_gltf::GltfFormat;

/// Where files for the peer checks go: `$WALKMESH_PEER_DIR/gltf/` when set, else a directory
/// under the system temp dir.
pub fn peer_dir() -> PathBuf {
    let dir = match std::env::var_os("WALKMESH_PEER_DIR") {
        Some(dir) => PathBuf::from(dir).join("gltf"),
        None => std::env::temp_dir().join("walkmesh-gltf-tests"),
    };
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn surface(material: u16, walkable: bool, code: u32) -> Surface {
    Surface {
        material: Material(material),
        walkable,
        code,
    }
}

/// A mesh with everything the IR can hold: triangles and n-gons, surfaces that differ from
/// the neutral profile, interleaved surfaces (so face order must be restored), -0.0 and
/// awkward floats, an unreferenced vertex, edge tags, hooks, origin, tile grid, face
/// attributes and every kind of extra.
pub fn rich_mesh() -> NavMesh {
    let mut mesh = NavMesh {
        kind: MeshKind::Placeable,
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, -0.0],
            [2.0, 0.5, 0.1],
            [0.1, 2.3, 0.7],
            [-1.5, -0.0, 1e-7],
            [123.456, -7.25, 3.3333333],
            [5.0, 5.0, 5.0], // unreferenced
        ],
        origin: [10.5, -3.25, 0.125],
        hooks: vec![
            Hook {
                name: "use01".into(),
                position: [0.5, 0.25, 0.0],
            },
            Hook {
                name: "USE 2 \"quoted\"".into(),
                position: [-1.0, 2.0, 0.1],
            },
        ],
        tile_grid: Some(TileGrid {
            columns: 3,
            rows: 2,
            tile_width: 10.0,
            tile_height: 9.5,
            origin: [0.5, -0.5],
        }),
        ..NavMesh::default()
    };
    let grass = surface(3, true, 3);
    let wall = surface(7, false, 7);
    let odd = surface(4, false, 0x1234); // Stone, but not walkable and an engine code
    let far = surface(40, true, 40); // past the vocabulary
    mesh.push_polygon(&[0, 1, 2], grass);
    mesh.push_polygon(&[0, 2, 3], wall);
    mesh.push_polygon(&[1, 4, 2], grass);
    mesh.push_polygon(&[2, 4, 7, 5], odd);
    mesh.push_polygon(&[3, 2, 5], grass);
    mesh.push_polygon(&[6, 0, 3, 5, 7], far);
    mesh.push_polygon(&[0, 3, 6], wall);
    mesh.edge_tags.insert(
        EdgeRef {
            polygon: 2,
            edge: 1,
        },
        EdgeTag { transition: 4 },
    );
    mesh.edge_tags.insert(
        EdgeRef {
            polygon: 5,
            edge: 4,
        },
        EdgeTag { transition: -1 },
    );
    mesh.edge_tags.insert(
        EdgeRef {
            polygon: 3,
            edge: 3,
        },
        EdgeTag { transition: 0 },
    );
    mesh.face_attributes.insert(
        "path:height".into(),
        Attribute::Float(vec![0.0, 1.5, -0.0, 0.1, 2.0, 3.0, 1e-30]),
    );
    mesh.face_attributes.insert(
        "path:mask".into(),
        Attribute::Int(vec![1, -2, 3, i64::MAX, 5, 6, i64::MIN]),
    );
    mesh.extras
        .insert("nwn2:name".into(), Extra::Text("Ärea \u{1F600}".into()));
    mesh.extras.insert("nwn2:int".into(), Extra::Int(-42));
    mesh.extras.insert("nwn2:float".into(), Extra::Float(0.1));
    mesh.extras
        .insert("nwn2:inf".into(), Extra::Float(f64::INFINITY));
    mesh.extras.insert(
        "nwn2:list".into(),
        Extra::TextList(vec!["a".into(), "b c".into()]),
    );
    mesh.extras.insert(
        "path:floats".into(),
        Extra::Floats(vec![1.0, f32::MIN_POSITIVE, -0.0]),
    );
    mesh.extras.insert(
        "path:bytes".into(),
        Extra::Bytes((0..=255u8).rev().collect()),
    );
    mesh.check().unwrap();
    mesh
}

/// A flat grid of `n × n` quads split into triangles, alternating two surfaces by row.
pub fn grid_mesh(n: u32) -> NavMesh {
    let mut mesh = NavMesh::default();
    for y in 0..=n {
        for x in 0..=n {
            mesh.vertices.push([
                x as f32 * 0.5,
                y as f32 * 0.5,
                ((x * 7 + y * 3) % 5) as f32 * 0.1,
            ]);
        }
    }
    let row = n + 1;
    for y in 0..n {
        for x in 0..n {
            let a = y * row + x;
            let s = if y % 2 == 0 {
                surface(3, true, 3)
            } else {
                surface(7, false, 7)
            };
            mesh.push_polygon(&[a, a + 1, a + row + 1], s);
            mesh.push_polygon(&[a, a + row + 1, a + row], s);
        }
    }
    mesh
}

pub fn write(mesh: &NavMesh, file_name: &str) -> (walkmesh_core::Output, Diagnostics) {
    let mut diag = Diagnostics::new();
    let options = WriteOptions {
        file_name: Some(file_name.into()),
        ..WriteOptions::default()
    };
    let output = GltfFormat.write(mesh, &options, &mut diag).unwrap();
    (output, diag)
}

pub fn read_bytes(bytes: &[u8]) -> Result<(NavMesh, Diagnostics), walkmesh_core::ReadError> {
    read_with(bytes, None, &ReadOptions::default())
}

pub fn read_with(
    bytes: &[u8],
    path: Option<&std::path::Path>,
    options: &ReadOptions,
) -> Result<(NavMesh, Diagnostics), walkmesh_core::ReadError> {
    let mut diag = Diagnostics::new();
    GltfFormat
        .read(Input { bytes, path }, options, &mut diag)
        .map(|mesh| (mesh, diag))
}

pub fn codes(diag: &Diagnostics) -> Vec<String> {
    diag.items.iter().map(|d| d.code.clone()).collect()
}

/// Asserts that two meshes hold the same authored data, comparing floats by bits.
pub fn assert_same(a: &NavMesh, b: &NavMesh) {
    assert_eq!(a.vertices.len(), b.vertices.len(), "vertex count");
    for (i, (p, q)) in a.vertices.iter().zip(&b.vertices).enumerate() {
        assert_eq!(
            p.map(f32::to_bits),
            q.map(f32::to_bits),
            "vertex {i}: {p:?} vs {q:?}"
        );
    }
    assert_eq!(a.polygons, b.polygons, "polygons");
    assert_eq!(a.surfaces, b.surfaces, "surfaces");
    assert_eq!(a.edge_tags, b.edge_tags, "edge tags");
    assert_eq!(a.kind, b.kind, "kind");
    assert_eq!(
        a.origin.map(f32::to_bits),
        b.origin.map(f32::to_bits),
        "origin"
    );
    assert_eq!(a.hooks, b.hooks, "hooks");
    assert_eq!(a.tile_grid, b.tile_grid, "tile grid");
    assert_eq!(a.face_attributes.len(), b.face_attributes.len());
    for (name, column) in &a.face_attributes {
        let other = b.face_attributes.get(name).expect(name);
        match (column, other) {
            (Attribute::Float(x), Attribute::Float(y)) => assert_eq!(
                x.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                y.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "{name}"
            ),
            _ => assert_eq!(column, other, "{name}"),
        }
    }
    assert_eq!(a.extras.len(), b.extras.len(), "extras");
    for (name, extra) in &a.extras {
        let other = b.extras.get(name).expect(name);
        match (extra, other) {
            (Extra::Float(x), Extra::Float(y)) => assert_eq!(x.to_bits(), y.to_bits(), "{name}"),
            (Extra::Floats(x), Extra::Floats(y)) => assert_eq!(
                x.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                y.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "{name}"
            ),
            _ => assert_eq!(extra, other, "{name}"),
        }
    }
}

/// A minimal glTF JSON builder for hand-made test files: binary data goes into one buffer
/// embedded as a base64 data URI (or returned separately for .glb / external files).
#[derive(Default)]
pub struct Builder {
    pub bin: Vec<u8>,
    pub views: Vec<Value>,
    pub accessors: Vec<Value>,
}

impl Builder {
    fn align(&mut self) {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
    }

    fn view(&mut self, bytes: &[u8]) -> usize {
        self.align();
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.views
            .push(json!({"buffer": 0, "byteOffset": offset, "byteLength": bytes.len()}));
        self.views.len() - 1
    }

    /// A VEC3 float accessor; returns its index.
    pub fn positions(&mut self, points: &[[f32; 3]]) -> usize {
        let bytes: Vec<u8> = points
            .iter()
            .flatten()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let view = self.view(&bytes);
        let mut min = [f32::INFINITY; 3];
        let mut max = [f32::NEG_INFINITY; 3];
        for p in points {
            for a in 0..3 {
                min[a] = min[a].min(p[a]);
                max[a] = max[a].max(p[a]);
            }
        }
        self.accessors.push(
            json!({"bufferView": view, "componentType": 5126, "count": points.len(),
            "type": "VEC3", "min": min.map(f64::from), "max": max.map(f64::from)}),
        );
        self.accessors.len() - 1
    }

    /// A SCALAR u32 index accessor.
    pub fn indices(&mut self, indices: &[u32]) -> usize {
        let bytes: Vec<u8> = indices.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.view(&bytes);
        self.accessors.push(json!({"bufferView": view, "componentType": 5125, "count": indices.len(), "type": "SCALAR"}));
        self.accessors.len() - 1
    }

    /// A SCALAR u16 index accessor.
    pub fn indices16(&mut self, indices: &[u16]) -> usize {
        let bytes: Vec<u8> = indices.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.view(&bytes);
        self.accessors.push(json!({"bufferView": view, "componentType": 5123, "count": indices.len(), "type": "SCALAR"}));
        self.accessors.len() - 1
    }

    /// Raw bytes as a view (for hand-made broken accessors).
    pub fn raw_view(&mut self, bytes: &[u8]) -> usize {
        self.view(bytes)
    }

    /// The document with `rest` merged in and the buffer embedded as a data URI.
    pub fn document(&self, rest: Value) -> Value {
        let uri = format!("data:application/octet-stream;base64,{}", base64(&self.bin));
        self.document_with_buffer(rest, json!({"byteLength": self.bin.len(), "uri": uri}))
    }

    pub fn document_with_buffer(&self, rest: Value, buffer: Value) -> Value {
        let mut doc = json!({
            "asset": {"version": "2.0"},
            "buffers": [buffer],
            "bufferViews": self.views,
            "accessors": self.accessors,
        });
        if let (Some(doc), Some(rest)) = (doc.as_object_mut(), rest.as_object()) {
            for (k, v) in rest {
                doc.insert(k.clone(), v.clone());
            }
        }
        doc
    }
}

pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Wraps JSON and an optional BIN chunk into a .glb, by hand (independent of the writer).
pub fn glb(json: &[u8], bin: Option<&[u8]>) -> Vec<u8> {
    let mut json = json.to_vec();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let mut out = Vec::new();
    let mut total = 12 + 8 + json.len();
    let bin = bin.map(|b| {
        let mut b = b.to_vec();
        while !b.len().is_multiple_of(4) {
            b.push(0);
        }
        b
    });
    if let Some(b) = &bin {
        total += 8 + b.len();
    }
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    if let Some(b) = bin {
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&b);
    }
    out
}

/// Deterministic xorshift64* generator for robustness tests.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
