#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value;
use walkmesh_core::dump::{DumpNode, DumpValue};
use walkmesh_core::{Capabilities, EdgeRef, EdgeTag, Hook, Material, NavMesh, Surface};

/// The capabilities the default registry's format `id` declares.
fn capabilities_of(id: &str) -> Capabilities {
    walkmesh_formats::default_registry().capabilities_of(id)
}

use super::*;

fn surface(material: u16, walkable: bool) -> Surface {
    Surface {
        material: Material(material),
        walkable,
        code: u32::from(material),
    }
}

/// Two unit squares side by side at x = 0..1 and 1..2 (z = `z`), as four triangles; the last
/// one not walkable.
fn strip(z: f32) -> NavMesh {
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, z],
            [1.0, 0.0, z],
            [1.0, 1.0, z],
            [0.0, 1.0, z],
            [2.0, 0.0, z],
            [2.0, 1.0, z],
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 2], surface(4, true));
    mesh.push_polygon(&[0, 2, 3], surface(4, true));
    mesh.push_polygon(&[1, 4, 5], surface(3, true));
    mesh.push_polygon(&[1, 5, 2], surface(7, false));
    mesh
}

fn decode_base64(text: &str) -> Vec<u8> {
    crate::unpack::decode_base64(text).unwrap()
}

fn floats(text: &str) -> Vec<f32> {
    decode_base64(text)
        .chunks(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

fn uints(text: &str) -> Vec<u32> {
    decode_base64(text)
        .chunks(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

fn page_data(page: &str) -> Value {
    crate::unpack::page_data(page).unwrap()
}

fn leaf(name: &str, offset: u64, size: u64, value: DumpValue) -> DumpNode {
    DumpNode {
        name: name.into(),
        offset: Some(offset),
        size: Some(size),
        value: Some(value),
        kind: None,
        raw: None,
        meaning: None,
        children: Vec::new(),
    }
}

#[test]
fn unpacking_refuses_what_the_page_never_writes() {
    use crate::unpack::{UnpackError, decode_base64, page_data};
    assert!(matches!(
        decode_base64("Zm9v!mFy"),
        Err(UnpackError::Base64(4))
    ));
    assert!(matches!(decode_base64("Zm9"), Err(UnpackError::Base64(3))));
    assert!(matches!(
        decode_base64("Zg==Zg=="),
        Err(UnpackError::Base64(0))
    ));
    assert!(matches!(
        page_data("<html></html>"),
        Err(UnpackError::NoData)
    ));
    let not_gzip = format!(
        "<script data-encoding=\"gzip+base64\">{}</script>",
        base64(b"{}")
    );
    assert!(matches!(page_data(&not_gzip), Err(UnpackError::Inflate(_))));
}

#[test]
fn base64_matches_the_rfc_4648_examples() {
    for (plain, encoded) in [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ] {
        assert_eq!(base64(plain.as_bytes()), encoded);
        assert_eq!(decode_base64(encoded), plain.as_bytes());
    }
}

#[test]
fn page_is_self_contained_and_its_data_decodes_back_to_the_mesh() {
    let mesh = strip(0.5);
    let input = ViewInput {
        name: "strip.obj",
        format: "obj",
        capabilities: Capabilities::NONE,
        mesh: &mesh,
        fields: None,
    };
    let page = page(&[input], "strip").unwrap();
    assert!(!page.contains("http://") && !page.contains("https://"));
    assert!(!page.contains("<script src") && !page.contains("<link"));
    assert!(page.contains("id=\"walkmesh-selection\""));
    assert!(page.contains("window.walkmeshView"));
    let data = page_data(&page);
    let m = &data["meshes"][0];
    assert_eq!(m["faces"], 4);
    let vertices = floats(m["vertices"].as_str().unwrap());
    let expected: Vec<f32> = mesh.vertices.iter().flatten().copied().collect();
    assert_eq!(vertices, expected);
    assert_eq!(
        uints(m["polygonCorners"].as_str().unwrap()),
        vec![0, 1, 2, 0, 2, 3, 1, 4, 5, 1, 5, 2]
    );
    assert_eq!(
        uints(m["polygonStarts"].as_str().unwrap()),
        vec![0, 3, 6, 9, 12]
    );
    assert_eq!(uints(m["triangleFace"].as_str().unwrap()), vec![0, 1, 2, 3]);
    // The material colours: face 2 is Grass (3), the render palette's colour.
    let layers = m["faceLayers"].as_array().unwrap();
    let materials = layers.iter().find(|l| l["name"] == "materials").unwrap();
    let colours = decode_base64(materials["colours"].as_str().unwrap());
    let grass = palette::material(3);
    assert_eq!(&colours[6..9], &[grass.0, grass.1, grass.2]);
    // Components: faces 0 and 1 share an edge; face 2 touches them at a corner only, so it
    // is a second region; face 3 is not walkable (grey).
    let components = layers.iter().find(|l| l["name"] == "components").unwrap();
    let colours = decode_base64(components["colours"].as_str().unwrap());
    assert_eq!(colours[0..3], colours[3..6]);
    assert_ne!(colours[0..3], colours[6..9]);
    assert_eq!(&colours[9..12], &[150, 150, 150]);
    // Without a field dump the panel shows the neutral polygon and surface.
    let fields = fields::from_mesh(&mesh);
    let rows = fields.rows(2);
    assert_eq!(rows[0].label, "mesh.polygons[2]");
    assert_eq!(rows[0].value, Some(&DumpValue::Ints(vec![1, 4, 5])));
    assert!(
        rows.iter()
            .any(|r| r.label == "mesh.surfaces[2].material" && r.value == Some(&DumpValue::Int(3)))
    );
}

#[test]
fn a_name_cannot_close_the_data_script_early() {
    let mesh = strip(0.0);
    let input = ViewInput {
        name: "</script><script>alert(1)</script>",
        format: "obj",
        capabilities: Capabilities::NONE,
        mesh: &mesh,
        fields: None,
    };
    let page = page(&[input], "<b>title</b>").unwrap();
    assert_eq!(page.matches("</script>").count(), 2);
    assert!(page.contains("&lt;b&gt;title&lt;/b&gt;"));
    let data = page_data(&page);
    assert_eq!(
        data["meshes"][0]["name"],
        "</script><script>alert(1)</script>"
    );
}

#[test]
fn no_input_or_three_inputs_are_refused() {
    let mesh = strip(0.0);
    let input = ViewInput {
        name: "a",
        format: "obj",
        capabilities: Capabilities::NONE,
        mesh: &mesh,
        fields: None,
    };
    assert_eq!(page(&[], "x"), Err(ViewError::NoInput));
    assert_eq!(page(&[input; 3], "x"), Err(ViewError::TooMany(3)));
}

#[test]
fn concave_polygons_are_ear_clipped_not_fanned() {
    // An L-shaped hexagon: a fan from corner 0 would cover the notch at (1.5, 1.5).
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 1.0, 0.0],
            [1.0, 1.0, 0.0],
            [1.0, 2.0, 0.0],
            [0.0, 2.0, 0.0],
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 2, 3, 4, 5], surface(4, true));
    let (corners, faces) = triangles(&mesh);
    assert_eq!(faces, vec![0; 4]);
    let area: f32 = corners
        .chunks(3)
        .map(|t| {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| mesh.vertex(i));
            ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2.0
        })
        .sum();
    assert!((area - 3.0).abs() < 1e-6, "area {area}");
}

