//! `walkmesh validate` for BWM: every rule game files follow, each finding with a stable
//! `bwm.*` code (listed in `docs/formats/bwm.md`).

use std::collections::BTreeMap;

use walkmesh_core::{
    Diagnostic, Input, Location, Material, NavMesh, Polygons, Position, ReadError, ReadOptions,
    Severity, Surface,
};

use crate::derived;
use crate::layout::{AABB_UNKNOWN, HEADER_SIZE, NONE, RawBwm, TYPE_AREA, TYPE_OBJECT, Table, off};
use crate::profile;

/// Individual findings shown per code; the rest are counted in one closing finding.
const SHOWN_PER_CODE: usize = 20;
/// Tolerance for stored normals against the recomputed ones (genuine kit files reach 5e-4).
const NORMAL_TOLERANCE: f32 = 1e-3;
/// Tolerance for stored plane distances against −n·v0 with the stored normal, scaled by
/// the coordinates' magnitude (genuine files reach 3.2e-5).
const DISTANCE_TOLERANCE: f32 = 1e-4;
/// Tolerance for boxes containing faces and children (K1CP inner boxes deviate by 1.2e-4).
const BOX_TOLERANCE: f32 = 1e-3;

struct Findings {
    items: Vec<Diagnostic>,
    per_code: BTreeMap<&'static str, usize>,
}

impl Findings {
    fn new() -> Findings {
        Findings {
            items: Vec::new(),
            per_code: BTreeMap::new(),
        }
    }

    fn push(
        &mut self,
        severity: Severity,
        code: &'static str,
        offset: Option<usize>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) {
        let seen = self.per_code.entry(code).or_insert(0);
        *seen += 1;
        if *seen > SHOWN_PER_CODE {
            return;
        }
        let field: String = field.into();
        self.items.push(Diagnostic {
            severity,
            code: code.to_string(),
            message: message.into(),
            location: Location {
                file: None,
                position: offset.map_or(Position::None, |o| Position::Offset(o as u64)),
                field: (!field.is_empty()).then_some(field),
            },
        });
    }

    fn error(
        &mut self,
        code: &'static str,
        offset: Option<usize>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.push(Severity::Error, code, offset, field, message);
    }

    fn warn(
        &mut self,
        code: &'static str,
        offset: Option<usize>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.push(Severity::Warning, code, offset, field, message);
    }

    fn finish(mut self) -> Vec<Diagnostic> {
        for (code, count) in &self.per_code {
            if *count > SHOWN_PER_CODE {
                let severity = self
                    .items
                    .iter()
                    .find(|d| d.code == *code)
                    .map_or(Severity::Warning, |d| d.severity);
                self.items.push(Diagnostic {
                    severity,
                    code: (*code).to_string(),
                    message: format!(
                        "{} more finding(s) of this kind are not shown ({count} in all)",
                        count - SHOWN_PER_CODE
                    ),
                    location: Location::default(),
                });
            }
        }
        self.items
    }
}

/// Checks a BWM file. `Err` only when the header cannot be read (too short, wrong magic).
pub fn validate_bwm(input: Input<'_>, options: &ReadOptions) -> Result<Vec<Diagnostic>, ReadError> {
    findings_of(input, options).map(Findings::finish)
}

/// The errors our validator finds in a file the writer is about to copy unchanged (`bytes`,
/// the file a mesh was read from), each code counted in full, not only the findings listed.
pub fn stored_errors(bytes: &[u8]) -> walkmesh_core::stored::StoredErrors {
    use walkmesh_core::stored::StoredErrors;
    let input = Input { bytes, path: None };
    match findings_of(input, &ReadOptions::default()) {
        Ok(f) => StoredErrors::counted(&f.items, |code| f.per_code.get(code).copied()),
        // It was read from these very bytes; a header error means they cannot be copied either.
        Err(error) => StoredErrors::unreadable(&error),
    }
}

