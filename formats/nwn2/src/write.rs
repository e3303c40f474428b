//! NavMesh → TRN/TRX.
//!
//! *Preserve*: while the provenance of a TRX/TRN read by this crate is fresh and no rebuild is
//! asked for, the original file is written back byte for byte, unless our validator finds
//! errors in it (its stored derived tables are then baked again, `trx.stored_tables_rebuilt`).
//! *Bake*: otherwise the ASWM is recomputed ([`crate::bake`]) and written with TRWH (and the
//! packets kept from the source file or from a `nwn2:template`).

use walkmesh_core::{
    Attribute, Diagnostics, Encoded, Extra, MaterialProfile, NavMesh, Output, Position, Severity,
    WriteError, WriteOptions,
};

use crate::aswm::{self, flags};
use crate::bake::{self, BakeInput, BodyPiece, Config, Style};
use crate::container::{self, Trwh};
use crate::deflate::{CHUNK, ChunkedZlib};
use crate::read::{packet_key, profile};

/// Default tile width of interior areas, used when the mesh has no tile grid.
pub const DEFAULT_TILE_WIDTH: f32 = 9.0;

/// X or Y coordinates this little below 0 (metres) are snapped to 0 instead of moving the
/// whole mesh by a tile: float noise from modelling tools, far below any walkmesh detail.
pub const SNAP_EPSILON: f32 = 1e-3;

pub use crate::aswm::WINDING_EPSILON;

/// Twice the signed area of a triangle projected on XY (positive: counter-clockwise seen
/// from +Z).
pub fn xy_area2(vertices: &[[f32; 3]], [a, b, c]: [u32; 3]) -> f64 {
    let v = |i: u32| vertices.get(i as usize).copied().unwrap_or([0.0; 3]);
    let (p0, p1, p2) = (v(a), v(b), v(c));
    f64::from(p1[0] - p0[0]) * f64::from(p2[1] - p0[1])
        - f64::from(p1[1] - p0[1]) * f64::from(p2[0] - p0[0])
}

/// Bounds of `vertices` (zeros when empty).
fn bounds_of(vertices: &[[f32; 3]]) -> ([f32; 3], [f32; 3]) {
    let Some(&first) = vertices.first() else {
        return ([0.0; 3], [0.0; 3]);
    };
    vertices
        .iter()
        .fold((first, first), |(mut min, mut max), v| {
            for axis in 0..3 {
                min[axis] = min[axis].min(v[axis]);
                max[axis] = max[axis].max(v[axis]);
            }
            (min, max)
        })
}

fn style_for(mesh: &NavMesh, options: &WriteOptions) -> Style {
    if let Some(name) = &options.file_name {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".trn") {
            return Style::Trn;
        }
        if lower.ends_with(".trx") {
            return Style::Trx;
        }
    }
    match mesh.extras.get("nwn2:tiles_flags") {
        Some(Extra::Int(15)) => Style::Trn,
        _ => Style::Trx,
    }
}

fn int_extra(mesh: &NavMesh, key: &str) -> Option<i64> {
    match mesh.extras.get(key) {
        Some(Extra::Int(v)) => Some(*v),
        _ => None,
    }
}

/// Writes `mesh` as TRN/TRX.
pub fn write_trx(
    mesh: &NavMesh,
    options: &WriteOptions,
    diag: &mut Diagnostics,
) -> Result<Output, WriteError> {
    let style = style_for(mesh, options);
    let template = options.params.get("nwn2:template");
    // Unchanged authored data in the source's style: the file is written back as it was,
    // unless our validator rejects its stored tables (path tables, islands, tiles, centres,
    // planes: all derived). Copying those would write a file the game may walk wrongly on and
    // our validator rejects, so they are baked again from the mesh, with a warning. A valid
    // file keeps its bytes, the toolset's zlib stream included.
    if !options.rebuild
        && template.is_none()
        && let Some(provenance) = mesh.fresh_provenance("trx")
        && let Some(file) = provenance.section("file")
        && style_for(mesh, &WriteOptions::default()) == style
        && stored_tables_valid(provenance, file, diag)
    {
        return Ok(Output {
            main: file.to_vec(),
            sidecars: Vec::new(),
        });
    }
    let config = Config {
        max_memory_mib: walkmesh_core::memory::limit_mib(options)?,
        ..Config::default()
    };
    bake_mesh(mesh, options, style, diag, &config)
}