/// A BWM-like field tree for `strip`: faces, materials, adjacency (walkable faces) and an
/// AABB tree whose leaves name their face.
fn bwm_tree() -> DumpNode {
    let table = |name: &str, base: u64, stride: u64, values: Vec<DumpValue>| {
        DumpNode::group(
            name,
            Some(base),
            values
                .into_iter()
                .enumerate()
                .map(|(i, v)| leaf(&format!("{name}[{i}]"), base + i as u64 * stride, stride, v))
                .collect(),
        )
    };
    let aabb_node = |i: u64, face: i64| {
        DumpNode::group(
            format!("aabb[{i}]"),
            Some(500 + i * 44),
            vec![
                leaf("min", 500 + i * 44, 12, DumpValue::Floats(vec![0.0; 3])),
                leaf("face", 524 + i * 44, 4, DumpValue::Int(face)),
            ],
        )
    };
    DumpNode::group(
        "bwm",
        Some(0),
        vec![
            table(
                "faces",
                100,
                12,
                (0..4)
                    .map(|f| DumpValue::Ints(vec![f, f + 1, f + 2]))
                    .collect(),
            ),
            table(
                "materials",
                148,
                4,
                vec![4, 4, 3, 7].into_iter().map(DumpValue::Int).collect(),
            ),
            table(
                "adjacency",
                300,
                12,
                (0..3).map(|f| DumpValue::Ints(vec![f, -1, -1])).collect(),
            ),
            DumpNode::group(
                "aabb",
                Some(500),
                vec![aabb_node(0, -1), aabb_node(1, 2), aabb_node(2, 0)],
            ),
        ],
    )
}

