//! OBJ reader. Statement grammar with nom; material names kept from `usemtl` whether or not
//! the `.mtl` file exists (tobj drops them in that case, see docs/architecture.md).

use std::collections::BTreeMap;

use walkmesh_core::{
    Attribute, Diagnostics, EdgeRef, EdgeTag, Extra, Hook, Input, MeshKind, NavMesh, Position,
    Provenance, ReadError, ReadOptions, Severity, Surface, UpAxis, VertexIdentity,
    material::{DefaultRule, MaterialProfile},
    validate::steep_walkable_share,
};

use walkmesh_core::passes::triangulate::MAX_POLYGON_CORNERS;

use crate::DIRECTIVE;
use crate::parallel;
use crate::tokens::{corner, float_token, to_ir};

/// Resolves a 1-based or negative OBJ index against `count` elements defined so far.
fn resolve(index: i64, count: usize) -> Option<usize> {
    if index > 0 {
        let zero_based = usize::try_from(index - 1).ok()?;
        (zero_based < count).then_some(zero_based)
    } else if index < 0 {
        let back = usize::try_from(index.checked_neg()?).ok()?;
        count.checked_sub(back)
    } else {
        None
    }
}

/// Named groups as they appear: list of names and one index per polygon. The per-polygon
/// column starts with the first group statement (earlier polygons get −1), so files without
/// groups pay nothing per face.
#[derive(Default)]
struct Groups {
    names: Vec<String>,
    lookup: BTreeMap<String, i64>,
    per_polygon: Vec<i64>,
    current: Option<i64>,
}

impl Groups {
    fn select(&mut self, name: String, polygons_so_far: usize) {
        if self.current.is_none() {
            self.per_polygon.resize(polygons_so_far, -1);
        }
        let next = self.names.len() as i64;
        let index = *self.lookup.entry(name.clone()).or_insert_with(|| {
            self.names.push(name);
            next
        });
        self.current = Some(index);
    }

    fn push_polygon(&mut self) {
        if let Some(current) = self.current {
            self.per_polygon.push(current);
        }
    }

    /// From here on polygons belong to no name (−1), once any name was selected.
    fn deselect(&mut self) {
        if self.current.is_some() {
            self.current = Some(-1);
        }
    }

    fn store(self, mesh: &mut NavMesh, list_key: &str, column_key: &str) {
        if self.names.is_empty() {
            return;
        }
        mesh.extras
            .insert(list_key.to_string(), Extra::TextList(self.names));
        mesh.face_attributes
            .insert(column_key.to_string(), Attribute::Int(self.per_polygon));
    }
}

/// The material faces get from the last `usemtl`.
#[derive(Clone, Copy)]
enum CurrentMaterial {
    /// No `usemtl` yet.
    Missing,
    Known(Surface),
    /// A name the profile does not know: index into `unknown_materials`.
    Unknown(u32),
}

struct ObjParser<'a> {
    options: &'a ReadOptions,
    profile: MaterialProfile,
    default_rule: DefaultRule,
    mesh: NavMesh,
    texture_count: usize,
    normal_count: usize,
    current_material: CurrentMaterial,
    /// Faces whose material is missing (key 0) or unknown (key `1 + index` into
    /// `unknown_materials`): `(polygon, key)`, given surfaces by `default_rule` at the end.
    defaulted: Vec<(u32, u32)>,
    /// True once a `#@walkmesh` directive was seen: the file was written by this project,
    /// whose vertex sharing is authored.
    has_directives: bool,
    objects: Groups,
    groups: Groups,
    /// Every face's `usemtl` name, when [`crate::MATERIAL_NAMES_PARAM`] asks for them.
    material_names: Option<Groups>,
    /// Unknown `usemtl` names in order of first use, with the lines using them.
    unknown_materials: Vec<(String, Vec<u64>)>,
    unknown_lookup: BTreeMap<String, u32>,
    unsupported: BTreeMap<String, (u64, usize)>,
    material_libraries: Vec<String>,
    /// Edge directives, resolved after all faces are known: (line, face, edge, transition).
    edge_directives: Vec<(u64, u64, u64, i32)>,
    /// Reused buffer for a face's indices.
    scratch: Vec<u32>,
}