/// Whether the file a mesh was read from (`file`, with `provenance`) may be copied: our
/// validator finds no error in it; otherwise `trx.stored_tables_rebuilt` is warned, naming
/// the errors, and the caller bakes.
fn stored_tables_valid(
    provenance: &walkmesh_core::Provenance,
    file: &[u8],
    diag: &mut Diagnostics,
) -> bool {
    let body = provenance
        .sections
        .iter()
        .find(|(name, _)| name == "aswm.body")
        .map(|(_, body)| std::sync::Arc::clone(body));
    crate::validate::stored_errors(file, body).copy_or_warn(diag, "trx.stored_tables_rebuilt")
}

/// Bakes `mesh` into a complete file: the geometry placed on the tile grid
/// ([`place_on_grid`]), the triangles wound and flagged as NWN2 stores them
/// ([`stored_triangles`]), the bake and its zlib stream, then the packets around it
/// ([`container_bytes`]).
#[doc(hidden)]
pub fn bake_mesh(
    mesh: &NavMesh,
    options: &WriteOptions,
    style: Style,
    diag: &mut Diagnostics,
    config: &Config,
) -> Result<Output, WriteError> {
    mesh.check()
        .map_err(|error| WriteError::new("mesh", error.to_string()))?;
    report_losses(mesh, diag);
    let (vertices, grid) = place_on_grid(mesh, options, diag);
    let (triangles, tri_flags) = stored_triangles(mesh, options, &vertices, style, diag)?;
    let link_hints = written_link_hints(mesh, &triangles);
    let border = if style == Style::Trn {
        int_extra(mesh, "nwn2:border").unwrap_or(0) as u32
    } else {
        0
    };
    let level = options
        .params
        .get("nwn2:zlib_level")
        .and_then(|l| l.parse::<u32>().ok())
        .filter(|&l| l <= 9)
        .unwrap_or(6);
    let input = BakeInput {
        vertices: &vertices,
        triangles: &triangles,
        flags: &tri_flags,
        tiles: match mesh.face_attributes.get("nwn2:tile") {
            Some(Attribute::Int(values)) if values.len() == mesh.polygons.len() => Some(values),
            _ => None,
        },
        links: link_hints.as_deref(),
        grid_width: grid.0,
        grid_height: grid.1,
        tile_width: grid.2,
        style,
        border,
    };
    // Keep the original zlib stream when the body comes out the same.
    let provenance = mesh.provenance.as_ref().filter(|p| p.format == "trx");
    let (baked, aswm_payload) = bake_and_compress(
        &input,
        config,
        level,
        provenance.and_then(|p| p.section("aswm.body")),
        provenance.and_then(|p| p.section("aswm.zlib")),
    );
    let baked = baked?;
    if baked.outside > 0 {
        diag.warn(
            "trx.triangle_outside_grid",
            format!(
                "{} triangles have their centre outside the {} x {} tile grid; they are put in the nearest edge tile",
                baked.outside, grid.0, grid.1
            ),
        );
    }
    if baked.order.iter().enumerate().any(|(i, &o)| i as u32 != o) {
        diag.push(
            Severity::Info,
            "trx.faces_reordered",
            Position::None,
            None,
            "faces are reordered so that each tile's triangles are consecutive",
        );
    }
    let main = container_bytes(mesh, options, &aswm_payload, grid, diag)?;
    Ok(Output {
        main,
        sidecars: Vec::new(),
    })
}