#[test]
fn face_fields_come_from_the_dump_tables_with_their_offsets() {
    let mesh = strip(0.0);
    let tree = bwm_tree();
    let fields = fields::from_dump(&tree, capabilities_of("bwm"), &mesh);
    let rows = fields.rows(2);
    let row = |label: &str| rows.iter().find(|r| r.label == label);
    assert_eq!(row("faces[2]").unwrap().offset, Some(124));
    assert_eq!(row("materials[2]").unwrap().offset, Some(156));
    assert_eq!(row("materials[2]").unwrap().value, Some(&DumpValue::Int(3)));
    assert_eq!(row("adjacency[2]").unwrap().offset, Some(324));
    // Face 2's AABB leaf is node 1 (its `face` field at 524 + 44).
    assert_eq!(row("aabb[1].face").unwrap().offset, Some(568));
    // Face 3 is not walkable: no adjacency record, no AABB leaf.
    let rows = fields.rows(3);
    assert!(rows.iter().all(|r| !r.label.starts_with("adjacency")));
    assert!(rows.iter().all(|r| !r.label.starts_with("aabb")));
    // Columns are compact: affine offsets, face-numbered records.
    let json = fields.to_json();
    let materials = json
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["label"] == "materials[{i}]")
        .unwrap();
    assert_eq!(materials["index"], "face");
    assert_eq!(materials["offset"]["base"], 148);
    assert_eq!(materials["offset"]["stride"], 4);
    assert_eq!(materials["size"], 4);
}

#[test]
fn kotor_line_layers_show_transitions_and_hooks() {
    let mut mesh = strip(0.0);
    mesh.edge_tags.insert(
        EdgeRef {
            polygon: 2,
            edge: 1,
        },
        EdgeTag { transition: 3 },
    );
    mesh.hooks.push(Hook {
        name: "door".into(),
        position: [1.0, 1.0, 0.0],
    });
    let layers = layers::line_layers(&mesh, capabilities_of("bwm"), None);
    let transitions = layers.iter().find(|l| l.name == "transitions").unwrap();
    // Edge 1 of polygon 2 runs from vertex 4 to vertex 5.
    assert_eq!(transitions.points, vec![[2.0, 0.0, 0.0], [2.0, 1.0, 0.0]]);
    assert!(transitions.legend[0].1.contains("room 3"));
    let hooks = layers.iter().find(|l| l.name == "hooks").unwrap();
    assert_eq!(hooks.len(), 3);
    assert!(hooks.legend[0].1.contains("door"));
    // The walkable region (faces 0-2) is bounded by the square's four sides (1-2 borders the
    // non-walkable face 3) and the triangle's three (5-1 borders face 3 too): 7 edges.
    let boundary = layers.iter().find(|l| l.name == "boundary").unwrap();
    assert_eq!(boundary.len(), 7);
}