fn err(line: u64, field: &str, message: impl Into<String>) -> ReadError {
    ReadError::at_line(line, field, message)
}

/// Coordinates must be finite 32-bit floats: NaN, infinities and numbers beyond the `f32`
/// range (which parse as infinite) are refused here rather than written on.
fn finite(line: u64, field: &str, token: &str, value: f32) -> Result<(), ReadError> {
    if value.is_finite() {
        return Ok(());
    }
    let why = if value.is_nan() || token.to_ascii_lowercase().contains("inf") {
        "a coordinate must be a finite number"
    } else {
        "the number is beyond the range of 32-bit floats (about ±3.4e38)"
    };
    Err(err(line, field, format!("'{token}': {why}")))
}

impl<'a> ObjParser<'a> {
    fn new(options: &'a ReadOptions, diag: &mut Diagnostics) -> ObjParser<'a> {
        let profile = options
            .materials
            .as_deref()
            .cloned()
            .unwrap_or_else(MaterialProfile::neutral);
        let explicit = options.default_material.as_ref().and_then(|name| {
            let found = profile.surface_for_name(name);
            if found.is_none() {
                diag.warn(
                    "obj.unknown_default_material",
                    format!(
                        "default material '{name}' is not in the material profile; using '{}'",
                        profile.default_material
                    ),
                );
            }
            found
        });
        let default_rule = DefaultRule::new(&profile, explicit);
        let material_names = options
            .params
            .contains_key(crate::MATERIAL_NAMES_PARAM)
            .then(Groups::default);
        ObjParser {
            options,
            profile,
            default_rule,
            mesh: NavMesh::default(),
            texture_count: 0,
            normal_count: 0,
            current_material: CurrentMaterial::Missing,
            defaulted: Vec::new(),
            has_directives: false,
            objects: Groups::default(),
            groups: Groups::default(),
            material_names,
            unknown_materials: Vec::new(),
            unknown_lookup: BTreeMap::new(),
            unsupported: BTreeMap::new(),
            material_libraries: Vec::new(),
            edge_directives: Vec::new(),
            scratch: Vec::new(),
        }
    }

    fn floats(
        &self,
        line: u64,
        field: &str,
        tokens: &[&str],
        min: usize,
    ) -> Result<Vec<f32>, ReadError> {
        if tokens.len() < min {
            return Err(err(
                line,
                field,
                format!("expected at least {min} numbers, found {}", tokens.len()),
            ));
        }
        tokens
            .iter()
            .map(|t| {
                float_token(t).ok_or_else(|| err(line, field, format!("'{t}' is not a number")))
            })
            .collect()
    }

    fn point(&self, line: u64, field: &str, tokens: &[&str]) -> Result<[f32; 3], ReadError> {
        let values = self.floats(line, field, tokens, 3)?;
        for (value, token) in values.iter().zip(tokens) {
            finite(line, field, token, *value)?;
        }
        match values[..] {
            [x, y, z, ..] => Ok(to_ir(self.options.up, [x, y, z])),
            _ => Err(err(line, field, "expected three numbers")),
        }
    }

    fn statement(&mut self, line: u64, text: &str) -> Result<(), ReadError> {
        let mut tokens = text.split_ascii_whitespace();
        let Some(keyword) = tokens.next() else {
            return Ok(());
        };
        // The two statements that make up almost every line are parsed without collecting.
        match keyword {
            "v" => {
                let mut xyz = [0f32; 3];
                for (slot, name) in xyz.iter_mut().zip(["x", "y", "z"]) {
                    let token = tokens.next().ok_or_else(|| {
                        err(
                            line,
                            "v",
                            format!("expected at least 3 numbers, {name} is missing"),
                        )
                    })?;
                    *slot = float_token(token)
                        .ok_or_else(|| err(line, "v", format!("'{token}' is not a number")))?;
                    finite(line, &format!("v.{name}"), token, *slot)?;
                }
                self.mesh.vertices.push(to_ir(self.options.up, xyz));
                return Ok(());
            }
            "f" => return self.face(line, tokens),
            _ => {}
        }
        let rest: Vec<&str> = tokens.collect();
        match keyword {
            "vt" => {
                self.floats(line, "vt", &rest, 1)?;
                self.texture_count += 1;
            }
            "vn" => {
                self.floats(line, "vn", &rest, 3)?;
                self.normal_count += 1;
            }
            "o" => {
                self.objects
                    .select(rest.join(" "), self.mesh.polygons.len());
                // Modelling tools write materials per object and omit `usemtl` for an object
                // without one (Blender does), so there a new object starts without material.
                // Files this project wrote (with directives) use `o` only as a label.
                if !self.has_directives {
                    self.current_material = CurrentMaterial::Missing;
                    if let Some(names) = &mut self.material_names {
                        names.deselect();
                    }
                }
            }
            "g" => self.groups.select(rest.join(" "), self.mesh.polygons.len()),
            "usemtl" => {
                let name = rest.join(" ");
                if name.is_empty() {
                    return Err(err(line, "usemtl", "usemtl names no material"));
                }
                if let Some(names) = &mut self.material_names {
                    names.select(name.clone(), self.mesh.polygons.len());
                }
                self.current_material = match self.profile.surface_for_tool_name(&name) {
                    Some(surface) => CurrentMaterial::Known(surface),
                    None => {
                        let next = self.unknown_materials.len() as u32;
                        let index = *self.unknown_lookup.entry(name.clone()).or_insert(next);
                        if index == next {
                            self.unknown_materials.push((name, Vec::new()));
                        }
                        if let Some((_, lines)) = self.unknown_materials.get_mut(index as usize) {
                            lines.push(line);
                        }
                        CurrentMaterial::Unknown(index)
                    }
                };
            }
            "mtllib" => self.material_libraries.push(rest.join(" ")),
            // Smoothing groups, texture maps and similar carry nothing a walkmesh keeps.
            "s" | "vp" | "maplib" | "usemap" | "lod" | "shadow_obj" | "trace_obj" | "bevel"
            | "c_interp" | "d_interp" => {}
            other => {
                let entry = self
                    .unsupported
                    .entry(other.chars().take(32).collect())
                    .or_insert((line, 0));
                entry.1 += 1;
            }
        }
        Ok(())
    }

    fn face<'t>(
        &mut self,
        line: u64,
        corners: impl Iterator<Item = &'t str>,
    ) -> Result<(), ReadError> {
        let vertex_count = self.mesh.vertices.len();
        let mut indices = std::mem::take(&mut self.scratch);
        indices.clear();
        for (position, token) in corners.enumerate() {
            let field = || format!("f[{position}]");
            let (vertex, texture, normal) = match corner(token) {
                Ok(("", parsed)) => parsed,
                _ => {
                    return Err(err(
                        line,
                        &field(),
                        format!("'{token}' is not a face corner (v, v/vt, v//vn or v/vt/vn)"),
                    ));
                }
            };
            let resolved = resolve(vertex, vertex_count).ok_or_else(|| {
                err(
                    line,
                    &field(),
                    format!("vertex {vertex} does not exist ({vertex_count} defined so far)"),
                )
            })?;
            if let Some(t) = texture {
                resolve(t, self.texture_count).ok_or_else(|| {
                    err(
                        line,
                        &field(),
                        format!(
                            "texture coordinate {t} does not exist ({} defined so far)",
                            self.texture_count
                        ),
                    )
                })?;
            }
            if let Some(n) = normal {
                resolve(n, self.normal_count).ok_or_else(|| {
                    err(
                        line,
                        &field(),
                        format!(
                            "normal {n} does not exist ({} defined so far)",
                            self.normal_count
                        ),
                    )
                })?;
            }
            if indices.len() >= MAX_POLYGON_CORNERS {
                return Err(err(
                    line,
                    &field(),
                    format!("a face may have at most {MAX_POLYGON_CORNERS} corners"),
                ));
            }
            indices.push(resolved as u32);
        }
        if indices.len() < 3 {
            return Err(err(
                line,
                "f",
                format!(
                    "a face needs at least 3 vertices, this one has {}",
                    indices.len()
                ),
            ));
        }
        self.add_face(indices);
        Ok(())
    }