/// The vertices as written and the tile grid (columns, rows, tile width). A mesh with a
/// grid is moved so that the grid starts at (0, 0), as NWN2 grids do; without one, a grid is
/// computed from the bounds after snapping float noise below zero to 0 and moving a mesh
/// that reaches below zero by whole tiles (each warned).
fn place_on_grid(
    mesh: &NavMesh,
    options: &WriteOptions,
    diag: &mut Diagnostics,
) -> (Vec<[f32; 3]>, (u32, u32, f32)) {
    let mut vertices = mesh.vertices.clone();
    let Some(grid) = mesh.tile_grid else {
        let grid = compute_grid(&mut vertices, options, diag);
        return (vertices, grid);
    };
    if grid.origin != [0.0, 0.0] {
        for v in &mut vertices {
            v[0] -= grid.origin[0];
            v[1] -= grid.origin[1];
        }
        diag.warn(
            "trx.grid_origin_moved",
            format!(
                "the tile grid starts at ({}, {}); NWN2 grids start at (0, 0), so the mesh is moved by the opposite",
                grid.origin[0], grid.origin[1]
            ),
        );
    }
    if grid.tile_width != grid.tile_height {
        diag.warn(
            "trx.tiles_not_square",
            format!(
                "tiles of {} x {}; NWN2 tiles are square, {} is used",
                grid.tile_width, grid.tile_height, grid.tile_width
            ),
        );
    }
    (vertices, (grid.columns, grid.rows, grid.tile_width))
}

/// The tile grid of a mesh that has none (`nwn2:tile_width`, else
/// [`DEFAULT_TILE_WIDTH`]), the mesh shifted onto it when it reaches below zero.
fn compute_grid(
    vertices: &mut [[f32; 3]],
    options: &WriteOptions,
    diag: &mut Diagnostics,
) -> (u32, u32, f32) {
    let width = options
        .params
        .get("nwn2:tile_width")
        .and_then(|w| w.parse::<f32>().ok())
        .filter(|w| *w > 0.0)
        .unwrap_or(DEFAULT_TILE_WIDTH);
    // Coordinates a hair below zero (float noise of modelling tools, e.g. -1e-6 from
    // a Blender export) are snapped to 0 rather than moving the mesh by a tile.
    let mut snapped = 0usize;
    let mut largest = 0.0f32;
    for v in vertices.iter_mut() {
        for coordinate in v.iter_mut().take(2) {
            if *coordinate < 0.0 && *coordinate >= -SNAP_EPSILON {
                largest = largest.max(-*coordinate);
                *coordinate = 0.0;
                snapped += 1;
            }
        }
    }
    if snapped > 0 {
        diag.warn(
            "trx.snapped_to_zero",
            format!(
                "{snapped} coordinate(s) within {SNAP_EPSILON} m below x or y = 0 (at most {largest}) are set to 0, where NWN2 grids start"
            ),
        );
    }
    let (min, max) = bounds_of(vertices);
    let shift = [
        if min[0] < 0.0 {
            -(min[0] / width).floor() * width
        } else {
            0.0
        },
        if min[1] < 0.0 {
            -(min[1] / width).floor() * width
        } else {
            0.0
        },
    ];
    if shift != [0.0, 0.0] {
        for v in vertices.iter_mut() {
            v[0] += shift[0];
            v[1] += shift[1];
        }
        diag.warn(
            "trx.mesh_moved",
            format!(
                "the mesh reaches below x or y = 0, where NWN2 grids start; it is moved by whole {width} m tiles, by ({}, {}, 0) (TRX has no field to record this; `walkmesh convert --translate {},{},0` moves it back)",
                shift[0], shift[1], -shift[0], -shift[1]
            ),
        );
    }
    let columns = (((max[0] + shift[0]) / width).ceil().max(1.0)) as u32;
    let rows = (((max[1] + shift[1]) / width).ceil().max(1.0)) as u32;
    diag.push(
        Severity::Info,
        "trx.grid_computed",
        Position::None,
        None,
        format!("tile grid {columns} x {rows} of {width} m computed from the mesh bounds"),
    );
    (columns, rows, width)
}