/// Every rule of [`validate_bwm`], the findings not yet closed (the counts per code kept).
fn findings_of(input: Input<'_>, options: &ReadOptions) -> Result<Findings, ReadError> {
    let mut f = Findings::new();
    let raw = match RawBwm::parse(input.bytes) {
        Ok(raw) => raw,
        Err(error) => {
            // A table outside the file is a finding; a file that is not BWM at all is an error.
            let header_level = matches!(error.position, Position::Offset(o) if o < 8)
                || input.bytes.len() < HEADER_SIZE;
            if header_level {
                return Err(error);
            }
            let offset = match error.position {
                Position::Offset(o) => usize::try_from(o).ok(),
                _ => None,
            };
            f.error(
                "bwm.table_out_of_bounds",
                offset,
                error.field.clone(),
                error.message,
            );
            return Ok(f);
        }
    };
    let header = &raw.header;
    let area = match header.walkmesh_type {
        TYPE_AREA => true,
        TYPE_OBJECT => false,
        other => {
            f.error(
                "bwm.unknown_type",
                Some(off::TYPE),
                "header.type",
                format!("walkmesh type {other} is neither 1 (area) nor 0 (placeable or door)"),
            );
            true
        }
    };
    layout_checks(&raw, &mut f);
    let faces_ok = face_checks(&raw, &mut f);
    material_checks(&raw, options, area, &mut f);
    normal_checks(&raw, faces_ok, &mut f);
    if area {
        if header.aabb_root != 0 {
            f.warn(
                "bwm.aabb_root_nonzero",
                Some(off::AABB_ROOT),
                "header.aabb_root",
                format!(
                    "the field at 0x6C is {}; every game file stores 0 (the root is node 0)",
                    header.aabb_root
                ),
            );
        }
        if faces_ok {
            let mesh = file_mesh(&raw);
            adjacency_checks(&raw, &mesh, options.recompute_derived, &mut f);
            edge_checks(&raw, &mesh, options.recompute_derived, &mut f);
        }
        aabb_checks(&raw, faces_ok, &mut f);
    } else {
        for table in Table::ALL.into_iter().filter(|t| t.area_only()) {
            let span = raw.span(table);
            let (count_at, offset_at) = table.header_fields();
            let (count_name, offset_name) = table.header_names();
            if span.count != 0 {
                f.error(
                    "bwm.object_has_area_tables",
                    Some(count_at),
                    count_name,
                    format!(
                        "a placeable/door walkmesh (type 0) has {} {} entries; the game reads that table only for areas",
                        span.count,
                        table.name()
                    ),
                );
            } else if span.offset != 0 {
                f.warn(
                    "bwm.object_area_offset_nonzero",
                    Some(offset_at),
                    offset_name,
                    format!(
                        "the empty {} table has offset {}; game files store 0 for type-0 walkmeshes",
                        table.name(),
                        span.offset
                    ),
                );
            }
        }
    }
    Ok(f)
}

/// Tables must not overlap the header or each other; extra bytes after the last are noted.
fn layout_checks(raw: &RawBwm<'_>, f: &mut Findings) {
    let mut spans: Vec<(usize, usize, Table)> = Table::ALL
        .into_iter()
        .filter(|&t| raw.header.walkmesh_type != TYPE_OBJECT || !t.area_only())
        .map(|t| (raw.span(t), t))
        .filter(|(s, _)| s.count > 0)
        .map(|(s, t)| (s.offset, s.offset + s.len(t), t))
        .collect();
    spans.sort_by_key(|&(start, end, _)| (start, end));
    for &(start, _, table) in &spans {
        if start < HEADER_SIZE {
            let (_, offset_at) = table.header_fields();
            f.error(
                "bwm.tables_overlap",
                Some(offset_at),
                table.header_names().1,
                format!(
                    "the {} table starts at byte {start}, inside the {HEADER_SIZE}-byte header",
                    table.name()
                ),
            );
        }
    }
    for pair in spans.windows(2) {
        if let [(_, end_a, a), (start_b, _, b)] = pair
            && start_b < end_a
        {
            f.error(
                "bwm.tables_overlap",
                Some(*start_b),
                b.header_names().1,
                format!("the {} table starts at byte {start_b}, inside the {} table (which ends at byte {end_a})", b.name(), a.name()),
            );
        }
    }
    let end = spans.iter().map(|s| s.1).max().unwrap_or(HEADER_SIZE);
    if raw.bytes.len() > end {
        f.warn(
            "bwm.trailing_bytes",
            Some(end),
            "",
            format!(
                "{} byte(s) follow the last table; game files end right after it",
                raw.bytes.len() - end
            ),
        );
    }
}