    /// Adds a face of resolved vertex indices with the current material and groups (the
    /// buffer becomes the next face's scratch).
    fn add_face(&mut self, indices: Vec<u32>) {
        let surface = match self.current_material {
            CurrentMaterial::Known(surface) => surface,
            CurrentMaterial::Missing => {
                self.defaulted.push((self.mesh.polygons.len() as u32, 0));
                self.default_rule.floor
            }
            CurrentMaterial::Unknown(index) => {
                self.defaulted
                    .push((self.mesh.polygons.len() as u32, index + 1));
                self.default_rule.floor
            }
        };
        self.mesh.push_polygon(&indices, surface);
        self.scratch = indices;
        self.objects.push_polygon();
        self.groups.push_polygon();
        if let Some(names) = &mut self.material_names {
            names.push_polygon();
        }
    }

    /// Applies one pre-parsed chunk (see `parallel.rs`) whose first line is `first_line`.
    /// A record that does not resolve goes through [`ObjParser::line`] with its text, so
    /// that the error is the serial reader's.
    fn apply_chunk(
        &mut self,
        chunk: &parallel::Chunk<'_>,
        first_line: u64,
    ) -> Result<(), ReadError> {
        let (mut vertices, mut corners, mut needs, mut texts) = (
            chunk.vertices.iter(),
            chunk.corners.iter(),
            chunk.needs.iter(),
            chunk.texts.iter(),
        );
        // The text of line `i` of the chunk, found again only on the error path.
        let text_of = |i: usize| parallel::lines(chunk.text).nth(i).unwrap_or("");
        for (i, &kind) in chunk.kinds.iter().enumerate() {
            let line = first_line + i as u64;
            match kind {
                parallel::SKIP => {}
                parallel::VERTEX => {
                    if let Some(&v) = vertices.next() {
                        self.mesh.vertices.push(v);
                    }
                }
                parallel::TEXTURE => self.texture_count += 1,
                parallel::NORMAL => self.normal_count += 1,
                parallel::TEXT => {
                    let text = texts.next().copied().unwrap_or("");
                    self.line(line, text)?;
                }
                count => {
                    let count = usize::from(count);
                    let (need_texture, need_normal) = needs.next().copied().unwrap_or((0, 0));
                    let vertex_count = self.mesh.vertices.len();
                    let mut indices = std::mem::take(&mut self.scratch);
                    indices.clear();
                    for &v in corners.by_ref().take(count) {
                        if let Some(resolved) = resolve(i64::from(v), vertex_count) {
                            indices.push(resolved as u32);
                        }
                    }
                    let resolved = indices.len() == count
                        && need_texture as usize <= self.texture_count
                        && need_normal as usize <= self.normal_count;
                    if resolved {
                        self.add_face(indices);
                    } else {
                        self.scratch = indices;
                        self.line(line, text_of(i))?;
                    }
                }
            }
        }
        Ok(())
    }

