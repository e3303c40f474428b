//! OBJ writer: deterministic, Y-up by default, one `usemtl` per surface, an `.mtl` beside it.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use walkmesh_core::{
    Attribute, Diagnostics, Extra, NavMesh, Output, Sidecar, Surface, UpAxis, WriteError,
    WriteOptions, material::MaterialProfile,
};

use crate::DIRECTIVE;

/// IR → OBJ file axes (inverse of `read::to_ir`).
pub(crate) fn from_ir(up: UpAxis, p: [f32; 3]) -> [f32; 3] {
    match up {
        UpAxis::Y => [p[0], p[2], -p[1]],
        UpAxis::Z => p,
    }
}

/// A distinct, stable colour per material id: golden-ratio hue steps at fixed saturation.
pub fn material_colour(id: u16) -> [f32; 3] {
    let hue = (f64::from(id) * 0.618_033_988_749_895).fract() * 6.0;
    let (s, v) = (0.65, 0.9);
    let c = v * s;
    let x = c * (1.0 - ((hue % 2.0) - 1.0).abs());
    let m = v - c;
    let (r, g, b) = match hue as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    [(r + m) as f32, (g + m) as f32, (b + m) as f32]
}

fn point(out: &mut String, keyword: &str, p: [f32; 3]) {
    // `{}` on f32 prints the shortest text that parses back to the same bits.
    let _ = writeln!(out, "{keyword} {} {} {}", p[0], p[1], p[2]);
}

/// Writes `mesh` as OBJ text plus an `.mtl` sidecar: faces grouped by surface
/// ([`surface_groups`]), a warning for walkabilities OBJ cannot keep, the header lines and
/// vertices ([`write_header`]), the faces ([`write_faces`]), the edge tags and the `.mtl`.
pub fn write_obj(
    mesh: &NavMesh,
    options: &WriteOptions,
    diag: &mut Diagnostics,
) -> Result<Output, WriteError> {
    let profile = options
        .materials
        .as_deref()
        .cloned()
        .unwrap_or_else(MaterialProfile::neutral);
    let stem = options
        .file_name
        .as_deref()
        .and_then(|name| std::path::Path::new(name).file_stem())
        .and_then(|s| s.to_str())
        .unwrap_or("walkmesh")
        .to_string();
    let mtl_name = format!("{stem}.mtl");

    let (surface_order, face_groups) = surface_groups(mesh);
    // Materials the profile does not know cannot carry a walkability (the reader gives
    // them the default surface); the others carry it in a `walkable` directive.
    let mismatched: Vec<String> = surface_order
        .iter()
        .filter(|s| profile.surface_for_material(s.material).is_none())
        .map(|s| {
            format!(
                "{} ({})",
                s.material.name(),
                if s.walkable {
                    "walkable"
                } else {
                    "not walkable"
                }
            )
        })
        .collect();
    if !mismatched.is_empty() {
        diag.warn(
            "obj.walkability_not_stored",
            format!(
                "OBJ stores material names only; the '{}' profile gives these materials another walkability, which reading the OBJ back will use: {}",
                profile.engine,
                mismatched.join(", ")
            ),
        );
    }
    report_losses(mesh, diag);

    let mut out =
        String::with_capacity(mesh.vertices.len() * 32 + mesh.polygons.indices().len() * 8);
    write_header(&mut out, mesh, options, &mtl_name);
    let new_number = write_faces(&mut out, mesh, &profile, &surface_order, &face_groups);
    // Edge tags refer to faces by their 1-based number in this file.
    let mut tags: Vec<(u64, u32, i32)> = mesh
        .edge_tags
        .iter()
        .map(|(edge, tag)| {
            (
                new_number.get(edge.polygon as usize).copied().unwrap_or(0),
                edge.edge,
                tag.transition,
            )
        })
        .collect();
    tags.sort_unstable();
    for (face, edge, transition) in tags {
        let _ = writeln!(
            out,
            "{DIRECTIVE} edge {face} {edge} transition {transition}"
        );
    }

    Ok(Output {
        main: out.into_bytes(),
        sidecars: vec![Sidecar {
            file_name: mtl_name,
            bytes: material_library(&surface_order).into_bytes(),
        }],
    })
}

/// Surfaces in order of first use, and the faces of each, in mesh order.
fn surface_groups(mesh: &NavMesh) -> (Vec<Surface>, Vec<Vec<u32>>) {
    let mut surface_order: Vec<Surface> = Vec::new();
    let mut group_of_surface: BTreeMap<Surface, usize> = BTreeMap::new();
    let mut face_groups: Vec<Vec<u32>> = Vec::new();
    for (polygon, surface) in mesh.surfaces.iter().enumerate() {
        let group = *group_of_surface.entry(*surface).or_insert_with(|| {
            surface_order.push(*surface);
            face_groups.push(Vec::new());
            face_groups.len() - 1
        });
        if let Some(faces) = face_groups.get_mut(group) {
            faces.push(polygon as u32);
        }
    }
    (surface_order, face_groups)
}