/// The triangles in the order and winding they are stored with, and their flags: the
/// footstep bits of the face's material (or of its fallback, counted per material) and bit
/// 0x01 from the face's own walkability, never the profile's. Polygons must be triangles.
fn stored_triangles(
    mesh: &NavMesh,
    options: &WriteOptions,
    vertices: &[[f32; 3]],
    style: Style,
    diag: &mut Diagnostics,
) -> Result<(Vec<[u32; 3]>, Vec<u16>), WriteError> {
    let profile = profile(options.materials.as_ref());
    let raw = match mesh.face_attributes.get("nwn2:flags") {
        Some(Attribute::Int(values)) => Some(values),
        _ => None,
    };
    let mut triangles = Vec::with_capacity(mesh.polygons.len());
    let mut tri_flags = Vec::with_capacity(mesh.polygons.len());
    let mut changes = walkmesh_core::MaterialChanges::default();
    let mut flipped = (0usize, 0.0f64);
    for (p, polygon) in mesh.polygons.iter().enumerate() {
        let &[a, b, c] = polygon else {
            return Err(WriteError::new(
                format!("polygons[{p}]"),
                format!(
                    "polygon {p} has {} vertices; the writer needs triangles (prepare the mesh first)",
                    polygon.len()
                ),
            ));
        };
        let from_nwn2 = raw.and_then(|r| r.get(p)).map(|&f| f as u16);
        let (walkable, footstep) =
            walkability_and_footsteps(mesh, p, from_nwn2, &profile, &mut changes);
        let mut f = footstep;
        if walkable {
            f |= flags::WALKABLE;
        }
        // The engine locates points on a triangle with the edge order flag 0x04 gives, so
        // a walkable triangle must be stored with the XY winding its flag says. The toolset
        // reverses every TRX triangle and sets 0x04 (its non-walkable downward pieces then
        // disagree, harmlessly); a walkable triangle that faces down in the mesh is stored
        // the way up instead, so it can be stood on, and reported.
        // A triangle read from NWN2 in the target's own convention (a TRX triangle with
        // 0x04 into a TRX, a TRN one without into a TRN) keeps the stored order (the
        // reader's reversal is undone exactly), so a rebake matches the toolset's tables.
        // Baking a TRN into a TRX is where the toolset would store a downward walkable
        // triangle against its flag; ours is stored facing up and reported, as for other
        // engines' meshes.
        let stored_as_target =
            from_nwn2.is_some_and(|f| (f & flags::CLOCKWISE != 0) == (style == Style::Trx));
        let faces_down =
            !stored_as_target && walkable && xy_area2(vertices, [a, b, c]) < -WINDING_EPSILON;
        if faces_down {
            flipped.0 += 1;
            flipped.1 += walkmesh_core::passes::polygon_area(mesh, p);
        }
        match (style, faces_down) {
            (Style::Trx, false) | (Style::Trn, true) => triangles.push([a, c, b]),
            (Style::Trx, true) | (Style::Trn, false) => triangles.push([a, b, c]),
        }
        if style == Style::Trx {
            f |= flags::CLOCKWISE;
        }
        tri_flags.push(f);
    }
    if flipped.0 > 0 {
        diag.warn(
            "trx.walkable_winding_flipped",
            format!(
                "{} walkable triangle(s) ({:.3} m²) face down; they are stored facing up so that the engine can locate points on them (read back, their winding is reversed)",
                flipped.0, flipped.1
            ),
        );
    }
    changes.report(diag, "trx", "NWN2");
    Ok((triangles, tri_flags))
}