/// Face indices in range. Returns true when all are.
fn face_checks(raw: &RawBwm<'_>, f: &mut Findings) -> bool {
    let span = raw.span(Table::Faces);
    let vertex_count = raw.vertex_count();
    let mut ok = true;
    for i in 0..raw.face_count() {
        for (k, &v) in raw.face(i).iter().enumerate() {
            if v as usize >= vertex_count {
                ok = false;
                f.error(
                    "bwm.face_vertex_out_of_range",
                    Some(span.entry(Table::Faces, i) + 4 * k),
                    format!("faces[{i}].v{}", k + 1),
                    format!("face {i} refers to vertex {v}; there are {vertex_count} vertices"),
                );
            }
        }
    }
    ok
}

fn material_checks(raw: &RawBwm<'_>, options: &ReadOptions, area: bool, f: &mut Findings) {
    let profile = profile::choose(options.materials.as_ref());
    let span = raw.span(Table::Materials);
    let mut seen_unwalkable: Option<usize> = None;
    for i in 0..raw.face_count() {
        let code = raw.material(i);
        let walkable = match profile.surface_for_code(code) {
            Some(s) => s.walkable,
            None => {
                f.warn(
                    "bwm.unknown_material",
                    Some(span.entry(Table::Materials, i)),
                    format!("materials[{i}]"),
                    format!(
                        "face {i} has material code {code}, which the KotOR profile does not list"
                    ),
                );
                false
            }
        };
        if !area {
            continue;
        }
        if !walkable {
            seen_unwalkable.get_or_insert(i);
        } else if let Some(first) = seen_unwalkable {
            f.error(
                "bwm.walkable_not_first",
                Some(span.entry(Table::Materials, i)),
                format!("materials[{i}]"),
                format!("walkable face {i} (material {code}) comes after non-walkable face {first}; walkable faces must come first"),
            );
        }
    }
    if area {
        let walkable = (0..raw.face_count())
            .filter(|&i| {
                profile
                    .surface_for_code(raw.material(i))
                    .is_some_and(|s| s.walkable)
            })
            .count();
        let stored = raw.span(Table::Adjacency).count;
        if stored != walkable {
            f.error(
                "bwm.adjacency_count_mismatch",
                Some(off::ADJACENCY_COUNT),
                "header.adjacency_count",
                format!("the adjacency table has {stored} rows, but {walkable} faces are walkable; it needs one row per walkable face"),
            );
        }
    }
}

fn normal_checks(raw: &RawBwm<'_>, faces_ok: bool, f: &mut Findings) {
    if !faces_ok {
        return;
    }
    let normals = raw.span(Table::Normals);
    let distances = raw.span(Table::Distances);
    for i in 0..raw.face_count() {
        let [a, b, c] = raw.face(i).map(|v| raw.vertex(v as usize));
        let expected = walkmesh_core::passes::triangle_normal(a, b, c);
        let stored = raw.normal(i);
        if expected == [0.0; 3] {
            continue; // degenerate face: core's mesh checks report it
        }
        let error = (0..3)
            .map(|k| (stored[k] - expected[k]).abs())
            .fold(0.0f32, f32::max);
        if error.is_nan() || error > NORMAL_TOLERANCE {
            f.warn(
                "bwm.normal_mismatch",
                Some(normals.entry(Table::Normals, i)),
                format!("normals[{i}]"),
                format!("the normal of face {i} is {stored:?}; the geometry gives {expected:?}"),
            );
        }
        let d = walkmesh_core::passes::plane_distance(stored, a);
        let scale = a.iter().map(|v| v.abs()).fold(1.0f32, f32::max);
        let stored_d = raw.distance(i);
        let residual = (stored_d - d).abs();
        if residual.is_nan() || residual > DISTANCE_TOLERANCE * scale {
            f.warn(
                "bwm.plane_distance_mismatch",
                Some(distances.entry(Table::Distances, i)),
                format!("distances[{i}]"),
                format!("the plane distance of face {i} is {stored_d}; −n·v0 with the stored normal is {d}"),
            );
        }
    }
}