    /// `#@walkmesh kind door`, `origin x y z`, `hook NAME x y z`, `walkable yes|no`,
    /// `edge FACE EDGE transition T`.
    fn directive(&mut self, line: u64, text: &str) -> Result<(), ReadError> {
        self.has_directives = true;
        let tokens: Vec<&str> = text.split_ascii_whitespace().collect();
        match tokens.as_slice() {
            ["kind", kind] => {
                self.mesh.kind = MeshKind::parse(kind).ok_or_else(|| {
                    err(
                        line,
                        "#@walkmesh kind",
                        format!("unknown mesh kind '{kind}' (area, placeable, door, terrain)"),
                    )
                })?;
            }
            ["origin", rest @ ..] => {
                self.mesh.origin = self.point(line, "#@walkmesh origin", rest)?
            }
            ["hook", name, rest @ ..] => {
                let position = self.point(line, "#@walkmesh hook", rest)?;
                self.mesh.hooks.push(Hook {
                    name: (*name).to_string(),
                    position,
                });
            }
            // Walkability of the faces of the current `usemtl` when it differs from what
            // the profile gives the name (an NWN2 unwalkable triangle with a footstep).
            ["walkable", value @ ("yes" | "no")] => {
                let walkable = *value == "yes";
                let mut surface = match self.current_material {
                    CurrentMaterial::Known(surface) => surface,
                    CurrentMaterial::Missing | CurrentMaterial::Unknown(_) => {
                        self.default_rule.floor
                    }
                };
                surface.walkable = walkable;
                self.current_material = CurrentMaterial::Known(surface);
            }
            ["edge", face, edge, "transition", value] => {
                let number = |t: &str| t.parse::<u64>().ok();
                match (number(face), number(edge), value.parse::<i32>().ok()) {
                    (Some(face), Some(edge), Some(value)) if face > 0 => {
                        self.edge_directives.push((line, face, edge, value));
                    }
                    _ => {
                        return Err(err(
                            line,
                            "#@walkmesh edge",
                            "expected `edge FACE EDGE transition VALUE` with a 1-based face number",
                        ));
                    }
                }
            }
            _ => {
                return Err(err(
                    line,
                    DIRECTIVE,
                    format!("unknown walkmesh directive '{}'", text.trim()),
                ));
            }
        }
        Ok(())
    }