/// Walkability and footstep bits of polygon `p` (`from_nwn2`: its flags when read from
/// NWN2). A face from NWN2 keeps the IR's walkability and the footstep bits of its material
/// (its code when the material is the one the code means); others are encoded through the
/// profile, a merged material or changed walkability recorded in `changes`.
fn walkability_and_footsteps(
    mesh: &NavMesh,
    p: usize,
    from_nwn2: Option<u16>,
    profile: &MaterialProfile,
    changes: &mut walkmesh_core::MaterialChanges,
) -> (bool, u16) {
    match (from_nwn2, mesh.surfaces.get(p).copied()) {
        // Came from NWN2: the IR's walkability, the footstep bits of its material (its
        // code when the material is the one the code means).
        (Some(f), Some(s)) => {
            let bits = match profile.surface_for_code(u32::from(f & flags::FOOTSTEPS)) {
                Some(known) if known.material == s.material => f & flags::FOOTSTEPS,
                _ => profile
                    .surface_for_material(s.material)
                    .map_or(f & flags::FOOTSTEPS, |e| e.code as u16 & flags::FOOTSTEPS),
            };
            (s.walkable, bits)
        }
        (_, Some(s)) => match profile.encode(s, false) {
            Encoded::Exact(to) => (to.walkable, to.code as u16 & flags::FOOTSTEPS),
            Encoded::Merged(to) | Encoded::WalkabilityChanged(to) => {
                changes.record(walkmesh_core::passes::polygon_area(mesh, p), s, to);
                (to.walkable, to.code as u16 & flags::FOOTSTEPS)
            }
            Encoded::Unknown => (s.walkable, 0),
        },
        (_, None) => (false, 0),
    }
}

/// The file around the ASWM payload: a template's packets (`nwn2:template`), else the
/// source's packets in their order (`nwn2:packets`, unknown ones kept byte for byte), TRWH
/// first and ASWM last when the source had none.
fn container_bytes(
    mesh: &NavMesh,
    options: &WriteOptions,
    aswm_payload: &[u8],
    grid: (u32, u32, f32),
    diag: &mut Diagnostics,
) -> Result<Vec<u8>, WriteError> {
    let trwh = Trwh {
        width: grid.0,
        height: grid.1,
        id: int_extra(mesh, "nwn2:trwh_id").unwrap_or(0) as u32,
    }
    .bytes();

    let major = int_extra(mesh, "nwn2:version_major").unwrap_or(2) as u16;
    let minor = int_extra(mesh, "nwn2:version_minor").unwrap_or(3) as u16;
    if let Some(path) = options.params.get("nwn2:template") {
        return with_template(path, &trwh, aswm_payload, grid, diag);
    }
    let mut packets: Vec<([u8; 4], &[u8])> = Vec::new();
    let kinds = match mesh.extras.get("nwn2:packets") {
        Some(Extra::TextList(list)) => list.clone(),
        _ => vec!["TRWH".into(), "ASWM".into()],
    };
    let mut has = (false, false);
    for (i, kind) in kinds.iter().enumerate() {
        match kind.as_str() {
            "TRWH" => {
                packets.push((*b"TRWH", &trwh));
                has.0 = true;
            }
            "ASWM" => {
                packets.push((*b"ASWM", aswm_payload));
                has.1 = true;
            }
            other => {
                if let (Some(Extra::Bytes(payload)), Ok(fourcc)) = (
                    mesh.extras.get(&packet_key(i)),
                    <[u8; 4]>::try_from(other.as_bytes()),
                ) {
                    packets.push((fourcc, payload));
                }
            }
        }
    }
    if !has.0 {
        packets.insert(0, (*b"TRWH", &trwh));
    }
    if !has.1 {
        packets.push((*b"ASWM", aswm_payload));
    }
    Ok(container::write(major, minor, &packets))
}