/// The file's faces with the file's own walkable block (the first adjacency-count faces).
fn file_mesh(raw: &RawBwm<'_>) -> NavMesh {
    let walkable = raw.span(Table::Adjacency).count;
    let face_count = raw.face_count();
    let mut polygons = Polygons::with_capacity(face_count, face_count * 3);
    let mut surfaces = Vec::with_capacity(face_count);
    for i in 0..face_count {
        polygons.push(&raw.face(i));
        let code = raw.material(i);
        surfaces.push(Surface {
            material: Material(u16::try_from(code).unwrap_or(u16::MAX)),
            walkable: i < walkable,
            code,
        });
    }
    NavMesh {
        vertices: (0..raw.vertex_count()).map(|i| raw.vertex(i)).collect(),
        polygons,
        surfaces,
        ..NavMesh::default()
    }
}

/// Ranges and reciprocity always; with `recompute` also equality with the adjacency the
/// faces' vertex indices give (see `ReadOptions::recompute_derived`).
fn adjacency_checks(raw: &RawBwm<'_>, mesh: &NavMesh, recompute: bool, f: &mut Findings) {
    let span = raw.span(Table::Adjacency);
    let rows = span.count.min(raw.face_count());
    let implied = if recompute {
        derived::adjacency_rows(&derived::walkable_adjacency(mesh, rows), rows)
    } else {
        Vec::new()
    };
    for i in 0..span.count {
        let row = raw.adjacency(i);
        for (e, &value) in row.iter().enumerate() {
            let at = Some(span.entry(Table::Adjacency, i) + 4 * e);
            let field = || format!("adjacency[{i}].edge{e}");
            if value == -1 {
            } else if value < 0 || (value / 3) as usize >= raw.face_count() {
                f.error("bwm.adjacency_out_of_range", at, field(), format!("face {i} edge {e} links to {value}, which is not 3·face+edge of any of the {} faces", raw.face_count()));
                continue;
            } else if (value / 3) as usize >= span.count {
                f.error("bwm.adjacency_target_not_walkable", at, field(), format!("face {i} edge {e} links to face {}, outside the walkable block of {} faces", value / 3, span.count));
                continue;
            } else {
                let (g, e2) = ((value / 3) as usize, (value % 3) as usize);
                let back = raw.adjacency(g).get(e2).copied().unwrap_or(-1);
                if back != (3 * i + e) as i32 {
                    f.error("bwm.adjacency_not_reciprocal", at, field(), format!("face {i} edge {e} links to face {g} edge {e2}, which links to {back} instead of {}", 3 * i + e));
                }
            }
            if let Some(expected) = implied.get(i).and_then(|r| r.get(e))
                && *expected != value
            {
                f.error("bwm.adjacency_mismatch", at, field(), format!("face {i} edge {e} stores {value}; the faces sharing its vertex indices give {expected}"));
            }
        }
    }
}

fn edge_ends(raw: &RawBwm<'_>, index: u32) -> (u32, u32) {
    let face = raw.face((index / 3) as usize);
    let e = (index % 3) as usize;
    (
        face.get(e).copied().unwrap_or(0),
        face.get((e + 1) % 3).copied().unwrap_or(0),
    )
}