    /// One logical line: a comment, a directive or a statement.
    fn line(&mut self, line: u64, text: &str) -> Result<(), ReadError> {
        let trimmed = text.trim_start();
        if let Some(comment) = trimmed.strip_prefix('#') {
            if let Some(directive) = comment.strip_prefix(&DIRECTIVE[1..])
                && directive.starts_with(char::is_whitespace)
            {
                self.directive(line, directive)?;
            }
            return Ok(());
        }
        // A comment may also follow a statement.
        let body = match trimmed.find('#') {
            Some(at) => trimmed.get(..at).unwrap_or(""),
            None => trimmed,
        };
        self.statement(line, body)
    }

    fn finish(mut self, diag: &mut Diagnostics) -> Result<NavMesh, ReadError> {
        self.mesh.vertices.shrink_to_fit();
        self.mesh.polygons.shrink_to_fit();
        self.mesh.surfaces.shrink_to_fit();
        for (line, face, edge, transition) in std::mem::take(&mut self.edge_directives) {
            let polygon = face - 1;
            let len = self.mesh.polygons.get(polygon as usize).len() as u64;
            if edge >= len {
                return Err(err(
                    line,
                    "#@walkmesh edge",
                    format!("face {face} has no edge {edge} (it has {len} edges)"),
                ));
            }
            self.mesh.edge_tags.insert(
                EdgeRef {
                    polygon: polygon as u32,
                    edge: edge as u32,
                },
                EdgeTag { transition },
            );
        }
        // Faces without a known material: by slope, so that unnamed walls stay unwalkable.
        let mut by_key: Vec<Vec<usize>> = vec![Vec::new(); self.unknown_materials.len() + 1];
        for &(polygon, key) in &self.defaulted {
            if let Some(list) = by_key.get_mut(key as usize) {
                list.push(polygon as usize);
            }
        }
        let rule = self.default_rule;
        for (key, polygons) in by_key.into_iter().enumerate() {
            if polygons.is_empty() {
                continue;
            }
            let first_line = self
                .unknown_materials
                .get(key.wrapping_sub(1))
                .and_then(|(_, lines)| lines.first().copied());
            let tally =
                walkmesh_core::passes::assign_default_surfaces(&mut self.mesh, &rule, polygons);
            let outcome = rule.describe(&tally);
            match key.checked_sub(1).and_then(|k| self.unknown_materials.get(k)) {
                Some((name, lines)) => {
                    let shown: Vec<String> = lines.iter().take(5).map(u64::to_string).collect();
                    diag.push(
                        Severity::Warning,
                        "obj.unknown_material",
                        Position::Line(first_line.unwrap_or(0)),
                        Some("usemtl"),
                        format!(
                            "material '{name}' (line{} {}{}) is not in the '{}' material profile: {outcome}; name it after a surface material or set --default-material",
                            if lines.len() > 1 { "s" } else { "" },
                            shown.join(", "),
                            if lines.len() > 5 { ", …" } else { "" },
                            self.profile.engine,
                        ),
                    );
                }
                None => diag.warn(
                    "obj.no_material",
                    format!(
                        "faces without a usemtl: {outcome}; give them a material or set --default-material"
                    ),
                ),
            }
        }
        for (keyword, (line, count)) in &self.unsupported {
            diag.push(
                Severity::Warning,
                "obj.unsupported_statement",
                Position::Line(*line),
                Some(keyword),
                format!("{count} '{keyword}' statement(s) ignored: walkmeshes keep only faces"),
            );
        }
        if !self.material_libraries.is_empty() {
            self.mesh.extras.insert(
                "obj:mtllib".to_string(),
                Extra::TextList(self.material_libraries),
            );
        }
        self.objects
            .store(&mut self.mesh, "obj:objects", "obj:object");
        self.groups.store(&mut self.mesh, "obj:groups", "obj:group");
        if let Some(names) = self.material_names {
            names.store(&mut self.mesh, "obj:materials", "obj:material");
        }
        let (steep, walkable) = steep_walkable_share(&self.mesh);
        if walkable > 0.0 && steep > walkable / 2.0 {
            let other = match self.options.up {
                UpAxis::Y => "z",
                UpAxis::Z => "y",
            };
            diag.warn(
                "obj.walkable_mostly_vertical",
                format!(
                    "{:.0}% of the walkable area is steeper than {}° with {} up: the file's up axis is probably the other one; try --up {other}",
                    100.0 * steep / walkable,
                    walkmesh_core::passes::STEEP_DEGREES,
                    match self.options.up {
                        UpAxis::Y => "Y",
                        UpAxis::Z => "Z",
                    },
                ),
            );
        }
        self.mesh
            .check()
            .map_err(|error| ReadError::whole("", error.to_string()))?;
        // A file without walkmesh directives comes from a modelling tool, which duplicates
        // vertices where objects and materials meet; ours carry `#@walkmesh kind` at least.
        self.mesh.provenance = Some(Provenance {
            format: "obj".into(),
            fingerprint: self.mesh.fingerprint(),
            vertex_identity: if self.has_directives {
                VertexIdentity::Authored
            } else {
                VertexIdentity::Incidental
            },
            ..Provenance::default()
        });
        Ok(self.mesh)
    }
}