/// Bakes and wraps the ASWM payload (`COMP`, sizes, zlib at `level`). The body is
/// compressed on a second thread while the bake computes the path tables: the bake hands it
/// over in pieces, every complete chunk is deflated as soon as it arrives, and the chunks left
/// when the bake ends are deflated on every core (see [`crate::deflate`]). When the body equals
/// `old_body` (the body the mesh was read from), `old_stream` is used instead, as a preserved
/// file would have it.
fn bake_and_compress(
    input: &BakeInput<'_>,
    config: &Config,
    level: u32,
    old_body: Option<&[u8]>,
    old_stream: Option<&[u8]>,
) -> (Result<bake::Baked, WriteError>, Vec<u8>) {
    // The encoder exists once the bake has told the body's length (its first piece).
    let feed = |encoder: &mut Option<ChunkedZlib>, piece: BodyPiece| match piece {
        BodyPiece::Length(length) => *encoder = Some(ChunkedZlib::new(level, CHUNK, length)),
        BodyPiece::At(at, bytes) => {
            if let Some(encoder) = encoder.as_mut() {
                encoder.place(at, &bytes);
            }
        }
    };
    // Whether every piece so far equals the old body at its offset, and how many bytes came.
    let mut matched = old_body.is_some();
    let mut body_length = 0usize;
    let mut check = |piece: &BodyPiece| {
        if let BodyPiece::At(at, bytes) = piece {
            body_length += bytes.len();
            matched &= old_body.and_then(|old| old.get(*at..*at + bytes.len())) == Some(bytes);
        }
    };
    let (baked, compressed) = if walkmesh_core::threads::may_spawn() {
        std::thread::scope(|scope| {
            let (send, receive) = std::sync::mpsc::channel::<BodyPiece>();
            let worker = scope.spawn(move || {
                let mut encoder = None;
                for piece in receive {
                    feed(&mut encoder, piece);
                }
                encoder.and_then(ChunkedZlib::finish)
            });
            // Owns the sender: dropping it ends the worker's loop.
            let mut sink = move |piece: BodyPiece| {
                check(&piece);
                // Fails only if the worker is gone (a panic): the body is compressed below.
                let _ = send.send(piece);
            };
            let baked = bake::bake_streaming(input, config, Some(&mut sink));
            drop(sink);
            (baked, worker.join().ok().flatten())
        })
    } else {
        // One thread (a batch worker): each piece is compressed as it arrives, here.
        let mut encoder = None;
        let mut sink = |piece: BodyPiece| {
            check(&piece);
            feed(&mut encoder, piece);
        };
        let baked = bake::bake_streaming(input, config, Some(&mut sink));
        (baked, encoder.and_then(ChunkedZlib::finish))
    };
    let Ok(baked) = baked else {
        return (baked, Vec::new());
    };
    // `finish` succeeds only when the pieces covered the body exactly once; then a body equal
    // to the old one keeps the old stream.
    let same = matched && old_body.map(<[u8]>::len) == Some(body_length);
    let payload = match (compressed, same.then_some(old_stream).flatten()) {
        (Some(_), Some(old)) => crate::aswm::wrap_stream(body_length, old),
        (Some(stream), None) => crate::aswm::wrap_stream(body_length, &stream),
        // Only if the pieces did not cover the body or the worker failed.
        (None, _) => aswm::wrap_level(&aswm::serialize(&baked.aswm), None, level),
    };
    (Ok(baked), payload)
}