/// Edge and perimeter tables. With `recompute` (see `ReadOptions::recompute_derived`) a
/// boundary edge is one the faces' vertex indices leave unlinked and the table order is
/// compared with the boundary walk; without, the file's own adjacency table says which
/// edges are boundary and the order is taken to be the walk (our writer writes the walk).
fn edge_checks(raw: &RawBwm<'_>, mesh: &NavMesh, recompute: bool, f: &mut Findings) {
    let walkable = raw.span(Table::Adjacency).count.min(raw.face_count());
    let adjacency = if recompute {
        Some(derived::walkable_adjacency(mesh, walkable))
    } else {
        None
    };
    let is_boundary = |h: usize| match &adjacency {
        Some(adjacency) => adjacency.is_boundary(h),
        None => raw.adjacency(h / 3).get(h % 3).is_some_and(|&v| v == -1),
    };
    let edges = raw.span(Table::Edges);
    let perimeters = raw.span(Table::Perimeters);
    let mut listed = vec![0u8; walkable * 3];
    let mut stored_edges = Vec::with_capacity(edges.count);
    for i in 0..edges.count {
        let (index, _) = raw.edge(i);
        stored_edges.push(index);
        let at = Some(edges.entry(Table::Edges, i));
        match listed.get_mut(index as usize) {
            None => f.error(
                "bwm.edge_out_of_range",
                at,
                format!("edges[{i}].index"),
                format!(
                    "edge {i} names face {} edge {}, outside the {walkable} walkable faces",
                    index / 3,
                    index % 3
                ),
            ),
            Some(seen) => {
                *seen = seen.saturating_add(1);
                if *seen == 2 {
                    f.error(
                        "bwm.edge_duplicate",
                        at,
                        format!("edges[{i}].index"),
                        format!("face {} edge {} is listed twice", index / 3, index % 3),
                    );
                }
                if !is_boundary(index as usize) {
                    f.error("bwm.edge_not_boundary", at, format!("edges[{i}].index"), format!("face {} edge {} has a walkable neighbour; only boundary edges belong in the table", index / 3, index % 3));
                }
            }
        }
    }
    for (h, &seen) in listed.iter().enumerate() {
        if seen == 0 && is_boundary(h) {
            f.error(
                "bwm.edge_missing",
                Some(edges.offset),
                "edges",
                format!(
                    "boundary edge {} of walkable face {} is not in the edge table",
                    h % 3,
                    h / 3
                ),
            );
        }
    }

    // Perimeters: cumulative loop ends, last = edge count, every loop closed.
    if edges.count > 0 && perimeters.count == 0 {
        f.error(
            "bwm.perimeters_missing",
            Some(off::PERIMETER_COUNT),
            "header.perimeter_count",
            format!(
                "the file has {} boundary edges but no perimeter loops",
                edges.count
            ),
        );
    }
    // The order game files use is the boundary walk; another order loads, but say so. A
    // table equal to the walk is what the game's own rule gives for this geometry: a loop
    // that still does not close then comes from a non-manifold walkable region (reported
    // by the mesh checks), not from the table.
    let stored_perimeters: Vec<u32> = (0..perimeters.count).map(|i| raw.perimeter(i)).collect();
    let is_walk = adjacency.as_ref().is_none_or(|adjacency| {
        let (walk_edges, walk_perimeters) = derived::edges_and_perimeters(mesh, adjacency, |_| -1);
        walk_edges
            .iter()
            .map(|e| e.0)
            .eq(stored_edges.iter().copied())
            && walk_perimeters == stored_perimeters
    });
    let mut previous = 0u32;
    for (i, &end) in stored_perimeters.iter().enumerate() {
        let at = Some(perimeters.entry(Table::Perimeters, i));
        if end <= previous || end as usize > edges.count {
            f.error(
                "bwm.perimeter_not_increasing",
                at,
                format!("perimeters[{i}]"),
                format!(
                    "loop {i} ends at {end}; ends must increase and stay within the {} edges",
                    edges.count
                ),
            );
        } else {
            let loop_edges = stored_edges
                .get(previous as usize..end as usize)
                .unwrap_or(&[]);
            let closed = loop_edges.iter().enumerate().all(|(k, &e)| {
                let next = loop_edges
                    .get((k + 1) % loop_edges.len())
                    .copied()
                    .unwrap_or(e);
                edge_ends(raw, e).1 == edge_ends(raw, next).0
            });
            if !closed {
                let message =
                    format!("the edges of loop {i} ({previous}..{end}) do not form a closed chain");
                if is_walk {
                    f.warn("bwm.perimeter_loop_open", at, format!("perimeters[{i}]"), format!("{message}; the walkable region is not manifold there, so no order closes it"));
                } else {
                    f.error(
                        "bwm.perimeter_loop_open",
                        at,
                        format!("perimeters[{i}]"),
                        message,
                    );
                }
            }
            previous = end;
        }
    }
    if perimeters.count > 0 && previous as usize != edges.count {
        f.error(
            "bwm.perimeter_last_mismatch",
            Some(perimeters.entry(Table::Perimeters, perimeters.count - 1)),
            format!("perimeters[{}]", perimeters.count - 1),
            format!(
                "the last loop ends at {previous}, not at the edge count {}",
                edges.count
            ),
        );
    }
    if perimeters.count > 0 && !is_walk {
        f.warn(
            "bwm.boundary_order_differs",
            Some(edges.offset),
            "edges",
            "the edges and loops are not in the order of the boundary walk that game files use",
        );
    }
}