#[test]
fn two_meshes_get_overlay_and_diff_layers() {
    let a = strip(0.0);
    let mut b = strip(0.0);
    // Lift B's second square by 0.5 m: faces 2 differ, faces 0 and 1 match.
    for v in [4usize, 5] {
        b.vertices[v][2] = 0.5;
    }
    b.vertices.push([1.0, 0.0, 0.5]);
    b.vertices.push([1.0, 1.0, 0.5]);
    b.polygons = walkmesh_core::Polygons::default();
    b.surfaces.clear();
    b.push_polygon(&[0, 1, 2], surface(4, true));
    b.push_polygon(&[0, 2, 3], surface(4, true));
    b.push_polygon(&[6, 4, 5], surface(3, true));
    b.push_polygon(&[6, 5, 7], surface(7, false));
    let layer = diff_layer(&a, &b, "b");
    assert_eq!(layer.colours[0], layer.colours[1]);
    assert_ne!(layer.colours[0], layer.colours[2]);
    assert!(layer.legend[1].0 != layer.legend[0].0);
    assert!(layer.legend[1].1.starts_with("1 walkable faces farther"));
    let inputs = [
        ViewInput {
            name: "a",
            format: "obj",
            capabilities: Capabilities::NONE,
            mesh: &a,
            fields: None,
        },
        ViewInput {
            name: "b",
            format: "obj",
            capabilities: Capabilities::NONE,
            mesh: &b,
            fields: None,
        },
    ];
    let data = page_data(&page(&inputs, "a vs b").unwrap());
    for m in data["meshes"].as_array().unwrap() {
        let names: Vec<&str> = m["faceLayers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["name"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"diff") && names.contains(&"overlay"));
    }
}

#[test]
fn aabb_depth_legend_lists_only_depths_present() {
    let mesh = strip(0.0);
    let layers = layers::face_layers(&mesh, Capabilities::NONE, &fields::from_mesh(&mesh));
    let depth = layers.iter().find(|l| l.name == "aabb-depth").unwrap();
    // Four faces in a balanced binary tree: every leaf at depth 2.
    assert_eq!(depth.legend.len(), 1);
    assert_eq!(depth.legend[0].1, "depth 2");
}

mod corpus {
    use std::path::Path;

    use walkmesh_core::testing::required_corpora_dir;
    use walkmesh_core::{Diagnostics, ReadOptions};

    use super::*;

    fn read(path: &Path) -> (NavMesh, Option<DumpNode>, Capabilities) {
        let registry = walkmesh_formats::default_registry();
        let bytes = std::fs::read(path).unwrap();
        let format = registry.by_extension(path).next().unwrap();
        let options = ReadOptions::default();
        let mesh = format
            .reader()
            .unwrap()
            .read(
                walkmesh_core::Input {
                    bytes: &bytes,
                    path: Some(path),
                },
                &options,
                &mut Diagnostics::new(),
            )
            .unwrap();
        let tree = field_tree(format, &bytes, Some(path), &options).unwrap();
        (mesh, tree, format.descriptor().capabilities)
    }

    fn number(value: Option<&DumpValue>) -> Option<i64> {
        match value? {
            DumpValue::Int(v) => Some(*v),
            DumpValue::UInt(v) => i64::try_from(*v).ok(),
            _ => None,
        }
    }

    fn node<'a>(tree: &'a DumpNode, path: &[&str]) -> &'a DumpNode {
        let mut at = tree;
        for name in path {
            at = at
                .children
                .iter()
                .find(|c| c.name == *name || c.name.starts_with(&format!("{name} (")))
                .unwrap_or_else(|| {
                    let names: Vec<&str> = at.children.iter().map(|c| c.name.as_str()).collect();
                    panic!("no {name} under {}: {names:?}", at.name)
                });
        }
        at
    }

    /// The page's data from the full dump tree and from the lean one `walkmesh view` builds
    /// (no raw bytes, types or meanings; oversized tables dropped) are the same JSON.
    #[test]
    #[cfg_attr(
        not(walkmesh_corpora),
        ignore = "needs the shared corpora (shared/corpora)"
    )]
    fn the_lean_tree_gives_the_same_page_data_as_the_full_dump_tree() {
        let dir = required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
        let prime = std::fs::read_dir(dir.join("prime"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                p.extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("path"))
            });
        let files = [
            Some(dir.join("kotor/k1cp/tslpatchdata/m13aa_04a.wok")),
            Some(dir.join("nwn2/Kaedrin-nwn2cc/dm_dungeon.trx")),
            Some(dir.join("nwn2/Kaedrin-nwn2cc/abandoned house.trx")),
            prime,
        ];
        let registry = walkmesh_formats::default_registry();
        let mut dropped_somewhere = false;
        for path in files.into_iter().flatten() {
            let (mesh, full, capabilities) = read(&path);
            let full = full.unwrap();
            let bytes = std::fs::read(&path).unwrap();
            let format = registry.by_extension(&path).next().unwrap();
            let lean = view_tree(
                format,
                &bytes,
                Some(&path),
                &ReadOptions::default(),
                mesh.polygons.len(),
            )
            .unwrap()
            .unwrap();
            dropped_somewhere |= count_nodes(&lean) < count_nodes(&full);
            let page_of = |tree: &DumpNode| {
                let input = ViewInput {
                    name: "file",
                    format: format.descriptor().id,
                    capabilities,
                    mesh: &mesh,
                    fields: Some(tree),
                };
                page_json(&[input], "file").unwrap()
            };
            assert!(page_of(&full) == page_of(&lean), "{}", path.display());
        }
        assert!(
            dropped_somewhere,
            "no table was dropped: the test proves nothing"
        );
    }

    fn count_nodes(node: &DumpNode) -> usize {
        1 + node.children.iter().map(count_nodes).sum::<usize>()
    }

    #[test]
    #[cfg_attr(
        not(walkmesh_corpora),
        ignore = "needs the shared corpora (shared/corpora)"
    )]
    fn kotor_face_rows_are_the_dump_nodes_of_that_face() {
        let dir = required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
        let (mesh, tree, format) = read(&dir.join("kotor/k1cp/tslpatchdata/m13aa_04a.wok"));
        let tree = tree.unwrap();
        let fields = fields::from_dump(&tree, format, &mesh);
        let face = mesh.polygons.len() / 2;
        let rows = fields.rows(face);
        for table in ["faces", "materials", "normals", "distances"] {
            let label = format!("{table}[{face}]");
            let expected = node(&tree, &[table, &label]);
            let row = rows.iter().find(|r| r.label == label).unwrap();
            assert_eq!(row.offset, expected.offset, "{label}");
            assert_eq!(row.value, expected.value.as_ref(), "{label}");
        }
        // Every walkable face has one AABB leaf naming it.
        let walkable = (0..mesh.polygons.len()).filter(|&f| mesh.is_walkable(f));
        for f in walkable {
            let leaf = fields
                .rows(f)
                .into_iter()
                .find(|r| r.label.ends_with("].face"));
            assert_eq!(
                leaf.and_then(|r| r.value.cloned()),
                Some(DumpValue::Int(f as i64))
            );
        }
    }

    #[test]
    #[cfg_attr(
        not(walkmesh_corpora),
        ignore = "needs the shared corpora (shared/corpora)"
    )]
    fn nwn2_faces_carry_their_triangle_tile_and_path_table_entry() {
        let dir = required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
        let (mesh, tree, format) = read(&dir.join("nwn2/Kaedrin-nwn2cc/abandoned house.trx"));
        let tree = tree.unwrap();
        let fields = fields::from_dump(&tree, format, &mesh);
        let body = node(&tree, &["packets[1] ASWM", "body"]);
        let mut with_node = 0;
        for face in 0..mesh.polygons.len() {
            let rows = fields.rows(face);
            let flags = rows
                .iter()
                .find(|r| r.label == format!("triangles[{face}].flags"))
                .unwrap();
            let expected = node(body, &["triangles", &format!("triangles[{face}]"), "flags"]);
            assert_eq!(flags.offset, expected.offset);
            // The tile whose triangle range holds the face.
            let start = rows
                .iter()
                .find(|r| r.label.ends_with("].triangles_offset"))
                .unwrap();
            let count = rows
                .iter()
                .find(|r| r.label.ends_with("].triangle_count"))
                .unwrap();
            let (Some(s), Some(c)) = (number(start.value), number(count.value)) else {
                panic!("tile fields of face {face}");
            };
            assert!((s..s + c).contains(&(face as i64)));
            // A walkable triangle is a path-table node: its local_to_node byte is not 0xFF and
            // it has a row of the node table.
            if mesh.is_walkable(face) {
                let entry = rows
                    .iter()
                    .find(|r| r.label.contains("path_table.local_to_node["))
                    .unwrap();
                assert_ne!(number(entry.value), Some(0xFF));
                assert!(rows.iter().any(|r| r.label.contains("path_table.nodes[")));
                with_node += 1;
            }
        }
        assert_eq!(with_node, mesh.walkable_count());
        let layers = layers::line_layers(&mesh, format, Some(&tree));
        let visible = layers.iter().find(|l| l.name == "visible-links").unwrap();
        assert!(!visible.is_empty());
    }

    #[test]
    #[cfg_attr(
        not(walkmesh_corpora),
        ignore = "needs the shared corpora (shared/corpora)"
    )]
    fn prime_regions_carry_their_links_and_nodes() {
        let dir = required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
        let (mesh, tree, format) = read(&dir.join("prime/synthetic/grid_mp1_v4.path"));
        let tree = tree.unwrap();
        let fields = fields::from_dump(&tree, format, &mesh);
        let region = node(&tree, &["regions", "regions[0]"]);
        let link_count = match node(region, &["link_count"]).value {
            Some(DumpValue::Int(n)) => n as usize,
            Some(DumpValue::UInt(n)) => n as usize,
            ref other => panic!("link_count {other:?}"),
        };
        let rows = fields.rows(0);
        let links = rows
            .iter()
            .filter(|r| r.label.starts_with("links[") && r.label.ends_with("].region"))
            .count();
        assert_eq!(links, link_count);
        let layers = layers::line_layers(&mesh, format, Some(&tree));
        let octree = layers.iter().find(|l| l.name == "octree").unwrap();
        assert_eq!(octree.len() % 12, 0);
        assert!(!octree.is_empty());
    }
}