/// Reserves the mesh's tables for `bytes` of OBJ text.
fn reserve(parser: &mut ObjParser<'_>, bytes: &[u8]) {
    // Reserve once instead of growing by doubling: no reallocation copies, and pages are
    // touched only as they are filled; the unused tail is returned at the end. The estimate is
    // the line count (a vectorised byte count, a few ms for a 1M-face file), capped by what the
    // bytes can hold (a `v` or `f` statement takes at least 8 bytes, a corner 2), so a file of
    // empty lines cannot make us reserve more than a few bytes per input byte. A reservation
    // that fails is simply skipped.
    let size = bytes.len();
    let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
    let statements = lines.min(size / 8 + 1);
    let _ = parser.mesh.vertices.try_reserve(statements);
    let _ = parser.mesh.surfaces.try_reserve(statements);
    parser
        .mesh
        .polygons
        .reserve(statements, statements.saturating_mul(3).min(size / 2 + 1));
}

/// Reads OBJ text.
pub fn read_obj(
    input: Input<'_>,
    options: &ReadOptions,
    diag: &mut Diagnostics,
) -> Result<NavMesh, ReadError> {
    let threads = walkmesh_core::threads::available().min(8);
    read_obj_split(input, options, diag, parallel::PARALLEL_BYTES, threads)
}