/// The comment line, `mtllib`, the kind, origin and hook directives, and the vertices.
fn write_header(out: &mut String, mesh: &NavMesh, options: &WriteOptions, mtl_name: &str) {
    let _ = writeln!(
        out,
        "# walkmesh {} — {} vertices, {} faces ({} walkable); {}",
        env!("CARGO_PKG_VERSION"),
        mesh.vertices.len(),
        mesh.polygons.len(),
        mesh.walkable_count(),
        match options.up {
            UpAxis::Y => "Y up",
            UpAxis::Z => "Z up",
        }
    );
    let _ = writeln!(out, "mtllib {mtl_name}");
    let _ = writeln!(out, "{DIRECTIVE} kind {}", mesh.kind.as_str());
    if mesh.origin != [0.0; 3] {
        let p = from_ir(options.up, mesh.origin);
        let _ = writeln!(out, "{DIRECTIVE} origin {} {} {}", p[0], p[1], p[2]);
    }
    for hook in &mesh.hooks {
        let p = from_ir(options.up, hook.position);
        let name: String = hook
            .name
            .split_ascii_whitespace()
            .collect::<Vec<_>>()
            .join("_");
        let _ = writeln!(out, "{DIRECTIVE} hook {name} {} {} {}", p[0], p[1], p[2]);
    }
    for v in &mesh.vertices {
        point(out, "v", from_ir(options.up, *v));
    }
}

/// The faces, one `usemtl` per surface group (with a `walkable` directive where the face's
/// walkability is not the profile's), `o`/`g` names re-emitted where the stored value
/// changes. Returns each polygon's 1-based number in the file.
fn write_faces(
    out: &mut String,
    mesh: &NavMesh,
    profile: &MaterialProfile,
    surface_order: &[Surface],
    face_groups: &[Vec<u32>],
) -> Vec<u64> {
    let names = |key: &str| match mesh.extras.get(key) {
        Some(Extra::TextList(list)) => list.clone(),
        _ => Vec::new(),
    };
    let column = |key: &str| match mesh.face_attributes.get(key) {
        Some(Attribute::Int(values)) => Some(values.clone()),
        _ => None,
    };
    // Object and group names are re-emitted where the stored value changes.
    let mut naming = [
        ("o", names("obj:objects"), column("obj:object"), -1i64),
        ("g", names("obj:groups"), column("obj:group"), -1i64),
    ];
    let mut new_number = vec![0u64; mesh.polygons.len()];
    let mut written = 0u64;
    for (surface, faces) in surface_order.iter().zip(face_groups) {
        let _ = writeln!(out, "usemtl {}", surface.material.name());
        // The name gives the profile's walkability; a face that has the other one says so.
        if profile
            .surface_for_material(surface.material)
            .is_some_and(|p| p.walkable != surface.walkable)
        {
            let value = if surface.walkable { "yes" } else { "no" };
            let _ = writeln!(out, "{DIRECTIVE} walkable {value}");
        }
        for &polygon in faces {
            let p = polygon as usize;
            for (keyword, list, column, last) in &mut naming {
                if let Some(index) = column.as_ref().and_then(|c| c.get(p)).copied()
                    && index != *last
                {
                    if let Some(name) = usize::try_from(index).ok().and_then(|i| list.get(i)) {
                        let _ = writeln!(out, "{keyword} {name}");
                    }
                    *last = index;
                }
            }
            out.push('f');
            for &v in mesh.polygons.get(p) {
                let _ = write!(out, " {}", u64::from(v) + 1);
            }
            out.push('\n');
            written += 1;
            if let Some(slot) = new_number.get_mut(p) {
                *slot = written;
            }
        }
    }
    new_number
}

/// The `.mtl` text: one material per neutral material name, coloured.
fn material_library(surface_order: &[Surface]) -> String {
    let mut mtl = format!("# walkmesh {} materials\n", env!("CARGO_PKG_VERSION"));
    let mut seen = Vec::new();
    for surface in surface_order {
        let name = surface.material.name();
        if seen.contains(&name) {
            continue;
        }
        let [r, g, b] = material_colour(surface.material.0);
        let _ = writeln!(
            mtl,
            "\nnewmtl {name}\nKd {r:.4} {g:.4} {b:.4}\nKa 0 0 0\nd 1\nillum 1"
        );
        seen.push(name);
    }
    mtl
}

/// Warns about authored data that OBJ cannot carry.
fn report_losses(mesh: &NavMesh, diag: &mut Diagnostics) {
    let foreign_columns: Vec<&str> = mesh
        .face_attributes
        .keys()
        .filter(|k| !k.starts_with("obj:"))
        .map(String::as_str)
        .collect();
    if !foreign_columns.is_empty() {
        diag.warn(
            "obj.face_attributes_dropped",
            format!(
                "OBJ cannot store these per-face values, which are dropped: {}",
                foreign_columns.join(", ")
            ),
        );
    }
    let foreign_extras: Vec<&str> = mesh
        .extras
        .keys()
        .filter(|k| !k.starts_with("obj:"))
        .map(String::as_str)
        .collect();
    if !foreign_extras.is_empty() {
        diag.warn(
            "obj.extras_dropped",
            format!(
                "OBJ cannot store these mesh values, which are dropped: {}",
                foreign_extras.join(", ")
            ),
        );
    }
    if mesh.tile_grid.is_some() {
        diag.warn(
            "obj.tile_grid_dropped",
            "OBJ cannot store the tile grid; it is dropped",
        );
    }
}