#[test]
fn the_router_gets_the_welded_mesh_when_the_reader_welds_for_modelling_input() {
    // Two triangles of a square written with their own copies of the shared corners, as
    // modelling tools export: `walkmesh route` welds them (as_modelled), so the page's router
    // must see four vertices, not six, or it would find the halves unlinked.
    let text = "v 0 0 0\nv 1 0 0\nv 1 0 -1\nv 0 0 0\nv 1 0 -1\nv 0 0 -1\nf 1 2 3\nf 4 5 6\n";
    let registry = walkmesh_formats::default_registry();
    let format = registry.by_id("obj").unwrap();
    let mesh = format
        .reader()
        .unwrap()
        .read(
            walkmesh_core::Input {
                bytes: text.as_bytes(),
                path: None,
            },
            &walkmesh_core::ReadOptions::default(),
            &mut walkmesh_core::Diagnostics::new(),
        )
        .unwrap();
    assert_eq!(mesh.vertices.len(), 6);
    let input = ViewInput {
        name: "square.obj",
        format: "obj",
        capabilities: Capabilities::NONE,
        mesh: &mesh,
        fields: None,
    };
    let data = page_data(&page(&[input], "square").unwrap());
    let route = &data["meshes"][0]["route"];
    assert_eq!(floats(route["vertices"].as_str().unwrap()).len(), 4 * 3);
    let corners = uints(route["polygonCorners"].as_str().unwrap());
    assert_eq!(corners.len(), 6);
    // The diagonal's two vertices are shared by both triangles after the weld.
    let first: std::collections::BTreeSet<u32> = corners[..3].iter().copied().collect();
    let second: std::collections::BTreeSet<u32> = corners[3..].iter().copied().collect();
    assert_eq!(first.intersection(&second).count(), 2);
    // A mesh `route` reads as it is carries no second copy.
    let strip = strip(0.0);
    let input = ViewInput {
        name: "strip",
        format: "bwm",
        capabilities: capabilities_of("bwm"),
        mesh: &strip,
        fields: None,
    };
    assert!(page_data(&page(&[input], "strip").unwrap())["meshes"][0]["route"].is_null());
}