/// Every packet of the template kept, TRWH and ASWM replaced by the baked ones.
fn with_template(
    path: &str,
    trwh: &[u8],
    aswm_payload: &[u8],
    grid: (u32, u32, f32),
    diag: &mut Diagnostics,
) -> Result<Vec<u8>, WriteError> {
    let bytes = walkmesh_core::files::read(std::path::Path::new(path)).map_err(|e| {
        WriteError::new(
            "nwn2:template",
            format!("cannot read the template {path}: {e}"),
        )
    })?;
    let template = container::parse(&bytes).map_err(|e| {
        WriteError::new(
            "nwn2:template",
            format!("the template {path} is not a TRN/TRX file: {e}"),
        )
    })?;
    let mut packets: Vec<([u8; 4], &[u8])> = Vec::new();
    let mut has = (false, false);
    for packet in &template.packets {
        match &packet.fourcc {
            b"TRWH" => {
                if let Ok(old) = Trwh::parse(packet.payload, packet.payload_offset)
                    && (old.width, old.height) != (grid.0, grid.1)
                {
                    diag.warn(
                        "trx.template_grid_mismatch",
                        format!(
                            "the template's TRWH says {} x {} but the walkmesh grid is {} x {}",
                            old.width, old.height, grid.0, grid.1
                        ),
                    );
                }
                packets.push((*b"TRWH", trwh));
                has.0 = true;
            }
            b"ASWM" => {
                packets.push((*b"ASWM", aswm_payload));
                has.1 = true;
            }
            _ => packets.push((packet.fourcc, packet.payload)),
        }
    }
    if !has.0 {
        packets.insert(0, (*b"TRWH", trwh));
    }
    if !has.1 {
        packets.push((*b"ASWM", aswm_payload));
    }
    Ok(container::write(template.major, template.minor, &packets))
}

/// The `nwn2:link0..2` columns (per IR edge) turned into hints per written side.
fn written_link_hints(mesh: &NavMesh, written: &[[u32; 3]]) -> Option<Vec<[i64; 3]>> {
    let column = |e: usize| match mesh.face_attributes.get(&format!("nwn2:link{e}")) {
        Some(Attribute::Int(values)) if values.len() == mesh.polygons.len() => Some(values),
        _ => None,
    };
    let columns = [column(0)?, column(1)?, column(2)?];
    let key = |a: u32, b: u32| (a.min(b), a.max(b));
    Some(
        mesh.polygons
            .iter()
            .zip(written)
            .enumerate()
            .map(|(p, (ir, w))| {
                let mut hints = [bake::NO_LINK_HINT; 3];
                for (k, hint) in hints.iter_mut().enumerate() {
                    let side = key(w[k], w[(k + 1) % 3]);
                    for (e, col) in columns.iter().enumerate() {
                        let (Some(&a), Some(&b)) = (ir.get(e), ir.get((e + 1) % ir.len().max(1)))
                        else {
                            continue;
                        };
                        if key(a, b) == side {
                            *hint = col.get(p).copied().unwrap_or(bake::NO_LINK_HINT);
                        }
                    }
                }
                hints
            })
            .collect(),
    )
}

fn report_losses(mesh: &NavMesh, diag: &mut Diagnostics) {
    if !mesh.hooks.is_empty() {
        diag.warn(
            "trx.hooks_dropped",
            format!(
                "{} hooks are dropped: a TRX walkmesh has no named points",
                mesh.hooks.len()
            ),
        );
    }
    if !mesh.edge_tags.is_empty() {
        diag.warn(
            "trx.edge_tags_dropped",
            format!(
                "{} edge tags (transitions) are dropped: ASWM edges carry no tags",
                mesh.edge_tags.len()
            ),
        );
    }
    if mesh.origin != [0.0; 3] {
        diag.warn(
            "trx.origin_dropped",
            "the mesh origin is dropped: TRX vertices are in area coordinates",
        );
    }
    let foreign: Vec<&str> = mesh
        .face_attributes
        .keys()
        .filter(|k| !k.starts_with("nwn2:"))
        .map(String::as_str)
        .collect();
    if !foreign.is_empty() {
        diag.warn(
            "trx.face_attributes_dropped",
            format!(
                "face attributes {} are dropped: ASWM triangles cannot store them",
                foreign.join(", ")
            ),
        );
    }
    let extras: Vec<&str> = mesh
        .extras
        .keys()
        .filter(|k| !k.starts_with("nwn2:"))
        .map(String::as_str)
        .collect();
    if !extras.is_empty() {
        diag.warn(
            "trx.extras_dropped",
            format!("mesh extras {} are dropped", extras.join(", ")),
        );
    }
}