/// [`read_obj`] pre-parsing in `threads` chunks when the input has at least `min_bytes`
/// (tests compare every split with the serial path).
pub(crate) fn read_obj_split(
    input: Input<'_>,
    options: &ReadOptions,
    diag: &mut Diagnostics,
    min_bytes: usize,
    threads: usize,
) -> Result<NavMesh, ReadError> {
    let mut parser = ObjParser::new(options, diag);
    reserve(&mut parser, input.bytes);
    if threads > 1
        && let Some(text) = parallel::eligible(input.bytes, min_bytes)
    {
        let up = options.up;
        // A thread that stopped (it cannot on valid UTF-8, but a lost chunk would lose
        // faces silently) sends the whole file down the serial path below.
        let chunks: Option<Vec<parallel::Chunk<'_>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = parallel::cut(text, threads)
                .into_iter()
                .map(|part| scope.spawn(move || parallel::pre_parse(part, up)))
                .collect();
            handles
                .into_iter()
                .map(|handle| handle.join().ok())
                .collect()
        });
        if let Some(chunks) = chunks {
            let mut first_line = 1u64;
            for chunk in &chunks {
                parser.apply_chunk(chunk, first_line)?;
                first_line += chunk.kinds.len() as u64;
            }
            return parser.finish(diag);
        }
    }
    // Only statements continued with a trailing backslash are copied; others are parsed in
    // place.
    let mut pending = String::new();
    let mut pending_line = 0u64;
    for (number, raw) in input.bytes.split(|&b| b == b'\n').enumerate() {
        let line = number as u64 + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let text = std::str::from_utf8(raw).map_err(|e| {
            err(
                line,
                "",
                format!(
                    "the line is not UTF-8 text (byte {} of the line)",
                    e.valid_up_to() + 1
                ),
            )
        })?;
        if let Some(head) = text.strip_suffix('\\') {
            if pending.is_empty() {
                pending_line = line;
            }
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        if pending.is_empty() {
            parser.line(line, text)?;
        } else {
            pending.push_str(text);
            let statement = std::mem::take(&mut pending);
            parser.line(pending_line, &statement)?;
        }
    }
    if !pending.is_empty() {
        let statement = std::mem::take(&mut pending);
        parser.line(pending_line, &statement)?;
    }
    parser.finish(diag)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn floats_parse_exactly_and_reject_junk() {
        assert_eq!(float_token("1.5"), Some(1.5));
        assert_eq!(float_token("-2e3"), Some(-2000.0));
        assert_eq!(float_token("+.5"), Some(0.5));
        assert_eq!(
            float_token("1.0000001").map(f32::to_bits),
            Some(1.000_000_1f32.to_bits())
        );
        assert!(float_token("nan").unwrap().is_nan());
        assert_eq!(float_token("-inf"), Some(f32::NEG_INFINITY));
        assert_eq!(float_token("1.5x"), None);
        assert_eq!(float_token("x"), None);
        assert_eq!(float_token(""), None);
    }

    #[test]
    fn corners_and_relative_indices() {
        assert_eq!(corner("3"), Ok(("", (3, None, None))));
        assert_eq!(corner("3/4"), Ok(("", (3, Some(4), None))));
        assert_eq!(corner("3//5"), Ok(("", (3, None, Some(5)))));
        assert_eq!(corner("-1/-2/-3"), Ok(("", (-1, Some(-2), Some(-3)))));
        assert_eq!(resolve(1, 4), Some(0));
        assert_eq!(resolve(4, 4), Some(3));
        assert_eq!(resolve(5, 4), None);
        assert_eq!(resolve(-1, 4), Some(3));
        assert_eq!(resolve(-4, 4), Some(0));
        assert_eq!(resolve(-5, 4), None);
        assert_eq!(resolve(0, 4), None);
        assert_eq!(resolve(i64::MIN, 4), None);
    }

    /// Reads `text` serially and split in 2..=7 chunks: the same mesh and diagnostics, or
    /// the same error.
    fn parallel_equals_serial(text: &str, up: UpAxis) {
        let options = ReadOptions {
            up,
            ..ReadOptions::default()
        };
        let read = |min_bytes: usize, threads: usize| {
            let mut diag = Diagnostics::new();
            let result = read_obj_split(
                Input {
                    bytes: text.as_bytes(),
                    path: None,
                },
                &options,
                &mut diag,
                min_bytes,
                threads,
            );
            (result.map_err(|e| e.to_string()), diag.items)
        };
        let serial = read(usize::MAX, 1);
        for threads in 2..=7 {
            assert_eq!(read(0, threads), serial, "{threads} chunks of {text:?}");
        }
    }

    #[test]
    fn split_reading_equals_serial_reading() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpora/obj");
        let mut seen = 0;
        for entry in std::fs::read_dir(&fixtures).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "obj") {
                let text = std::fs::read_to_string(&path).unwrap();
                parallel_equals_serial(&text, UpAxis::Y);
                parallel_equals_serial(&text, UpAxis::Z);
                seen += 1;
            }
        }
        assert!(seen >= 5, "{seen} fixtures");
        // Texture coordinates and normals, materials, groups, directives, comments, CRLF.
        let rich = "#@walkmesh kind area\r\nmtllib a.mtl\nv 0 0 0\nv 1 0 0 # c\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvn 0 0 1\no floor\nusemtl Stone\nf 1/1/1 2/2/1 3//1\ng g1\nusemtl Mystery\nf -4 -2 -1\n#@walkmesh edge 1 0 transition 3\ns off\nf 1 2 3 4\n\n";
        parallel_equals_serial(rich, UpAxis::Z);
        // Every error reported by the line it is on, whichever chunk it falls in.
        for bad in [
            "f 1 2 9",
            "f 1 2 0",
            "f 1/3 2/1 3/1",
            "f 1//2 2//1 3//1",
            "f 1 2",
            "f 1 2 x",
            "v 1 nan 2",
            "v 1 2",
            "vt",
            "vn 0 1",
            "usemtl",
            "#@walkmesh bogus",
            "f -9 1 2",
        ] {
            let text =
                format!("v 0 0 0\nv 1 0 0\nvt 0 0\nvn 0 0 1\nf 1 2 1\n{bad}\nv 1 1 0\nf 1 2 3\n");
            parallel_equals_serial(&text, UpAxis::Y);
        }
        // A face using a vertex defined only in a later chunk.
        let mut late = String::from("f 1 2 3\n");
        late.push_str(&"# filler\n".repeat(50));
        late.push_str("v 0 0 0\nv 1 0 0\nv 1 1 0\n");
        parallel_equals_serial(&late, UpAxis::Y);
    }

    #[test]
    fn a_continued_line_or_a_non_utf8_file_is_read_serially() {
        assert!(parallel::eligible(b"v 0 0 \\\n0\n", 0).is_none());
        assert!(parallel::eligible(b"v 0 0 \\\r\n0\n", 0).is_none());
        assert!(parallel::eligible(b"v 0 0 0\n\xff\n", 0).is_none());
        assert!(parallel::eligible(b"v 0 0 0\n", 0).is_some());
        assert!(parallel::eligible(b"v 0 0 0\n", 9).is_none());
        parallel_equals_serial("v 0 0 \\\n0\nv 1 0 0\nv 1 1 0\nf 1 2 3\n", UpAxis::Y);
    }
}