/// The lean tree: records of a table past the face count go (with the records before them),
/// unless the page reads the table by name; records outside a table group stay.
#[test]
fn the_lean_tree_drops_only_oversized_tables_it_does_not_read() {
    use walkmesh_core::dump::{Emitter, Label};
    let bytes = [0u8; 64];
    let mut sink = tree::view_tree_sink(2);
    let mut e = Emitter::new(&mut sink, &bytes);
    e.root("file", |e| {
        e.table("island_paths", 0, 4, &[1u32, 2, 3], |e, at, v| {
            e.uint("next", at, 4, u64::from(*v));
        });
        e.table("aabb", 12, 4, &[1u32, 2, 3], |e, at, v| {
            e.uint("face", at, 4, u64::from(*v));
        });
        e.table("materials", 24, 4, &[1u32, 2], |e, at, v| {
            e.uint("id", at, 4, u64::from(*v));
        });
        e.group("header", Some(40), |e| {
            e.uint(Label::Indexed("loose", 5), 40, 4, 9u32);
        });
    });
    let tree = sink.finish();
    let names = |n: &DumpNode| {
        n.children
            .iter()
            .map(|c| c.name.clone())
            .collect::<Vec<_>>()
    };
    let child = |name: &str| tree.children.iter().find(|c| c.name == name).unwrap();
    assert!(child("island_paths").children.is_empty());
    assert_eq!(names(child("aabb")), ["aabb[0]", "aabb[1]", "aabb[2]"]);
    assert_eq!(names(child("materials")), ["materials[0]", "materials[1]"]);
    assert_eq!(names(child("header")), ["loose[5]"]);
    let id = &child("materials").children[1].children[0];
    assert_eq!(id.value, Some(DumpValue::UInt(2)));
    assert_eq!((id.raw.as_ref(), id.kind.as_ref()), (None, None));
}