fn contains(outer_min: [f32; 3], outer_max: [f32; 3], p: [f32; 3]) -> bool {
    (0..3).all(|k| p[k] >= outer_min[k] - BOX_TOLERANCE && p[k] <= outer_max[k] + BOX_TOLERANCE)
}

fn aabb_checks(raw: &RawBwm<'_>, faces_ok: bool, f: &mut Findings) {
    let span = raw.span(Table::Aabb);
    let face_count = raw.face_count();
    let expected = (2 * face_count).saturating_sub(1);
    if span.count != expected {
        f.error(
            "bwm.aabb_count",
            Some(off::AABB_COUNT),
            "header.aabb_count",
            format!(
                "the AABB tree has {} nodes; {face_count} faces need 2F−1 = {expected}",
                span.count
            ),
        );
    }
    if span.count == 0 {
        return;
    }
    let mut visited = vec![false; span.count];
    let mut leaves_of_face = vec![0u32; face_count];
    let mut stack = vec![0usize];
    let mut preorder_index = 0usize;
    let mut preorder_ok = true;
    while let Some(i) = stack.pop() {
        let at = span.entry(Table::Aabb, i);
        let field = |name: &str| format!("aabb[{i}].{name}");
        if visited.get(i).copied().unwrap_or(true) {
            f.error(
                "bwm.aabb_cycle",
                Some(at),
                field("child"),
                format!("node {i} is reached twice; the tree has a cycle or a shared subtree"),
            );
            continue;
        }
        if let Some(v) = visited.get_mut(i) {
            *v = true;
        }
        if i != preorder_index && preorder_ok {
            preorder_ok = false;
            f.error("bwm.aabb_not_preorder", Some(at), field("index"), format!("node {i} is visited as the {preorder_index}th node; nodes must be stored in pre-order"));
        }
        preorder_index += 1;
        let node = raw.aabb(i);
        if node.unknown != AABB_UNKNOWN {
            f.warn(
                "bwm.aabb_unknown_field",
                Some(at + 0x1C),
                field("unknown"),
                format!(
                    "node {i} stores {} at 0x1C; every game file stores 4",
                    node.unknown
                ),
            );
        }
        if (0..3).any(|k| {
            node.min[k]
                .partial_cmp(&node.max[k])
                .is_none_or(|o| o.is_gt())
        }) {
            f.error(
                "bwm.aabb_inverted_box",
                Some(at),
                field("min"),
                format!(
                    "node {i}'s box has min {:?} above max {:?}",
                    node.min, node.max
                ),
            );
        }
        if node.face >= 0 {
            let face = node.face as usize;
            if node.first != NONE || node.second != NONE {
                f.error(
                    "bwm.aabb_leaf_children",
                    Some(at + 0x24),
                    field("first"),
                    format!(
                        "leaf {i} has children {} and {}; leaves store 0xFFFFFFFF",
                        node.first, node.second
                    ),
                );
            }
            if node.plane != 0 {
                f.warn(
                    "bwm.aabb_plane_value",
                    Some(at + 0x20),
                    field("plane"),
                    format!("leaf {i} has plane {}; leaves store 0", node.plane),
                );
            }
            match leaves_of_face.get_mut(face) {
                None => f.error(
                    "bwm.aabb_face_out_of_range",
                    Some(at + 0x18),
                    field("face"),
                    format!("leaf {i} names face {face}; there are {face_count} faces"),
                ),
                Some(count) => {
                    *count += 1;
                    if faces_ok {
                        let missing = raw
                            .face(face)
                            .iter()
                            .any(|&v| !contains(node.min, node.max, raw.vertex(v as usize)));
                        if missing {
                            f.error(
                                "bwm.aabb_box_misses_face",
                                Some(at),
                                field("min"),
                                format!(
                                    "leaf {i}'s box {:?}–{:?} does not contain face {face}",
                                    node.min, node.max
                                ),
                            );
                        }
                    }
                }
            }
            continue;
        }
        if node.face != -1 {
            f.error(
                "bwm.aabb_face_out_of_range",
                Some(at + 0x18),
                field("face"),
                format!("node {i} has face {}; inner nodes store −1", node.face),
            );
        }
        if ![1, 2, 4, 8, 16, 32].contains(&node.plane) {
            f.warn("bwm.aabb_plane_value", Some(at + 0x20), field("plane"), format!("inner node {i} has plane {}; game files use the flags 1, 2, 4 (+X, +Y, +Z) and 8, 16, 32 (−X, −Y, −Z)", node.plane));
        }
        // At most two children; an array, not a `Vec` (a million inner nodes in big files).
        let mut children = [None; 2];
        for ((slot, child), valid) in [(0x24, node.first), (0x28, node.second)]
            .into_iter()
            .zip(children.iter_mut())
        {
            let name = if slot == 0x24 { "first" } else { "second" };
            if child as usize >= span.count {
                f.error(
                    "bwm.aabb_child_out_of_range",
                    Some(at + slot),
                    field(name),
                    format!(
                        "node {i}'s {name} child is {child}; there are {} nodes",
                        span.count
                    ),
                );
                continue;
            }
            let c = raw.aabb(child as usize);
            if !contains(node.min, node.max, c.min) || !contains(node.min, node.max, c.max) {
                f.error(
                    "bwm.aabb_box_misses_child",
                    Some(at),
                    field("min"),
                    format!("node {i}'s box does not contain its {name} child {child}"),
                );
            }
            *valid = Some(child as usize);
        }
        // Second pushed first so the first child is visited next (pre-order).
        stack.extend(children.into_iter().rev().flatten());
    }
    let unreachable = visited.iter().filter(|v| !**v).count();
    if unreachable > 0 {
        f.error(
            "bwm.aabb_unreachable_node",
            Some(span.offset),
            "aabb",
            format!("{unreachable} node(s) cannot be reached from the root (node 0)"),
        );
    }
    for (face, &count) in leaves_of_face.iter().enumerate() {
        if count == 0 {
            f.error(
                "bwm.aabb_face_missing",
                Some(span.offset),
                "aabb",
                format!("face {face} is in no leaf of the AABB tree"),
            );
        } else if count > 1 {
            f.error(
                "bwm.aabb_face_in_several_leaves",
                Some(span.offset),
                "aabb",
                format!("face {face} is in {count} leaves of the AABB tree"),
            );
        }
    }
}
